// pass@k and pass^k of one item from n trials of which c were right: the unbiased estimators of Chen et al. 2021
// ("Evaluating Large Language Models Trained on Code", its numpy form) and of τ-bench's pass^k, as products (no factorials).

/** Checks 1 ≤ k ≤ n and 0 ≤ c ≤ n, all integers; `name` prefixes the message. */
function checkCounts(name: string, n: number, c: number, k: number): void {
  if (!Number.isInteger(n) || !Number.isInteger(c) || !Number.isInteger(k)) throw new RangeError(`${name}: n, c and k must be integers (got n=${n}, c=${c}, k=${k})`);
  if (n < 1 || c < 0 || c > n) throw new RangeError(`${name}: need n ≥ 1 and 0 ≤ c ≤ n (got n=${n}, c=${c})`);
  if (k < 1 || k > n) throw new RangeError(`${name}: k must be between 1 and n=${n} (got ${k})`);
}

/**
 * pass@k: the chance that at least one of k trials drawn without replacement from the n is right,
 * 1 − C(n−c, k)/C(n, k) = 1 − Π_{i=n−c+1}^{n} (1 − k/i) (the product form of Chen et al.'s code: stable for n in the thousands).
 */
export function passAtK(n: number, c: number, k: number): number {
  checkCounts('passAtK', n, c, k);
  // Fewer than k wrong trials: every k-subset holds a right one.
  if (n - c < k) return 1;
  let allWrong = 1;
  for (let i = n - c + 1; i <= n; i++) allWrong *= 1 - k / i;
  return 1 - allWrong;
}

/** pass^k: the chance that all k trials drawn without replacement from the n are right, C(c, k)/C(n, k) = Π_{i=0}^{k−1} (c−i)/(n−i). */
export function passHatK(n: number, c: number, k: number): number {
  checkCounts('passHatK', n, c, k);
  if (c < k) return 0;
  let all = 1;
  for (let i = 0; i < k; i++) all *= (c - i) / (n - i);
  return all;
}
