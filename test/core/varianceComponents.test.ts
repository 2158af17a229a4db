// The within/between-item variance split against hand-worked ANOVA tables and, for equal trial counts, a second
// formula: σ²_w = mean of the items' sample variances, σ²_b = sample variance of the item means − σ²_w / k.
import { describe, expect, test } from 'vitest';
import { varianceComponents } from '../../src/core/statistics/index.ts';
import { seededRandom } from '../support/seededRandom.ts';

const sampleVariance = (values: readonly number[]) => {
  const m = values.reduce((a, b) => a + b, 0) / values.length;
  return values.reduce((a, v) => a + (v - m) ** 2, 0) / (values.length - 1);
};

describe('varianceComponents', () => {
  test('three items of three trials, by hand', () => {
    // Item means 1, 1/3, 0; grand mean 4/9. MSB = 3·(25 + 1 + 16)/81 / 2 = 7/9; MSW = (0 + 2/3 + 0)/6 = 1/9;
    // σ²_b = (7/9 − 1/9)/3 = 2/9, so within : between = 1/9 : 2/9.
    const v = varianceComponents([[1, 1, 1], [0, 0, 1], [0, 0, 0]])!;
    expect(v.within).toBeCloseTo(1 / 9, 15);
    expect(v.between).toBeCloseTo(2 / 9, 15);
    expect(v.withinShare).toBeCloseTo(1 / 3, 15);
    expect(v.betweenShare).toBeCloseTo(2 / 3, 15);
    expect([v.items, v.trials]).toEqual([3, 9]);
  });

  test('unequal trial counts use n₀, by hand', () => {
    // N = 6, Σn² = 20, n₀ = (6 − 20/6)/1 = 8/3. Grand mean 5/6; SSB = 2·(1/3)² + 4·(1/6)² = 1/3 = MSB;
    // SSW = 0.25 + 0.25, MSW = 0.5/4 = 1/8; σ²_b = (1/3 − 1/8)/(8/3) = 5/64; within share (8/64)/(13/64) = 8/13.
    const v = varianceComponents([[1, 0], [1, 1, 1, 1]])!;
    expect(v.within).toBeCloseTo(1 / 8, 15);
    expect(v.between).toBeCloseTo(5 / 64, 15);
    expect(v.withinShare).toBeCloseTo(8 / 13, 15);
  });

  test('equal trial counts: equals the second formula on random data', () => {
    const uniform = seededRandom(7);
    for (let round = 0; round < 20; round++) {
      const k = 2 + Math.floor(uniform() * 6);
      const items = Array.from({ length: 3 + Math.floor(uniform() * 30) }, () => Array.from({ length: k }, () => (uniform() < 0.5 ? uniform() : Math.round(uniform()))));
      const within = items.reduce((a, trials) => a + sampleVariance(trials), 0) / items.length;
      const between = Math.max(0, sampleVariance(items.map((t) => t.reduce((a, b) => a + b, 0) / k)) - within / k);
      const v = varianceComponents(items)!;
      expect(Math.abs(v.within - within)).toBeLessThan(1e-12);
      expect(Math.abs(v.between - between)).toBeLessThan(1e-12);
    }
  });

  test('a negative moment estimate is floored at 0; no split without two items, a second trial or any variance', () => {
    // Equal item means: MSB = 0 < MSW, so σ²_b would be −MSW/2.
    const v = varianceComponents([[1, 0], [0, 1]])!;
    expect(v.between).toBe(0);
    expect(v.withinShare).toBe(1);
    expect(varianceComponents([[1, 0, 1]])).toBeNull();
    expect(varianceComponents([[1], [0], [1]])).toBeNull();
    expect(varianceComponents([[1, 1], [1, 1]])!.withinShare).toBeNull();
    expect(() => varianceComponents([[1], []])).toThrow(/without trials/u);
  });
});
