// 95% intervals of MultiLoKo's figures. A subset's metric is a mean of per-item scores: Wilson's interval for EM (0/1
// per item), the t-interval of the mean for the rest. The headline figures (average EM over languages, gap, MTE, LE)
// are not means of item scores: a seeded bootstrap that resamples questions within each source language, a question
// together with its translations (they share the id), and recomputes every figure as the official README defines it.
import { meanInterval, stratifiedBootstrap, wilsonInterval, type FigureInterval } from '../../core/statistics/index.ts';
import { MULTILOKO_METRICS, type MultiLoKoMetric } from './metrics/metricNames.ts';
import { multilokoHeadline } from './metrics/multilokoEffects.ts';
import type { LokalItemRecord } from './records.ts';
import type { RolledSubset } from './rollup.ts';

export interface MetricInterval {
  low: number;
  high: number;
  /** Standard error of the mean; null for one item. */
  se: number | null;
  n: number;
  method: 'wilson' | 't';
}

/** Records that enter the means (eval.py skips an id equal to a metric name). */
function counted(records: readonly LokalItemRecord[]): LokalItemRecord[] {
  return records.filter((r) => !(typeof r.id === 'string' && (MULTILOKO_METRICS as readonly string[]).includes(r.id)));
}

/** Every metric's interval over a subset's items; empty without items. */
export function subsetIntervals(records: readonly LokalItemRecord[]): Partial<Record<MultiLoKoMetric, MetricInterval>> {
  const items = counted(records);
  if (items.length === 0) return {};
  const out: Partial<Record<MultiLoKoMetric, MetricInterval>> = {};
  for (const metric of MULTILOKO_METRICS) {
    const values = items.map((r) => r.scores[metric]);
    const binary = values.every((v) => v === 0 || v === 1);
    if (metric === 'em' && binary) {
      const { low, high, se, n } = wilsonInterval(values.filter((v) => v === 1).length, values.length);
      out[metric] = { low, high, se, n, method: 'wilson' };
    } else {
      const { low, high, se, n } = meanInterval(values);
      out[metric] = { low, high, se, n, method: 't' };
    }
  }
  return out;
}

export interface HeadlineIntervals {
  method: 'stratified cluster bootstrap';
  /** Strata: the questions' source language; clusters: a question and its translations (same id). */
  resamples: number;
  seed: number;
  confidence: number;
  /** `average_em`, `gap_em`, `mte_human`, `mte_machine`, `le_human`, `le_machine`, and per language `mte_human:<language>` etc. */
  figures: Record<string, FigureInterval>;
}

const EFFECTS = [
  ['mte_human', (h: ReturnType<typeof multilokoHeadline>) => h.motherTongueEffect.human],
  ['mte_machine', (h: ReturnType<typeof multilokoHeadline>) => h.motherTongueEffect.machine],
  ['le_human', (h: ReturnType<typeof multilokoHeadline>) => h.localityEffect.human],
  ['le_machine', (h: ReturnType<typeof multilokoHeadline>) => h.localityEffect.machine],
] as const;

/** The headline figures of per-subset EM sums and counts (a subset left empty by a resample is absent). */
function headlineFigures(keys: readonly string[], sums: Float64Array, counts: Uint32Array): Record<string, number | null> {
  const emByKey: Record<string, number> = {};
  keys.forEach((key, i) => {
    if (counts[i]! > 0) emByKey[key] = sums[i]! / counts[i]!;
  });
  const h = multilokoHeadline(emByKey);
  const out: Record<string, number | null> = { average_em: h.local?.mean ?? null, gap_em: h.local?.gap ?? null };
  for (const [name, effect] of EFFECTS) {
    const e = effect(h);
    out[name] = e.average?.mean ?? null;
    for (const [language, value] of Object.entries(e.perLanguage)) out[`${name}:${language}`] = value;
  }
  return out;
}

/** Bootstrap intervals of the headline; undefined when no local subset has items. */
export function headlineIntervals(subsets: readonly RolledSubset[], options: { resamples?: number; seed?: number; confidence?: number } = {}): HeadlineIntervals | undefined {
  const scored = subsets.filter((s) => s.aggregate.means && s.records.length > 0);
  if (!scored.some((s) => !s.aggregate.translated)) return undefined;
  const keys = scored.map((s) => s.aggregate.key);
  // Source language → question id → the question's items in every subset: [subset index, EM].
  const strata = new Map<string, Map<string, Array<[number, number]>>>();
  scored.forEach((s, index) => {
    let clusters = strata.get(s.aggregate.sourceLanguage);
    if (!clusters) strata.set(s.aggregate.sourceLanguage, (clusters = new Map()));
    for (const r of counted(s.records)) {
      const id = `${typeof r.id}:${String(r.id)}`;
      let cluster = clusters.get(id);
      if (!cluster) clusters.set(id, (cluster = []));
      cluster.push([index, r.scores.em]);
    }
  });
  const sums = new Float64Array(keys.length);
  const counts = new Uint32Array(keys.length);
  const result = stratifiedBootstrap(
    [...strata.values()].map((clusters) => [...clusters.values()]),
    (sample) => {
      sums.fill(0);
      counts.fill(0);
      for (const stratum of sample) {
        for (const cluster of stratum) {
          for (const [index, em] of cluster) {
            sums[index] += em;
            counts[index]++;
          }
        }
      }
      return headlineFigures(keys, sums, counts);
    },
    options,
  );
  return { method: 'stratified cluster bootstrap', resamples: result.resamples, seed: result.seed, confidence: result.confidence, figures: result.intervals };
}
