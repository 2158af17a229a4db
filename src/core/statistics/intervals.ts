// Confidence intervals of a run's figures: Wilson's score interval for proportions (EM, MC1) and the t-interval of a
// mean of per-item scores (F1, chrF, MC2).
import { normalQuantile, studentTQuantile } from './distributions.ts';
import { mean } from '../stats.ts';

export interface Interval {
  /** The point estimate. */
  value: number;
  low: number;
  high: number;
  /** Standard error of the estimate; null where it is undefined (n < 2 for a mean). */
  se: number | null;
  n: number;
}

/** Wilson's score interval for `successes` out of `n` at the given confidence (default 95%). */
export function wilsonInterval(successes: number, n: number, confidence = 0.95): Interval {
  if (!(n > 0) || successes < 0 || successes > n) throw new RangeError(`wilsonInterval: need 0 ≤ successes ≤ n, n > 0 (got ${successes} of ${n})`);
  const z = normalQuantile(1 - (1 - confidence) / 2);
  const p = successes / n;
  const z2n = (z * z) / n;
  const centre = (p + z2n / 2) / (1 + z2n);
  const half = (z / (1 + z2n)) * Math.sqrt((p * (1 - p)) / n + z2n / (4 * n));
  return { value: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half), se: Math.sqrt((p * (1 - p)) / n), n };
}

/** Sample standard deviation (n − 1); null below two values. */
export function sampleSd(values: readonly number[]): number | null {
  if (values.length < 2) return null;
  const m = mean(values);
  let squares = 0;
  for (const v of values) squares += (v - m) * (v - m);
  return Math.sqrt(squares / (values.length - 1));
}

/** The t-interval of the mean of per-item scores; a single value has no interval (low = high = the value, se null). */
export function meanInterval(values: readonly number[], confidence = 0.95): Interval {
  const n = values.length;
  if (n === 0) throw new RangeError('meanInterval: no values');
  const value = mean(values);
  const sd = sampleSd(values);
  if (sd === null) return { value, low: value, high: value, se: null, n };
  const se = sd / Math.sqrt(n);
  const t = studentTQuantile(1 - (1 - confidence) / 2, n - 1);
  return { value, low: value - t * se, high: value + t * se, se, n };
}
