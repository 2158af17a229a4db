// A seeded paired (cluster) bootstrap: resample whole clusters with replacement and recompute a statistic, for
// figures that are not a mean of item scores (corpus figures, the gap, MTE/LE) and for paired differences.

/**
 * A small deterministic generator (mulberry32): the same seed gives the same resamples on every machine. drawStrata
 * below repeats its step inline; test/core/drawStrata.test.ts holds the two to the same draws.
 */
export function seededUniform(seed: number): () => number {
  // The state is kept as a signed 32-bit integer (same bits as mulberry32's unsigned one) so V8 keeps it unboxed.
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Fills `sample` stratum after stratum with `sizes[k]` indices drawn in [0, sizes[k]): the very draws of
 * `Math.floor(uniform() * size)` with `uniform = seededUniform(seed)` called in that order, the generator's state kept
 * in `state[0]` (start it at `seed | 0`) between calls. One loop and no closure call per draw: V8 boxed each double a
 * closure returned, 270 MB of garbage over a full MultiLoKo run's 15 M headline draws.
 */
export function drawStrata(state: Int32Array, sizes: readonly number[], sample: Int32Array): void {
  let s = state[0]!;
  let position = 0;
  for (let k = 0; k < sizes.length; k++) {
    const size = sizes[k]!;
    for (let i = 0; i < size; i++) {
      s = (s + 0x6d2b79f5) | 0;
      let t = s;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      sample[position++] = Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * size);
    }
  }
  state[0] = s;
}

export interface BootstrapOptions {
  /** Number of resamples (default 2,000). */
  resamples?: number;
  seed?: number;
  confidence?: number;
}

export interface BootstrapResult {
  value: number;
  low: number;
  high: number;
  /** Standard deviation of the resampled statistics. */
  se: number;
  /** Two-sided p-value of "the statistic is 0": twice the smaller share of resamples on either side of 0, at most 1. */
  p: number;
  resamples: number;
  seed: number;
}

/** The q-quantile of sorted values, linear between order statistics (numpy's default). */
export function quantileSorted(sorted: readonly number[], q: number): number {
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.min(sorted.length - 1, below + 1);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (position - below);
}

/**
 * Percentile bootstrap of `statistic` over `units` (clusters of items; pass single items for an unclustered one):
 * each resample draws units.length units with replacement.
 */
export function clusterBootstrap<U>(units: readonly U[], statistic: (sample: readonly U[]) => number, options: BootstrapOptions = {}): BootstrapResult {
  if (units.length === 0) throw new RangeError('clusterBootstrap: no units');
  const resamples = options.resamples ?? 2000;
  const seed = options.seed ?? 20261203;
  const confidence = options.confidence ?? 0.95;
  const uniform = seededUniform(seed);
  const values: number[] = [];
  const sample = new Array<U>(units.length);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < units.length; i++) sample[i] = units[Math.floor(uniform() * units.length)]!;
    values.push(statistic(sample));
  }
  values.sort((a, b) => a - b);
  let sum = 0;
  for (const v of values) sum += v;
  const m = sum / resamples;
  let squares = 0;
  for (const v of values) squares += (v - m) * (v - m);
  const atOrBelow = values.filter((v) => v <= 0).length / resamples;
  const atOrAbove = values.filter((v) => v >= 0).length / resamples;
  return {
    value: statistic(units),
    low: quantileSorted(values, (1 - confidence) / 2),
    high: quantileSorted(values, 1 - (1 - confidence) / 2),
    se: Math.sqrt(squares / Math.max(1, resamples - 1)),
    p: Math.min(1, 2 * Math.min(atOrBelow, atOrAbove)),
    resamples,
    seed,
  };
}
