// pass@k and pass^k against exact enumeration of every k-subset of the trials (small n), exact BigInt binomials
// (n up to 1000), and hand-worked values.
import { describe, expect, test } from 'vitest';
import { passAtK, passHatK } from '../../src/core/statistics/index.ts';

/** Every k-subset of 0 … n−1, as arrays of indices. */
function subsets(n: number, k: number): number[][] {
  if (k === 0) return [[]];
  if (n < k) return [];
  // Subsets without n−1, and those with it.
  return [...subsets(n - 1, k), ...subsets(n - 1, k - 1).map((s) => [...s, n - 1])];
}

/** C(n, k) exactly. */
function binomial(n: number, k: number): bigint {
  let result = 1n;
  for (let i = 0; i < k; i++) result = (result * BigInt(n - i)) / BigInt(i + 1);
  return result;
}

/** a / b for BigInts, to double precision however small: the quotient is taken with 64 significant bits, then scaled back. */
function ratio(a: bigint, b: bigint): number {
  if (a === 0n) return 0;
  const shift = b.toString(2).length - a.toString(2).length + 64;
  const quotient = shift >= 0 ? (a << BigInt(shift)) / b : a / (b << BigInt(-shift));
  return Number(quotient) * 2 ** -shift;
}

describe('pass@k and pass^k', () => {
  test('equal the shares of k-subsets with a right trial / only right trials, for every n ≤ 8, c, k', () => {
    let cases = 0;
    for (let n = 1; n <= 8; n++) {
      for (let c = 0; c <= n; c++) {
        for (let k = 1; k <= n; k++) {
          // Trials 0 … c−1 are the right ones.
          const all = subsets(n, k);
          const withRight = all.filter((s) => s.some((i) => i < c)).length;
          const allRight = all.filter((s) => s.every((i) => i < c)).length;
          expect(Math.abs(passAtK(n, c, k) - withRight / all.length)).toBeLessThan(1e-14);
          expect(Math.abs(passHatK(n, c, k) - allRight / all.length)).toBeLessThan(1e-14);
          cases++;
        }
      }
    }
    // Σ_{n=1}^{8} (n + 1)·n = 240.
    expect(cases).toBe(240);
  });

  test('hand-worked values', () => {
    // n = 4, c = 2, k = 2: C(2,2)/C(4,2) = 1/6 of the pairs are both wrong (and 1/6 both right).
    expect(passAtK(4, 2, 2)).toBeCloseTo(5 / 6, 15);
    expect(passHatK(4, 2, 2)).toBeCloseTo(1 / 6, 15);
    // k = 1 is the share right.
    expect(passAtK(10, 3, 1)).toBeCloseTo(0.3, 15);
    expect(passHatK(10, 3, 1)).toBeCloseTo(0.3, 15);
    // Fewer wrong trials than k: pass@k = 1; fewer right trials than k: pass^k = 0.
    expect(passAtK(5, 3, 3)).toBe(1);
    expect(passHatK(5, 2, 3)).toBe(0);
    expect(passAtK(5, 0, 5)).toBe(0);
    expect(passHatK(5, 5, 5)).toBe(1);
  });

  test('n up to 1000 against exact BigInt binomials', () => {
    for (const [n, c, k] of [[1000, 500, 10], [1000, 1, 1], [1000, 3, 500], [1000, 999, 1000], [997, 400, 123], [1000, 990, 700]] as const) {
      const atK = 1 - ratio(binomial(n - c, k), binomial(n, k));
      const hatK = ratio(binomial(c, k), binomial(n, k));
      expect(Math.abs(passAtK(n, c, k) - atK)).toBeLessThan(1e-12);
      // pass^k can be tiny: compare relative to its size.
      expect(Math.abs(passHatK(n, c, k) - hatK)).toBeLessThanOrEqual(1e-12 * Math.max(hatK, 1e-300));
      expect(Number.isFinite(passAtK(n, c, k)) && Number.isFinite(passHatK(n, c, k))).toBe(true);
    }
  });

  test('rejects k outside 1 … n, c outside 0 … n and non-integers', () => {
    expect(() => passAtK(4, 2, 5)).toThrow(/k must be between 1 and n=4 \(got 5\)/u);
    expect(() => passAtK(4, 2, 0)).toThrow(/k must be between 1 and n=4/u);
    expect(() => passHatK(4, 5, 1)).toThrow(/0 ≤ c ≤ n/u);
    expect(() => passHatK(4, -1, 1)).toThrow(/0 ≤ c ≤ n/u);
    expect(() => passAtK(4.5, 2, 1)).toThrow(/integers/u);
    expect(() => passAtK(0, 0, 1)).toThrow(/n ≥ 1/u);
  });
});
