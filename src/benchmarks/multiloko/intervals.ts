// 95% intervals of MultiLoKo's figures. A subset's metric is a mean of per-item scores: Wilson's interval for EM (0/1
// per item), the t-interval of the mean for the rest. The headline figures (average EM over languages, gap, MTE, LE)
// are not means of item scores: a seeded bootstrap that resamples questions within each source language, a question
// together with its translations (they share the id), and recomputes every figure as the official README defines it.
import { meanInterval, stratifiedBootstrap, wilsonInterval, type FigureInterval } from '../../core/statistics/index.ts';
import { MULTILOKO_METRICS, type MultiLoKoMetric } from './metrics/metricNames.ts';
import { parseMultilokoSubsetKey } from './metrics/multilokoEffects.ts';
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

/** Which subsets feed which figure, by the official key names (as multilokoHeadline reads them), worked out once. */
interface HeadlinePlan {
  local: number[];
  /** Per effect: [language, local subset, the other subset]. */
  effects: Array<[string, Array<[string, number, number]>]>;
}

function headlinePlan(keys: readonly string[]): HeadlinePlan {
  const local = new Map<string, number>();
  const other = { mte_human: new Map<string, number>(), mte_machine: new Map<string, number>(), le_human: new Map<string, number>(), le_machine: new Map<string, number>() };
  keys.forEach((key, i) => {
    const s = parseMultilokoSubsetKey(key);
    if (s.kind === 'local') local.set(s.language, i);
    else if (s.questionLanguage === 'english' && s.sourceLanguage !== 'english') other[`mte_${s.translation}`].set(s.sourceLanguage, i);
    else if (s.sourceLanguage === 'english' && s.questionLanguage !== 'english') other[`le_${s.translation}`].set(s.questionLanguage, i);
  });
  const effects = Object.entries(other).map(([name, byLanguage]): [string, Array<[string, number, number]>] => [
    name,
    [...local].flatMap(([language, i]): Array<[string, number, number]> => (byLanguage.has(language) ? [[language, i, byLanguage.get(language)!]] : [])),
  ]);
  return { local: [...local.values()], effects };
}

/** The headline figures of per-subset EMs (NaN: a subset the resample left empty, which then counts as absent). */
function headlineFigures(plan: HeadlinePlan, em: Float64Array): Record<string, number | null> {
  let sum = 0;
  let n = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const i of plan.local) {
    const v = em[i]!;
    if (Number.isNaN(v)) continue;
    sum += v;
    n++;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const out: Record<string, number | null> = { average_em: n === 0 ? null : sum / n, gap_em: n === 0 ? null : max - min };
  for (const [name, pairs] of plan.effects) {
    let total = 0;
    let count = 0;
    for (const [language, a, b] of pairs) {
      const d = em[a]! - em[b]!;
      if (Number.isNaN(d)) continue;
      out[`${name}:${language}`] = d;
      total += d;
      count++;
    }
    out[name] = count === 0 ? null : total / count;
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
  // Clusters as ranges of flat arrays: each resample then only adds numbers.
  const itemSubset: number[] = [];
  const itemEm: number[] = [];
  const starts: number[] = [];
  const stratumClusters = [...strata.values()].map((clusters) =>
    [...clusters.values()].map((cluster) => {
      starts.push(itemSubset.length);
      for (const [index, em] of cluster) {
        itemSubset.push(index);
        itemEm.push(em);
      }
      return starts.length - 1;
    }),
  );
  starts.push(itemSubset.length);
  const plan = headlinePlan(keys);
  const sums = new Float64Array(keys.length);
  const counts = new Float64Array(keys.length);
  const em = new Float64Array(keys.length);
  const result = stratifiedBootstrap(
    stratumClusters,
    (sample) => {
      sums.fill(0);
      counts.fill(0);
      for (const stratum of sample) {
        for (const cluster of stratum) {
          for (let k = starts[cluster]!, end = starts[cluster + 1]!; k < end; k++) {
            sums[itemSubset[k]!] += itemEm[k]!;
            counts[itemSubset[k]!]++;
          }
        }
      }
      for (let i = 0; i < keys.length; i++) em[i] = counts[i]! > 0 ? sums[i]! / counts[i]! : Number.NaN;
      return headlineFigures(plan, em);
    },
    options,
  );
  return { method: 'stratified cluster bootstrap', resamples: result.resamples, seed: result.seed, confidence: result.confidence, figures: result.intervals };
}
