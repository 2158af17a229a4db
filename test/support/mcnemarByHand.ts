// McNemar's exact two-sided p worked out by hand, in integers: min(1, 2 · Σ_{i ≤ min(b, c)} C(b + c, i) / 2^(b + c)),
// the discordant pairs b and c; the second method the tests hold the statistics' McNemar against.

/** n choose k as an exact integer. */
function choose(n: number, k: number): bigint {
  let c = 1n;
  for (let i = 1; i <= k; i++) c = (c * BigInt(n - k + i)) / BigInt(i);
  return c;
}

export function mcnemarByHand(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  let tail = 0n;
  for (let i = 0; i <= Math.min(b, c); i++) tail += choose(n, i);
  // the exact rational 2 · tail / 2^n, to a double at the end
  return Math.min(1, Number((2n * tail * 10n ** 30n) / 2n ** BigInt(n)) / 1e30);
}
