// Kalahi's roll-up (defineBenchmark's `report`): tables, gates and the results file — loaded by the definition only
// when the reporter rolls up.
import type { BenchmarkReport, ReportContext, RolledGroup } from '../../core/benchmark.ts';
import type { KalahiSettings } from './config.ts';
import { judgeKalahi, kalahiGate } from './gates.ts';
import type { KalahiPromptRecord, KalahiSuiteAggregate } from './records.ts';
import { kalahiResults, resultsText } from './results.ts';
import { kalahiGateLines, kalahiTableLines } from './table.ts';

export function reportKalahi(rolled: ReadonlyArray<RolledGroup<KalahiPromptRecord, KalahiSuiteAggregate>>, { clauses }: Pick<ReportContext<KalahiSettings>, 'clauses'>): BenchmarkReport {
  const suites = rolled.map((r) => ({ aggregate: r.aggregate, records: r.records }));
  const judged = judgeKalahi(clauses.map(kalahiGate), suites.map((s) => s.aggregate));
  const results = kalahiResults(suites, judged);
  const lines = ['', ...kalahiTableLines(suites), ...kalahiGateLines(judged.outcomes, judged.notApplied)];
  // A run in which no prompt was scored (no reply matched, every call failed) measured nothing: it must not pass.
  const scored = suites.reduce((n, s) => n + (s.aggregate.overall.mc?.scored ?? 0) + (s.aggregate.overall.generation?.scored ?? 0), 0);
  const selected = suites.reduce((n, s) => n + s.aggregate.selected, 0);
  if (selected > 0 && scored === 0) {
    lines.push(`lokal: Kalahi measured nothing: none of the ${selected} prompts was scored, so the run fails`);
    results.gates_passed = false;
  }
  return {
    lines,
    resultsText: resultsText(results),
    passed: results.gates_passed,
  };
}
