// 95% intervals of MultiLoKo's figures. A subset's metric is a mean of per-item scores: Wilson's interval for EM (0/1
// per item), the quasi-Wilson interval for the bounded means (F1, edit similarity on 0–1, BLEU and chrF on 0–100:
// core/statistics/boundedMean.ts), the t-interval for edit distance (a count without a top). The headline figures (average EM over languages, gap, MTE, LE)
// are not means of item scores: a seeded bootstrap that resamples questions within each source language, a question
// together with its translations (they share the id), and recomputes every figure as the official README defines it.
import { itemMeanInterval, stratifiedBootstrap, type FigureInterval, type IntervalMethod } from '../../../core/statistics/index.ts';
import { MULTILOKO_METRICS, type MultiLoKoMetric } from '../../../metrics/metricNames.ts';
import { parseSubsetKey } from '../data/subsetKey.ts';
import type { LokalItemRecord } from '../run/records.ts';
import type { RolledSubset } from '../run/rolledSubset.ts';

export interface MetricInterval {
  low: number;
  high: number;
  /** Standard error of the mean; null for one item. */
  se: number | null;
  n: number;
  method: IntervalMethod;
}

/** The top of each bounded metric's scale; edit distance has none. */
export const METRIC_TOPS: Record<MultiLoKoMetric, number | undefined> = { em: 1, f1: 1, edit_similarity: 1, bleu: 100, chrf: 100, edit_distance: undefined };

/** Records that enter the means (eval.py skips an id equal to a metric name). */
function counted(records: readonly LokalItemRecord[]): LokalItemRecord[] {
  return records.filter((r) => !(typeof r.id === 'string' && (MULTILOKO_METRICS as readonly string[]).includes(r.id)));
}

/** Every metric's interval over a subset's items; empty without items. */
export function subsetIntervals(records: readonly LokalItemRecord[], confidence = 0.95): Partial<Record<MultiLoKoMetric, MetricInterval>> {
  const items = counted(records);
  if (items.length === 0) return {};
  const out: Partial<Record<MultiLoKoMetric, MetricInterval>> = {};
  for (const metric of MULTILOKO_METRICS) {
    const values = items.map((r) => r.scores[metric]);
    out[metric] = itemMeanInterval(values, metric === 'em' ? 'proportion' : 'mean', confidence, METRIC_TOPS[metric]);
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
  /** The figures in the order the results list them: average_em, gap_em, then per effect its languages and itself. */
  names: string[];
}

function headlinePlan(keys: readonly string[]): HeadlinePlan {
  const local = new Map<string, number>();
  const other = { mte_human: new Map<string, number>(), mte_machine: new Map<string, number>(), le_human: new Map<string, number>(), le_machine: new Map<string, number>() };
  keys.forEach((key, i) => {
    const s = parseSubsetKey(key);
    if (s.kind === 'local') local.set(s.language, i);
    else if (s.questionLanguage === 'english' && s.sourceLanguage !== 'english') other[`mte_${s.translation}`].set(s.sourceLanguage, i);
    else if (s.sourceLanguage === 'english' && s.questionLanguage !== 'english') other[`le_${s.translation}`].set(s.questionLanguage, i);
  });
  const effects = Object.entries(other).map(([name, byLanguage]): [string, Array<[string, number, number]>] => [
    name,
    [...local].flatMap(([language, i]): Array<[string, number, number]> => (byLanguage.has(language) ? [[language, i, byLanguage.get(language)!]] : [])),
  ]);
  const names = ['average_em', 'gap_em', ...effects.flatMap(([name, pairs]) => [...pairs.map(([language]) => `${name}:${language}`), name])];
  return { local: [...local.values()], effects, names };
}

/** Writes the headline figures of per-subset EMs into `out`, in `plan.names` order (NaN: undefined, e.g. a subset the resample left empty). */
function headlineFigures(plan: HeadlinePlan, em: Float64Array, out: Float64Array): void {
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
  out[0] = n === 0 ? Number.NaN : sum / n;
  out[1] = n === 0 ? Number.NaN : max - min;
  let f = 2;
  for (const [, pairs] of plan.effects) {
    let total = 0;
    let count = 0;
    for (const [, a, b] of pairs) {
      const d = em[a]! - em[b]!;
      out[f++] = d;
      if (Number.isNaN(d)) continue;
      total += d;
      count++;
    }
    out[f++] = count === 0 ? Number.NaN : total / count;
  }
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
  // Each resample is read as how often it drew each cluster (clusters numbered stratum after stratum). A subset's EM
  // is then Σ draws·EM over its items with a non-zero EM, divided by Σ draws over all its items, which is the stratum's
  // size when the subset has one item in every cluster. EMs are 0 or 1, so these sums are exact whatever their order.
  const clusterLists = [...strata.values()].map((clusters) => [...clusters.values()]);
  const strataSizes = clusterLists.map((list) => list.length);
  const strataFirst: number[] = [];
  const subsetClusters = keys.map((): number[] => []);
  const subsetScored = keys.map((): Array<[number, number]> => []);
  const subsetStratum = new Int32Array(keys.length);
  let cluster = 0;
  clusterLists.forEach((list, k) => {
    strataFirst.push(cluster);
    for (const members of list) {
      for (const [index, em] of members) {
        subsetClusters[index]!.push(cluster);
        if (em !== 0) subsetScored[index]!.push([cluster, em]);
        subsetStratum[index] = k;
      }
      cluster++;
    }
  });
  const scoredCluster = subsetScored.map((list) => Int32Array.from(list, ([c]) => c));
  const scoredEm = subsetScored.map((list) => Float64Array.from(list, ([, em]) => em));
  // undefined: the subset has exactly one item in every cluster of its stratum, so its weight is the stratum's size.
  const weightClusters = subsetClusters.map((list, index) => {
    const k = subsetStratum[index]!;
    const first = strataFirst[k]!;
    const whole = list.length === strataSizes[k] && list.every((c, i) => c === first + i);
    return whole ? undefined : Int32Array.from(list);
  });
  const draws = new Float64Array(cluster);
  const plan = headlinePlan(keys);
  const em = new Float64Array(keys.length);
  const result = stratifiedBootstrap(
    strataSizes,
    plan.names,
    (sample, out) => {
      draws.fill(0);
      let position = 0;
      for (let k = 0; k < strataSizes.length; k++) {
        const first = strataFirst[k]!;
        for (let i = 0, size = strataSizes[k]!; i < size; i++) draws[first + sample[position++]!]++;
      }
      for (let s = 0; s < keys.length; s++) {
        const clusters = scoredCluster[s]!;
        const values = scoredEm[s]!;
        let sum = 0;
        for (let j = 0; j < clusters.length; j++) sum += draws[clusters[j]!]! * values[j]!;
        const listed = weightClusters[s];
        let weight = 0;
        if (listed === undefined) weight = strataSizes[subsetStratum[s]!]!;
        else for (let j = 0; j < listed.length; j++) weight += draws[listed[j]!]!;
        em[s] = weight > 0 ? sum / weight : Number.NaN;
      }
      headlineFigures(plan, em, out);
    },
    options,
  );
  // Over one local language the average EM is that subset's EM: it keeps the interval the subset's table shows (a
  // bootstrap of 5 right answers out of 5 would say [1, 1]).
  const figures = { ...result.intervals };
  const only = plan.local.length === 1 ? subsetIntervals(scored[plan.local[0]!]!.records, result.confidence).em : undefined;
  if (only && figures.average_em) figures.average_em = { low: only.low, high: only.high, se: only.se ?? 0, defined: result.resamples };
  return { method: 'stratified cluster bootstrap', resamples: result.resamples, seed: result.seed, confidence: result.confidence, figures };
}
