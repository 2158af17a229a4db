// The normal and Student t distributions: CDFs from the incomplete gamma and beta functions, quantiles by bisection
// (monotone CDFs, so bisection to the last bit is exact enough and never diverges).
import { incompleteBeta, incompleteGamma } from './special.ts';

/** Φ(x): P(Z ≤ x) for a standard normal Z. */
export function normalCdf(x: number): number {
  const half = 0.5 * incompleteGamma(0.5, (x * x) / 2);
  return x >= 0 ? 0.5 + half : 0.5 - half;
}

/** P(T ≤ t) for Student's t with `df` degrees of freedom (df = Infinity: the normal). */
export function studentTCdf(t: number, df: number): number {
  if (df === Infinity) return normalCdf(t);
  const tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

function bisect(cdf: (x: number) => number, p: number): number {
  let lo = -1e4;
  let hi = 1e4;
  for (let i = 0; i < 200 && hi - lo > 1e-13 * Math.max(1, Math.abs(lo)); i++) {
    const mid = (lo + hi) / 2;
    if (cdf(mid) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** The p-quantile of the standard normal, 0 < p < 1. */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normalQuantile: p must be in (0, 1), got ${p}`);
  return bisect(normalCdf, p);
}

// A run asks for the same few quantiles (95%, n − 1 of equal-sized subsets) hundreds of times; each costs a bisection.
const tQuantiles = new Map<string, number>();

/** The p-quantile of Student's t with `df` degrees of freedom, 0 < p < 1. */
export function studentTQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`studentTQuantile: p must be in (0, 1), got ${p}`);
  if (!(df > 0)) throw new RangeError(`studentTQuantile: df must be positive, got ${df}`);
  const key = `${p} ${df}`;
  let q = tQuantiles.get(key);
  if (q === undefined) {
    q = bisect((x) => studentTCdf(x, df), p);
    if (tQuantiles.size < 1024) tQuantiles.set(key, q);
  }
  return q;
}
