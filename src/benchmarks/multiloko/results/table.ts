// The leaderboard as plain text: per subset EM/F1/chrF (more on request), then per group average EM ± 2 SE, min, max, gap.
import { MULTILOKO_METRICS, type MultiLoKoMetric } from '../../../metrics/metricNames.ts';
import type { GroupSummary } from './rollup.ts';
import type { RolledSubset } from '../run/rolledSubset.ts';
import { METRIC_LABELS, UNIT_METRICS, type GateOutcome } from '../run/gates.ts';
import { alignedColumns, gateSection } from '../../../core/textTable.ts';
import type { BaselineComparison } from '../run/baselineGate.ts';
import { subsetIntervals, type MetricInterval } from './intervals.ts';

export const DEFAULT_TABLE_METRICS: readonly MultiLoKoMetric[] = ['em', 'f1', 'chrf'];

/** `all`, or metric names; EM, F1 and chrF are always shown. */
export function tableMetrics(requested: readonly string[] | undefined): MultiLoKoMetric[] {
  if (!requested) return [...DEFAULT_TABLE_METRICS];
  if (requested.includes('all')) return [...MULTILOKO_METRICS];
  for (const name of requested) {
    if (!(MULTILOKO_METRICS as readonly string[]).includes(name)) {
      throw new Error(`LOKAL_TABLE_METRICS: unknown metric ${JSON.stringify(name)} (known: all, ${MULTILOKO_METRICS.join(', ')})`);
    }
  }
  return MULTILOKO_METRICS.filter((m) => DEFAULT_TABLE_METRICS.includes(m) || requested.includes(m));
}

/** 0–1 metrics with 3 decimals, 0–100 metrics and edit distance with 1 and 2. */
export function formatMetric(metric: MultiLoKoMetric, value: number): string {
  if (UNIT_METRICS.has(metric)) return value.toFixed(3);
  return metric === 'edit_distance' ? value.toFixed(2) : value.toFixed(1);
}

/** EM's Wilson interval as `[lo, hi]`; blank without items. */
function emInterval(interval: MetricInterval | undefined): string {
  return interval && interval.n > 1 ? `[${formatMetric('em', interval.low)}, ${formatMetric('em', interval.high)}]` : '';
}

/** A mean with its interval, `0.512 [0.470, 0.553]` (inside the metric's scale); the mean alone without one. */
function withInterval(metric: MultiLoKoMetric, value: number, interval: MetricInterval | undefined): string {
  if (!interval || interval.low === interval.high) return formatMetric(metric, value);
  return `${formatMetric(metric, value)} [${formatMetric(metric, interval.low)}, ${formatMetric(metric, interval.high)}]`;
}

/** Per metric the table's cells: EM and its `[lo, hi]` column, the others `mean [lo, hi]`. */
function metricCells(metric: MultiLoKoMetric, value: number, interval: MetricInterval | undefined): string[] {
  return metric === 'em' ? [formatMetric('em', value), emInterval(interval)] : [withInterval(metric, value, interval)];
}

export function leaderboardLines(subsets: readonly RolledSubset[], groups: readonly GroupSummary[], metrics: readonly MultiLoKoMetric[]): string[] {
  const lines: string[] = [];
  const bySubset = new Map(subsets.map((s) => [s.aggregate.key, s]));
  for (const group of groups) {
    const header = ['subset', 'items', ...metrics.flatMap((m) => (m === 'em' ? ['EM', '95% CI'] : [`${METRIC_LABELS[m]} [95% CI]`]))];
    const rows = group.subsets.map((key) => {
      const { aggregate: a, records } = bySubset.get(key)!;
      const items = `${a.scored}${a.missing ? ` (${a.missing}∅)` : ''}${a.failed ? ` (${a.failed}✗)` : ''}`;
      const intervals = subsetIntervals(records);
      return [a.name, items, ...metrics.flatMap((m) => metricCells(m, a.means![m], intervals[m]))];
    });
    const averages = ['average', '', ...metrics.flatMap((m) => (m === 'em' ? [formatMetric(m, group.figures.average_em!), ''] : [formatMetric(m, group.figures[`average_${m}`]!)]))];
    lines.push(`MultiLoKo · ${group.title}`);
    lines.push(...alignedColumns([header, ...rows, averages], (c) => c > 0).map((l) => `  ${l}`));
    const em = group.em;
    const spread = em.se === null ? '(one language: no standard error)' : `± ${formatMetric('em', 2 * em.se)} (2 SE over ${group.languages} languages)`;
    lines.push(
      `  EM ${formatMetric('em', em.average)} ${spread} · min ${formatMetric('em', em.min.value)} (${em.min.language}) · max ${formatMetric('em', em.max.value)} (${em.max.language}) · gap ${formatMetric('em', group.figures.gap_em!)}`,
    );
    lines.push('');
  }
  return lines;
}

export function gateLines(outcomes: readonly GateOutcome[], notApplied: readonly string[]): string[] {
  return gateSection('MultiLoKo gates', outcomes, notApplied, 'no such subset or no local subset in this run');
}

/** Below the gate lines in significance mode: subsets not compared, and how many items flipped per subset. */
export function baselineLines(comparison: BaselineComparison): string[] {
  const lines = [`MultiLoKo vs baseline ${comparison.file} · EM paired by id, α = ${comparison.alpha} (Holm), margin ${comparison.margin}`];
  const flips = Object.entries(comparison.flips).filter(([, f]) => f.worse.length + f.better.length > 0);
  lines.push(`  flipped items: ${flips.length === 0 ? 'none' : flips.map(([key, f]) => `${key} ${f.worse.length} right → wrong, ${f.better.length} wrong → right`).join('; ')} (listed in the results file, summary.baseline.flips)`);
  if (comparison.only_current.length > 0) lines.push(`  not in the baseline, not compared: ${comparison.only_current.join(', ')}`);
  if (comparison.only_baseline.length > 0) lines.push(`  in the baseline only, not compared: ${comparison.only_baseline.join(', ')}`);
  return lines;
}
