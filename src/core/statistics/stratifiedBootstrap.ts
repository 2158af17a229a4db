// A seeded stratified cluster bootstrap of several figures at once: each resample draws, within every stratum (a
// language), as many clusters (a question with its translations) as it has, with replacement, and recomputes every
// figure from the same resample — for figures that are not a mean of item scores (the gap, MTE/LE, cross-language
// averages).
import { drawStrata, quantileSorted } from './bootstrap.ts';

export interface StratifiedBootstrapOptions {
  resamples?: number;
  seed?: number;
  confidence?: number;
}

export interface FigureInterval {
  low: number;
  high: number;
  /** Standard deviation of the resampled figure. */
  se: number;
  /** Resamples in which the figure was defined (it may be undefined when a resample leaves a subset empty). */
  defined: number;
}

/**
 * Percentile intervals of the figures `names` lists. Each resample fills `sample` with the drawn clusters, stratum
 * after stratum (positions within the stratum, `strataSizes[k]` of them for stratum k), and `figures` writes one value
 * per name into `out` (NaN or ±Infinity: undefined in that resample). Intervals are listed in the order the figures
 * were first defined; a figure defined in no resample is left out.
 */
export function stratifiedBootstrap(
  strataSizes: readonly number[],
  names: readonly string[],
  figures: (sample: Int32Array, out: Float64Array) => void,
  options: StratifiedBootstrapOptions = {},
): { intervals: Record<string, FigureInterval>; resamples: number; seed: number; confidence: number } {
  const resamples = options.resamples ?? 2000;
  const seed = options.seed ?? 20261203;
  const confidence = options.confidence ?? 0.95;
  const state = Int32Array.of(seed | 0);
  const sample = new Int32Array(strataSizes.reduce((a, b) => a + b, 0));
  const out = new Float64Array(names.length);
  // Figure-major: values[f * resamples + count[f]] is figure f's next defined value.
  const values = new Float64Array(names.length * resamples);
  const count = new Int32Array(names.length);
  const firstDefined: number[] = [];
  for (let r = 0; r < resamples; r++) {
    drawStrata(state, strataSizes, sample);
    out.fill(Number.NaN);
    figures(sample, out);
    for (let f = 0; f < names.length; f++) {
      const value = out[f]!;
      if (!Number.isFinite(value)) continue;
      if (count[f] === 0) firstDefined.push(f);
      values[f * resamples + count[f]!++] = value;
    }
  }
  const intervals: Record<string, FigureInterval> = {};
  for (const f of firstDefined) {
    const list = Array.from(values.subarray(f * resamples, f * resamples + count[f]!)).sort((a, b) => a - b);
    let sum = 0;
    for (const v of list) sum += v;
    const m = sum / list.length;
    let squares = 0;
    for (const v of list) squares += (v - m) * (v - m);
    intervals[names[f]!] = {
      low: quantileSorted(list, (1 - confidence) / 2),
      high: quantileSorted(list, 1 - (1 - confidence) / 2),
      se: Math.sqrt(squares / Math.max(1, list.length - 1)),
      defined: list.length,
    };
  }
  return { intervals, resamples, seed, confidence };
}
