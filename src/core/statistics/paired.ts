// Paired comparison of two runs over the same items: the mean difference and its standard error (clustered where
// items share a source), McNemar's exact test for binary scores, Holm's correction across subsets, and the minimum
// detectable effect for a given standard error.
import { normalQuantile } from './distributions.ts';
import { logGamma } from './special.ts';
import { mean } from '../stats.ts';
import { sampleSd } from './intervals.ts';

export interface PairedDifference {
  /** Mean of (current − baseline) over the paired items. */
  mean: number;
  /** sd(d)/√n, or the cluster-robust standard error when clusters are given; null when undefined (n < 2, one cluster). */
  se: number | null;
  n: number;
  clusters: number;
}

/**
 * The mean paired difference and its standard error. With `clusters` (a key per item, e.g. a MultiLoKo question and its
 * translations share one), the cluster-robust SE: √(G/(G−1) · Σ_g (Σ_{i∈g} (d_i − d̄))²) / n, which equals sd(d)/√n when
 * every item is its own cluster.
 */
export function pairedDifference(differences: readonly number[], clusters?: readonly string[]): PairedDifference {
  const n = differences.length;
  if (n === 0) throw new RangeError('pairedDifference: no paired items');
  const m = mean(differences);
  if (!clusters) {
    const sd = sampleSd(differences);
    return { mean: m, se: sd === null ? null : sd / Math.sqrt(n), n, clusters: n };
  }
  if (clusters.length !== n) throw new RangeError(`pairedDifference: ${clusters.length} cluster keys for ${n} differences`);
  const sums = new Map<string, number>();
  differences.forEach((d, i) => sums.set(clusters[i]!, (sums.get(clusters[i]!) ?? 0) + (d - m)));
  const g = sums.size;
  if (g < 2) return { mean: m, se: null, n, clusters: g };
  let squares = 0;
  for (const s of sums.values()) squares += s * s;
  return { mean: m, se: Math.sqrt((g / (g - 1)) * squares) / n, n, clusters: g };
}

/**
 * McNemar's exact test (two-sided): of the discordant pairs, `worse` went right → wrong and `better` wrong → right; under
 * no change each is Binomial(worse + better, 1/2). p = min(1, 2 · P(X ≤ min(worse, better))); 1 without discordant pairs.
 */
export function mcnemarExact(worse: number, better: number): number {
  const n = worse + better;
  if (n === 0) return 1;
  const k = Math.min(worse, better);
  let tail = 0;
  for (let i = 0; i <= k; i++) tail += Math.exp(logGamma(n + 1) - logGamma(i + 1) - logGamma(n - i + 1) - n * Math.LN2);
  return Math.min(1, 2 * tail);
}

/** Holm's step-down adjustment of p-values (same order as given): controls the family-wise error rate. */
export function holm(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => [p, i] as const).sort((a, b) => a[0] - b[0]);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach(([p, i], rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[i] = running;
  });
  return adjusted;
}

/**
 * The smallest true difference a two-sided test at `alpha` detects with probability `power`, given the standard error
 * of the difference: (z_{1−α/2} + z_{power}) · se.
 */
export function minimumDetectableEffect(se: number, alpha = 0.05, power = 0.8): number {
  return (normalQuantile(1 - alpha / 2) + normalQuantile(power)) * se;
}
