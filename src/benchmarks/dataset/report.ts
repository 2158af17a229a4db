// A dataset benchmark's roll-up: the table of groups with each metric's interval, the gates (thresholds and the
// baseline), and the results file in the shared groups layout (src/report/groupsResults.ts), which the HTML report,
// the step summary, Vitest UI's summary and `lokal compare` render for any benchmark.
import { countErrorCategories } from '../../metrics/errorCategory.ts';
import type { BenchmarkReport, ReportContext, RolledGroup } from '../benchmark.ts';
import { baselineFileFor } from '../../core/baseline/index.ts';
import { comparedNothing, noBaselineFileReason } from '../../core/baseline/comparedNothing.ts';
import type { GateOutcome } from '../../core/gates.ts';
import type { SharedSettings } from '../../core/settings.ts';
import { itemMeanInterval } from '../../core/statistics/index.ts';
import { alignedColumns, gateSection } from '../../core/textTable.ts';
import { GROUPS_LAYOUT, type FigureValueJson, type GroupJson, type GroupsResultsJson } from '../../report/groupsResults.ts';
import { judgeDatasetBaseline, judgeDatasetTolerance, readDatasetBaseline } from './baseline.ts';
import { datasetGates, judgeDatasetGates } from './gates.ts';
import type { DatasetMetric } from './options.ts';
import type { DatasetAggregate, DatasetRecord } from './records.ts';
import { METRIC_INFO } from './scoring.ts';

/** What the roll-up needs of the definition. */
export interface DatasetReportSpec {
  name: string;
  title: string;
  resultsFile: string;
  metrics: readonly DatasetMetric[];
  /** Every group of the data (the gates' scopes). */
  groups: readonly string[];
}

type DatasetRolled = RolledGroup<DatasetRecord, DatasetAggregate>;

const CONFIDENCE = 0.95;

function figure(records: readonly DatasetRecord[], metric: DatasetMetric): FigureValueJson | null {
  const values = records.map((r) => r.scores[metric] ?? 0);
  const interval = itemMeanInterval(values, METRIC_INFO[metric].kind, CONFIDENCE, METRIC_INFO[metric].top);
  if (!interval) return null;
  return { value: values.reduce((a, b) => a + b, 0) / values.length, low: interval.low, high: interval.high, n: interval.n, method: interval.method };
}

function groupJson(spec: DatasetReportSpec, g: DatasetRolled): GroupJson {
  const a = g.aggregate;
  const errors = g.records.flatMap((r) => (r.error ? [r.error] : []));
  return {
    key: a.key,
    name: a.name,
    selected: a.selected,
    total: a.total,
    scored: a.scored,
    missing: a.missing,
    failed: a.failed,
    figures: Object.fromEntries(spec.metrics.map((m) => [m, figure(g.records, m)])),
    ...(errors.length > 0 ? { errors: countErrorCategories(errors) } : {}),
    records: g.records.map((r) => ({
      id: r.id,
      verdict: r.missing ? 'missing' : r.correct ? 'correct' : 'wrong',
      scores: r.scores as Record<string, number>,
      ...(r.error ? { error: r.error } : {}),
      ...(r.question === undefined ? {} : { question: r.question }),
      ...(r.accepted ? { accepted: r.accepted } : {}),
      answer: r.answer,
      prediction: r.prediction,
      targets: r.targets,
      cached: r.cached,
      ...(r.modelInput ? { model_input: r.modelInput } : {}),
    })),
  };
}

/** The results object of a run (without baseline tests: `summary` runs in the test worker and reads no file). */
export function datasetResults(spec: DatasetReportSpec, groups: readonly DatasetRolled[], gates: { outcomes: GateOutcome[]; notApplied: string[] }): GroupsResultsJson {
  const all = groups.flatMap((g) => g.records);
  const groupsJson = groups.map((g) => groupJson(spec, g));
  const sum = (pick: (g: GroupJson) => number) => groupsJson.reduce((n, g) => n + pick(g), 0);
  return {
    layout: GROUPS_LAYOUT,
    benchmark: spec.name,
    title: spec.title,
    ...(groups[0]?.aggregate.model !== undefined ? { model: groups[0].aggregate.model } : {}),
    confidence: CONFIDENCE,
    figures: spec.metrics.map((m) => ({ name: m, ...METRIC_INFO[m] })),
    overall: {
      selected: sum((g) => g.selected),
      total: sum((g) => g.total),
      scored: sum((g) => g.scored),
      missing: sum((g) => g.missing),
      failed: sum((g) => g.failed),
      figures: Object.fromEntries(spec.metrics.map((m) => [m, figure(all, m)])),
    },
    groups: groupsJson,
    gates: gates.outcomes.map((o) => ({ ...o, value: Number.isNaN(o.value) ? null : o.value })),
    gates_not_applied: gates.notApplied,
    gates_passed: gates.outcomes.every((o) => o.pass),
  };
}

const cell = (f: FigureValueJson | null, top: number) => {
  if (!f) return '–';
  const digits = top === 100 ? 2 : 3;
  return `${f.value.toFixed(digits)} [${f.low.toFixed(digits)}, ${f.high.toFixed(digits)}]`;
};

/** The terminal table: one row per group and the run's row, each metric with its interval. */
function datasetTableLines(results: GroupsResultsJson): string[] {
  const header = ['group', 'items', ...results.figures.map((f) => `${f.label} [${Math.round(results.confidence * 100)}% ${f.kind === 'proportion' ? 'Wilson' : 'quasi-Wilson'}]`)];
  const row = (name: string, g: Omit<GroupJson, 'key' | 'name' | 'records'>) => [name, `${g.scored}${g.missing ? ` (${g.missing}∅)` : ''}${g.failed ? ` (${g.failed} failed)` : ''}`, ...results.figures.map((f) => cell(g.figures[f.name] ?? null, f.top))];
  const rows = results.groups.map((g) => row(g.key, g));
  if (results.groups.length > 1) rows.push(row('all', results.overall));
  const items = results.overall.selected === results.overall.total ? `${results.overall.total} items` : `${results.overall.selected} of ${results.overall.total} items`;
  return ['', `${results.title} · ${items}${results.model ? ` · ${results.model}` : ''}`, ...alignedColumns([header, ...rows], (c) => c > 0).map((l) => `  ${l}`)];
}

/** The roll-up of the run: thresholds judged over every group, then the baseline when one is set. */
export function reportDataset(spec: DatasetReportSpec, groups: readonly DatasetRolled[], { settings, root, clauses }: ReportContext<SharedSettings>): BenchmarkReport {
  const gates = datasetGates(clauses, spec.name, spec.metrics, spec.groups);
  const judged = judgeDatasetGates(gates, spec.title, groups.map((g) => g.aggregate));
  const results = datasetResults(spec, groups, judged);
  const baselineOutcomes: GateOutcome[] = [];
  if (settings.baseline !== undefined) {
    const file = baselineFileFor(settings.baseline, root, spec.name, spec.resultsFile);
    const metric = spec.metrics[0]!;
    const named = groups.map((g) => ({ key: g.aggregate.key, name: g.aggregate.name, records: g.records }));
    // A baseline that cannot be used is a failing gate, never a lost results file.
    try {
      if (file === undefined) throw new Error(noBaselineFileReason(settings.baseline, root, spec.title, spec.resultsFile));
      const scores = readDatasetBaseline(file, spec.name, metric);
      if (settings.baselineMode === 'tolerance') {
        baselineOutcomes.push(...judgeDatasetTolerance(named, scores, metric, spec.title, settings.baselineTolerance, file));
        results.baseline = { file, mode: 'tolerance' };
      } else {
        const significance = { alpha: settings.baselineAlpha, margin: settings.baselineMargin };
        const { outcomes, tests } = judgeDatasetBaseline(named, scores, metric, spec.title, significance, file);
        baselineOutcomes.push(...outcomes);
        results.baseline = { file, mode: 'significance', ...significance, tests };
      }
      if (baselineOutcomes.length === 0) throw new Error(`the baseline ${file} pairs no item with this run`);
    } catch (error) {
      baselineOutcomes.push(comparedNothing(spec.title, (error as Error).message));
    }
    results.gates.push(...baselineOutcomes.map((o) => ({ ...o, value: Number.isNaN(o.value) ? null : o.value })));
    results.gates_passed = results.gates.every((g) => g.pass);
  }
  const lines = [...datasetTableLines(results), ...gateSection(`${spec.title} gates`, [...judged.outcomes, ...baselineOutcomes], judged.notApplied, 'no such group in this run')];
  const missed = [...judged.outcomes, ...baselineOutcomes].filter((o) => !o.pass);
  return { lines, resultsText: `${JSON.stringify(results, null, 2)}\n`, results, passed: results.gates_passed, missed };
}
