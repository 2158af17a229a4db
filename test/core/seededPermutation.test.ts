// seededPermutation: every result is an order of 0 … n − 1, the same seed gives the same order, the steps are those
// docs/kalahi-trials.md lists (checked against the swaps done here by hand from mulberry32's draws), and the 24 orders
// of 4 options come out about equally often.
import { describe, expect, test } from 'vitest';
import { seededUniform } from '../../src/core/statistics/bootstrap.ts';
import { seededPermutation } from '../../src/core/statistics/seededPermutation.ts';

describe('seededPermutation', () => {
  test('every order holds each of 0 … n − 1 once, for n = 0 … 7 and 200 seeds', () => {
    for (let n = 0; n <= 7; n++) {
      for (let seed = 0; seed < 200; seed++) {
        const order = seededPermutation(n, seed * 7919);
        expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
      }
    }
  });

  test('the same seed gives the same order; another seed mostly another', () => {
    expect(seededPermutation(4, 155_638_343)).toEqual(seededPermutation(4, 155_638_343));
    const orders = new Set(Array.from({ length: 50 }, (_, s) => seededPermutation(4, s).join('')));
    // 50 draws from 24 orders: far more than one distinct order (all equal would mean the seed is ignored).
    expect(orders.size).toBeGreaterThan(15);
  });

  test('the documented steps: i from n − 1 down to 1, j = ⌊u · (i + 1)⌋, swap', () => {
    for (const seed of [0, 1, 42, 155_638_343, 4_294_967_295]) {
      const u = seededUniform(seed);
      const [u1, u2, u3] = [u(), u(), u()];
      // By hand for n = 4: the three swaps with the three draws in order.
      const order = [0, 1, 2, 3];
      const swap = (i: number, j: number) => ([order[i], order[j]] = [order[j]!, order[i]!]);
      swap(3, Math.floor(u1 * 4));
      swap(2, Math.floor(u2 * 3));
      swap(1, Math.floor(u3 * 2));
      expect(seededPermutation(4, seed)).toEqual(order);
    }
  });

  test('over 24,000 seeds each of the 24 orders of 4 comes out 1,000 ± 160 times (5 standard deviations)', () => {
    const counts = new Map<string, number>();
    for (let seed = 0; seed < 24_000; seed++) {
      const key = seededPermutation(4, seed).join('');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(counts.size).toBe(24);
    for (const count of counts.values()) expect(Math.abs(count - 1000)).toBeLessThan(160);
  });

  test('a bad n or seed is refused with one line naming it', () => {
    expect(() => seededPermutation(-1, 0)).toThrow('seededPermutation: n must be an integer ≥ 0 (got -1)');
    expect(() => seededPermutation(4, 0.5)).toThrow('seededPermutation: the seed must be a safe integer (got 0.5)');
  });
});
