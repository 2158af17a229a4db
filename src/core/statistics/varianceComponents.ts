// How much of a score's variance lies within items (trial to trial) and how much between items: the one-way
// random-effects ANOVA (method-of-moments) estimators, with Searle's n₀ for items holding different trial counts.

export interface VarianceComponents {
  /** σ²_w: the mean square within items, Σ_i Σ_j (y_ij − ȳ_i)² / (N − m). */
  within: number;
  /** σ²_b: (MSB − MSW) / n₀, floored at 0 (the moment estimator can come out negative). */
  between: number;
  /** σ²_w / (σ²_w + σ²_b); null when both are 0. */
  withinShare: number | null;
  /** σ²_b / (σ²_w + σ²_b), the intraclass correlation; null when both are 0. */
  betweenShare: number | null;
  items: number;
  trials: number;
}

/**
 * The variance components of per-trial scores grouped by item (`items[i]` holds item i's trial scores). MSB =
 * Σ_i n_i (ȳ_i − ȳ)² / (m − 1), MSW as above, n₀ = (N − Σ n_i² / N) / (m − 1) (Searle, Casella and McCulloch,
 * "Variance Components"; n₀ = k when every item has k trials). Null below two items or without a second trial.
 */
export function varianceComponents(items: ReadonlyArray<readonly number[]>): VarianceComponents | null {
  const m = items.length;
  let total = 0;
  let sumOfSquaredCounts = 0;
  let grand = 0;
  for (const trials of items) {
    if (trials.length === 0) throw new RangeError('varianceComponents: an item without trials');
    total += trials.length;
    sumOfSquaredCounts += trials.length * trials.length;
    for (const y of trials) grand += y;
  }
  if (m < 2 || total === m) return null;
  grand /= total;
  let between = 0;
  let within = 0;
  for (const trials of items) {
    let sum = 0;
    for (const y of trials) sum += y;
    const itemMean = sum / trials.length;
    between += trials.length * (itemMean - grand) * (itemMean - grand);
    for (const y of trials) within += (y - itemMean) * (y - itemMean);
  }
  const msb = between / (m - 1);
  const msw = within / (total - m);
  const n0 = (total - sumOfSquaredCounts / total) / (m - 1);
  const sigmaB = Math.max(0, (msb - msw) / n0);
  const sum = msw + sigmaB;
  return {
    within: msw,
    between: sigmaB,
    withinShare: sum === 0 ? null : msw / sum,
    betweenShare: sum === 0 ? null : sigmaB / sum,
    items: m,
    trials: total,
  };
}
