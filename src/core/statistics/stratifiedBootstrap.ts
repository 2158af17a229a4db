// A seeded stratified cluster bootstrap of several figures at once: each resample draws, within every stratum (a
// language), as many clusters (a question with its translations) as it has, with replacement, and recomputes every
// figure from the same resample — for figures that are not a mean of item scores (the gap, MTE/LE, cross-language
// averages).
import { quantileSorted, seededUniform } from './bootstrap.ts';

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
 * Percentile intervals of every figure `figures` returns (null: undefined in that sample). A figure defined in no
 * resample is left out.
 */
export function stratifiedBootstrap<U>(
  strata: ReadonlyArray<readonly U[]>,
  figures: (sample: ReadonlyArray<readonly U[]>) => Record<string, number | null>,
  options: StratifiedBootstrapOptions = {},
): { intervals: Record<string, FigureInterval>; resamples: number; seed: number; confidence: number } {
  const resamples = options.resamples ?? 2000;
  const seed = options.seed ?? 20261203;
  const confidence = options.confidence ?? 0.95;
  const uniform = seededUniform(seed);
  const values = new Map<string, number[]>();
  const sample = strata.map((s) => new Array<U>(s.length));
  for (let r = 0; r < resamples; r++) {
    for (let k = 0; k < strata.length; k++) {
      const stratum = strata[k]!;
      const drawn = sample[k]!;
      const size = stratum.length;
      for (let i = 0; i < size; i++) drawn[i] = stratum[Math.floor(uniform() * size)]!;
    }
    for (const [name, value] of Object.entries(figures(sample))) {
      if (value === null || !Number.isFinite(value)) continue;
      let list = values.get(name);
      if (!list) values.set(name, (list = []));
      list.push(value);
    }
  }
  const intervals: Record<string, FigureInterval> = {};
  for (const [name, list] of values) {
    list.sort((a, b) => a - b);
    let sum = 0;
    for (const v of list) sum += v;
    const m = sum / list.length;
    let squares = 0;
    for (const v of list) squares += (v - m) * (v - m);
    intervals[name] = {
      low: quantileSorted(list, (1 - confidence) / 2),
      high: quantileSorted(list, 1 - (1 - confidence) / 2),
      se: Math.sqrt(squares / Math.max(1, list.length - 1)),
      defined: list.length,
    };
  }
  return { intervals, resamples, seed, confidence };
}
