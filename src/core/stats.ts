// Means and standard errors every benchmark's roll-up uses: plain left folds, as the reference scripts' Python sums.

/** Mean by a plain left fold; NaN for no values. */
export function mean(values: readonly number[]): number {
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/** Sample standard deviation (n − 1) over √n; null below two values. */
export function standardError(values: readonly number[]): number | null {
  const n = values.length;
  if (n < 2) return null;
  const m = mean(values);
  let squares = 0;
  for (const v of values) squares += (v - m) * (v - m);
  return Math.sqrt(squares / (n - 1)) / Math.sqrt(n);
}

/** Mean of the non-null, non-NaN values in order (as pandas' mean skips NaN); null when there are none. */
export function meanSkippingNull(values: ReadonlyArray<number | null | undefined>): number | null {
  let sum = 0;
  let n = 0;
  for (const v of values) {
    if (v === null || v === undefined || Number.isNaN(v)) continue;
    sum += v;
    n++;
  }
  return n === 0 ? null : sum / n;
}
