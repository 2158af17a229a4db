// Subset figures over items with trials: values by hand, and the bootstrap against a second implementation that
// resamples whole items (their raw trials) and recomputes pass@k from the trials, plus the normal approximation.
import { describe, expect, test } from 'vitest';
import { passAtK, quantileSorted, seededUniform, subsetTrialFigures } from '../../src/core/statistics/index.ts';
import { seededRandom } from '../support/seededRandom.ts';

describe('subsetTrialFigures', () => {
  test('three items of four trials, by hand', () => {
    const f = subsetTrialFigures([[1, 1, 0, 0], [1, 0, 0, 0], [1, 1, 1, 1]], { resamples: 200 });
    expect([f.items, f.fewestTrials, f.mostTrials]).toEqual([3, 4, 4]);
    // Item means 1/2, 1/4, 1.
    expect(f.mean.value).toBeCloseTo(7 / 12, 15);
    // pass@2: 1 − C(2,2)/C(4,2) = 5/6, 1 − C(3,2)/C(4,2) = 1/2, 1; mean 7/9. pass^2: 1/6, 0, 1; mean 7/18.
    expect(f.passAt.get(2)!.value).toBeCloseTo(7 / 9, 15);
    expect(f.passHat.get(2)!.value).toBeCloseTo(7 / 18, 15);
    // pass@1 and pass^1 are the mean.
    expect(f.passAt.get(1)!.value).toBeCloseTo(7 / 12, 15);
    expect(f.passHat.get(1)!.value).toBeCloseTo(7 / 12, 15);
    expect([...f.passAt.keys()]).toEqual([1, 2, 3, 4]);
    // Every resample's figure lies between the smallest and largest item value.
    expect(f.mean.low).toBeGreaterThanOrEqual(0.25);
    expect(f.mean.high).toBeLessThanOrEqual(1);
    // Within-item variance: (4·1/4 + 4·3/16 + 0)/(12 − 3) = 1.75/9.
    expect(f.variance!.within).toBeCloseTo(1.75 / 9, 15);
  });

  test('the bootstrap equals resampling whole items with their trials and recomputing pass@3 from them', () => {
    const uniform = seededRandom(11);
    const items = Array.from({ length: 40 }, () => {
      const p = uniform();
      return Array.from({ length: 6 }, (): number => (uniform() < p ? 1 : 0));
    });
    const seed = 99;
    const resamples = 500;
    const f = subsetTrialFigures(items, { ks: [3], seed, resamples });
    // Second implementation: draw items (not per-item values) with the same generator, then count their right trials.
    const draw = seededUniform(seed);
    const values: number[] = [];
    for (let r = 0; r < resamples; r++) {
      let sum = 0;
      for (let i = 0; i < items.length; i++) {
        const trials = items[Math.floor(draw() * items.length)]!;
        sum += passAtK(trials.length, trials.reduce((a, b) => a + b, 0), 3);
      }
      values.push(sum / items.length);
    }
    values.sort((a, b) => a - b);
    const figure = f.passAt.get(3)!;
    expect(figure.low).toBeCloseTo(quantileSorted(values, 0.025), 12);
    expect(figure.high).toBeCloseTo(quantileSorted(values, 0.975), 12);
    // And the bootstrap SE is close to the plug-in sd(item values)/√m (within 15%: 500 resamples of 40 items).
    const perItem = items.map((t) => passAtK(6, t.reduce((a, b) => a + b, 0), 3));
    const m = perItem.reduce((a, b) => a + b, 0) / perItem.length;
    const plugIn = Math.sqrt(perItem.reduce((a, v) => a + (v - m) ** 2, 0) / perItem.length / perItem.length);
    expect(Math.abs(figure.se / plugIn - 1)).toBeLessThan(0.15);
    expect(f.passAt.size).toBe(1);
  });

  test('200,000 items (where spreading their counts into Math.min overflows the stack in Node 20)', () => {
    const items = Array.from({ length: 200_000 }, (_, i) => (i % 4 === 0 ? [1, 1] : [0, 1, 0]));
    const f = subsetTrialFigures(items, { resamples: 2, ks: [2] });
    expect([f.fewestTrials, f.mostTrials]).toEqual([2, 3]);
    // A quarter of the items always right, the rest 1 of 3: pass@2 = 1/4 · 1 + 3/4 · (1 − C(2,2)/C(3,2)) = 1/4 + 1/2
    // (to 10 digits: a left fold over 200,000 values rounds in the 12th).
    expect(f.passAt.get(2)!.value).toBeCloseTo(0.75, 10);
  });

  test('pass@k only for 0/1 scores and k ≤ the fewest trials; no split with one trial per item', () => {
    const continuous = subsetTrialFigures([[0.5, 1], [0.25, 0]], { resamples: 100 });
    expect(continuous.passAt.size).toBe(0);
    expect(continuous.mean.value).toBeCloseTo((0.75 + 0.125) / 2, 15);
    // Eight trials asked, one item holds two: counted, and the default ks stop at 2.
    const short = subsetTrialFigures([[1, 0, 1, 1, 0, 1, 1, 1], [1, 0]], { asked: 8, resamples: 10 });
    expect([short.itemsShort, short.fewestTrials, [...short.passAt.keys()]]).toEqual([1, 2, [1, 2]]);
    expect(subsetTrialFigures([[1, 0]], { resamples: 10 }).itemsShort).toBe(0);
    expect(() => subsetTrialFigures([[1, 0, 1], [1, 0]], { ks: [3] })).toThrow(/pass@3 needs 3 trials of every item; the fewest is 2/u);
    const single = subsetTrialFigures([[1], [0], [1]], { resamples: 100 });
    expect(single.variance).toBeNull();
    expect([...single.passAt.keys()]).toEqual([1]);
    expect(() => subsetTrialFigures([])).toThrow(/no items/u);
    expect(() => subsetTrialFigures([[1], []])).toThrow(/without trials/u);
  });
});
