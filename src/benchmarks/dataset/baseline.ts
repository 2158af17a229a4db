// A dataset benchmark against a baseline results file of the same benchmark: the first metric paired by item id in
// each group, and over every group pooled when there are several, in one Holm family (the significance-tested gate
// every benchmark shares); or, in tolerance mode, each group's mean allowed a fixed drop. Scores on a 0–100 scale
// (chrF, BLEU) are divided by 100, so that the margin and the tolerance mean the same thing for every metric.
import { readFileSync } from 'node:fs';
import { baselineOutcome, judgeBaselineFamily, pairedFigure, type BaselineTest, type PairedFigure, type SignificanceSettings } from '../../core/baseline/index.ts';
import { judge, type GateOutcome } from '../../core/gates.ts';
import { MAX_JSON_DEPTH, tooDeep } from '../../core/jsonDepth.ts';
import { GroupsResultsSchema, isGroupsResults, type GroupsResultsJson } from '../../report/groupsResults.ts';
import { parseResultsFile, ResultsFileError } from '../../core/resultsFile.ts';
import type { DatasetMetric } from './options.ts';
import type { DatasetRecord } from './records.ts';
import { METRIC_INFO } from './scoring.ts';

class DatasetBaselineError extends Error {
  constructor(file: string, field: string | undefined, detail: string) {
    super(`baseline ${file}${field ? ` field "${field}"` : ''}: ${detail}`);
    this.name = 'DatasetBaselineError';
  }
}

/** Group key → item id → the metric's score on a 0–1 scale. */
type BaselineScores = Map<string, Map<string, number>>;

export function readDatasetBaseline(file: string, benchmark: string, metric: DatasetMetric): BaselineScores {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new DatasetBaselineError(file, undefined, code ? `cannot read (${code})` : `malformed JSON: ${(error as Error).message}`);
  }
  const deep = tooDeep(value);
  if (deep !== undefined) throw new DatasetBaselineError(file, deep.replace(/^\./u, '').slice(0, 120), `nested more than ${MAX_JSON_DEPTH} levels deep; not a results file`);
  if (!isGroupsResults(value)) throw new DatasetBaselineError(file, 'layout', `not a ${benchmark} results file (expected the ${benchmark}.json a run writes)`);
  const results: GroupsResultsJson = value;
  if (results.benchmark !== benchmark) throw new DatasetBaselineError(file, 'benchmark', `holds ${results.benchmark} results, not ${benchmark}'s`);
  const top = METRIC_INFO[metric].top;
  const groups: BaselineScores = new Map();
  results.groups.forEach((g, i) => {
    if (!Array.isArray(g.records)) throw new DatasetBaselineError(file, `groups[${i}].records`, 'missing or not a list (the per-item records are what is paired)');
    const scores = new Map<string, number>();
    g.records.forEach((r, j) => {
      const score = r.scores?.[metric];
      if (typeof score !== 'number' || !Number.isFinite(score)) throw new DatasetBaselineError(file, `groups[${i}].records[${j}].scores.${metric}`, `missing (the baseline run did not measure ${metric})`);
      if (r.verdict !== 'missing') scores.set(String(r.id), score / top);
    });
    groups.set(g.key, scores);
  });
  // The rest of the file against the layout's schema (the checks above say more about the fields paired).
  const checked = ResultsFileError.check(() => parseResultsFile(GroupsResultsSchema, value, file));
  if (checked) throw new DatasetBaselineError(file, checked.field, checked.detail);
  return groups;
}

interface DatasetGroupRecords {
  key: string;
  name: string;
  records: readonly DatasetRecord[];
}

function scoresOf(group: DatasetGroupRecords, metric: DatasetMetric) {
  const top = METRIC_INFO[metric].top;
  return group.records.filter((r) => !r.missing).map((r) => ({ id: String(r.id), cluster: String(r.id), score: (r.scores[metric] ?? 0) / top }));
}

export function judgeDatasetBaseline(
  groups: readonly DatasetGroupRecords[],
  baseline: BaselineScores,
  metric: DatasetMetric,
  title: string,
  settings: SignificanceSettings,
  file: string,
): { outcomes: GateOutcome[]; tests: BaselineTest[] } {
  const kind = METRIC_INFO[metric].kind === 'proportion' ? 'binary' : 'continuous';
  const label = METRIC_INFO[metric].label;
  const compared = groups.filter((g) => baseline.has(g.key));
  const figures: PairedFigure[] = compared.map((g) => pairedFigure(g.key, `${title} ${g.key} ${label}`, scoresOf(g, metric), baseline.get(g.key)!, kind));
  if (compared.length > 1) {
    const pooled = new Map([...compared].flatMap((g) => [...baseline.get(g.key)!]));
    figures.push(pairedFigure('pooled', `${title} all groups pooled (${compared.length}) ${label}`, compared.flatMap((g) => scoresOf(g, metric)), pooled, kind));
  }
  const tests = judgeBaselineFamily(figures, settings);
  return { outcomes: tests.map((t) => baselineOutcome(t, settings, file)), tests };
}

/** Tolerance mode: each group's mean of the metric (0–1 scale) at least the baseline's minus `tolerance`. */
export function judgeDatasetTolerance(groups: readonly DatasetGroupRecords[], baseline: BaselineScores, metric: DatasetMetric, title: string, tolerance: number, file: string): GateOutcome[] {
  const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  return groups.flatMap((g) => {
    const before = [...(baseline.get(g.key)?.values() ?? [])];
    const now = scoresOf(g, metric).map((s) => s.score);
    if (before.length === 0 || now.length === 0) return [];
    const outcome = judge(`baseline(-${tolerance})`, `${title} ${g.key} ${METRIC_INFO[metric].label}`, mean(now), '>=', mean(before) - tolerance);
    outcome.message += `; baseline ${mean(before).toFixed(4)} in ${file}`;
    return [outcome];
  });
}
