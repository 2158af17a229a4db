// Kalahi's roll-up (defineBenchmark's `report`): tables, gates and the results file — loaded by the definition only
// when the reporter rolls up.
import type { BenchmarkReport, ReportContext, RolledGroup } from '../../core/benchmark.ts';
import type { KalahiSettings } from './config.ts';
import { judgeKalahi, kalahiGate } from './gates.ts';
import type { KalahiPromptRecord, KalahiSuiteAggregate } from './records.ts';
import { kalahiResults, resultsText } from './results.ts';
import { kalahiGateLines, kalahiTableLines } from './table.ts';
import { kalahiIntervals } from './intervals.ts';

export function reportKalahi(rolled: ReadonlyArray<RolledGroup<KalahiPromptRecord, KalahiSuiteAggregate>>, { clauses }: Pick<ReportContext<KalahiSettings>, 'clauses'>): BenchmarkReport {
  const suites = rolled.map((r) => ({ aggregate: r.aggregate, records: r.records }));
  const judged = judgeKalahi(clauses.map(kalahiGate), suites.map((s) => s.aggregate));
  const plain = kalahiResults(suites, judged);
  // Each variant's intervals beside its figures (before the long list of records).
  const results = {
    ...plain,
    variants: Object.fromEntries(
      suites.map((s) => {
        const { records, ...figures } = plain.variants[s.aggregate.variant]!;
        return [s.aggregate.variant, { ...figures, intervals: kalahiIntervals(s.records, Object.keys(s.aggregate.byCategory)), records }];
      }),
    ),
  };
  return {
    lines: ['', ...kalahiTableLines(suites), ...kalahiGateLines(judged.outcomes, judged.notApplied)],
    resultsText: resultsText(results),
    passed: results.gates_passed,
  };
}
