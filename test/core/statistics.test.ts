// The statistics against values computed independently: closed forms (Cauchy and t(2) CDFs, factorials, I_x(a,1)),
// published table values (t and normal quantiles, Wilson intervals), Pascal's triangle for McNemar, and hand-worked
// sums for the clustered standard error and Holm's adjustment.
import { describe, expect, test } from 'vitest';
import {
  clusterBootstrap, holm, incompleteBeta, incompleteGamma, logGamma, mcnemarExact, meanInterval, minimumDetectableEffect,
  normalCdf, normalQuantile, pairedDifference, studentTCdf, studentTQuantile, wilsonInterval, boundedMeanInterval,
} from '../../src/core/statistics/index.ts';
import { quasiWilsonByBisection } from '../support/quasiWilson.ts';
import { seededRandom } from '../support/seededRandom.ts';

describe('special functions', () => {
  test('log-gamma at integers is ln((n−1)!), at 1/2 ln √π', () => {
    let factorial = 1;
    for (let n = 1; n <= 20; n++) {
      expect(logGamma(n)).toBeCloseTo(Math.log(factorial), 10);
      factorial *= n;
    }
    expect(logGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 12);
  });

  test('incomplete beta and gamma against closed forms', () => {
    for (const x of [0.01, 0.2, 0.5, 0.77, 0.99]) {
      expect(incompleteBeta(x, 1, 1)).toBeCloseTo(x, 12);
      expect(incompleteBeta(x, 3.5, 1)).toBeCloseTo(x ** 3.5, 12);
      expect(incompleteBeta(x, 1, 4)).toBeCloseTo(1 - (1 - x) ** 4, 12);
      expect(incompleteGamma(1, x * 10)).toBeCloseTo(1 - Math.exp(-x * 10), 12);
    }
  });
});

describe('distributions', () => {
  test('t CDF: Cauchy for df 1, t/(2√(2+t²)) + 1/2 for df 2', () => {
    for (const t of [-30, -2.5, -0.3, 0, 0.7, 4, 12.7]) {
      expect(studentTCdf(t, 1)).toBeCloseTo(0.5 + Math.atan(t) / Math.PI, 12);
      expect(studentTCdf(t, 2)).toBeCloseTo(0.5 + t / (2 * Math.sqrt(2 + t * t)), 12);
    }
  });

  test('quantiles equal the published table values', () => {
    const table: Array<[number, number]> = [[1, 12.7062047362], [2, 4.3026527297], [5, 2.5705818366], [10, 2.2281388520], [30, 2.0422724563], [249, 1.9695368676]];
    for (const [df, value] of table) expect(studentTQuantile(0.975, df)).toBeCloseTo(value, 8);
    expect(normalQuantile(0.975)).toBeCloseTo(1.9599639845, 9);
    expect(normalQuantile(0.8)).toBeCloseTo(0.8416212336, 9);
    expect(normalCdf(1.959963984540054)).toBeCloseTo(0.975, 12);
    expect(studentTQuantile(0.975, Infinity)).toBeCloseTo(1.9599639845, 9);
  });
});

describe('intervals', () => {
  test('Wilson score intervals equal the published 95% values', () => {
    const zero = wilsonInterval(0, 10);
    expect(zero.low).toBe(0);
    expect(zero.high).toBeCloseTo(0.2775, 4);
    const half = wilsonInterval(5, 10);
    expect([half.low, half.high]).toEqual([expect.closeTo(0.2366, 4), expect.closeTo(0.7634, 4)]);
    const eight = wilsonInterval(8, 10);
    expect([eight.low, eight.high]).toEqual([expect.closeTo(0.4902, 4), expect.closeTo(0.9433, 4)]);
    const all = wilsonInterval(1, 1);
    expect(all.high).toBe(1);
    expect(() => wilsonInterval(3, 2)).toThrow(RangeError);
  });

  test('t-interval of a mean: 1..5 → 3 ± t(4) · sd/√5; one value has none', () => {
    const i = meanInterval([1, 2, 3, 4, 5]);
    const se = Math.sqrt(2.5) / Math.sqrt(5);
    expect(i.se).toBeCloseTo(se, 12);
    expect(i.low).toBeCloseTo(3 - 2.7764451052 * se, 8);
    expect(i.high).toBeCloseTo(3 + 2.7764451052 * se, 8);
    expect(meanInterval([0.4])).toEqual({ value: 0.4, low: 0.4, high: 0.4, se: null, n: 1 });
    expect(meanInterval([0.5, 0.5, 0.5])).toMatchObject({ low: 0.5, high: 0.5, se: 0 });
  });
});

describe('the quasi-Wilson interval of a bounded mean', () => {
  // t(0.975, df) from scipy.stats.t.ppf.
  const T975: Record<number, number> = { 2: 4.302652729749464, 4: 2.7764451051977987, 9: 2.2621571627982053 };

  test('F1 and chrF near the top: inside the scale where x̄ ± t·s/√n is not, equal to the edges found by bisection', () => {
    const f1 = [1, 1, 1, 1, 0.5];
    expect(meanInterval(f1).high).toBeGreaterThan(1);
    const bounded = boundedMeanInterval(f1);
    const [low, high] = quasiWilsonByBisection(f1, 1, T975[4]!);
    expect(bounded.value).toBeCloseTo(0.9, 15);
    expect(bounded.low).toBeCloseTo(low, 12);
    expect(bounded.high).toBeCloseTo(high, 12);
    expect(bounded.high).toBeLessThanOrEqual(1);
    // chrF on 0–100: the same interval × 100.
    const chrf = boundedMeanInterval(f1.map((v) => 100 * v), 100);
    expect(chrf.low).toBeCloseTo(100 * bounded.low, 10);
    expect(chrf.high).toBeCloseTo(100 * bounded.high, 10);
    expect(chrf.high).toBeLessThanOrEqual(100);
  });

  test('a small group near the bottom keeps its lower edge at or above 0', () => {
    const small = [0.9, 0, 0];
    expect(meanInterval(small).low).toBeLessThan(0);
    const bounded = boundedMeanInterval(small);
    expect(bounded.low).toBeGreaterThanOrEqual(0);
    const [low, high] = quasiWilsonByBisection(small, 1, T975[2]!);
    expect(bounded.low).toBeCloseTo(low, 12);
    expect(bounded.high).toBeCloseTo(high, 12);
  });

  test("scores all at a bound are 0/1 items: Wilson's interval; one score in between has none", () => {
    expect(boundedMeanInterval([1, 1, 1, 1, 1])).toEqual(wilsonInterval(5, 5));
    const none = wilsonInterval(0, 3);
    expect(boundedMeanInterval([0, 0, 0], 100)).toEqual({ ...none, value: 0, low: 0, high: 100 * none.high, se: 0 });
    expect(boundedMeanInterval([0.4])).toEqual({ value: 0.4, low: 0.4, high: 0.4, se: null, n: 1 });
    expect(() => boundedMeanInterval([1.5])).toThrow('a score outside [0, 1]: 1.5');
    // Rounding past the top is the top.
    expect(boundedMeanInterval([100.00000000000004, 100], 100).high).toBe(100);
  });

  test('covers the mean at least as often as asked on skewed small samples, where the t-interval falls short', () => {
    const random = seededRandom(36);
    // Ten scores, 90% of them 1 and the rest uniform on [0, 0.5]: mean 0.925.
    const draw = () => (random() < 0.9 ? 1 : random() * 0.5);
    let bounded = 0;
    let t = 0;
    const reps = 2000;
    for (let r = 0; r < reps; r++) {
      const values = Array.from({ length: 10 }, draw);
      const b = boundedMeanInterval(values);
      const m = meanInterval(values);
      if (b.low <= 0.925 && 0.925 <= b.high) bounded++;
      if (m.low <= 0.925 && 0.925 <= m.high) t++;
    }
    expect(bounded / reps).toBeGreaterThanOrEqual(0.93);
    expect(t / reps).toBeLessThan(0.8);
  });
});

describe('paired comparison', () => {
  test('clustered standard error, worked by hand', () => {
    // d = 1,1,0,0 in clusters a,a,b,c: mean 1/2; cluster sums of deviations 1, −1/2, −1/2; √(3/2 · 3/2) / 4 = 0.375.
    expect(pairedDifference([1, 1, 0, 0], ['a', 'a', 'b', 'c'])).toEqual({ mean: 0.5, se: 0.375, n: 4, clusters: 3 });
    // Every item its own cluster: sd(d)/√n.
    const d = [0.3, -0.1, 0.25, 0, 0.9, -0.4];
    const plain = pairedDifference(d);
    expect(pairedDifference(d, d.map((_, i) => String(i))).se).toBeCloseTo(plain.se!, 14);
    expect(plain.se).toBeCloseTo(Math.sqrt(d.reduce((s, x) => s + (x - plain.mean) ** 2, 0) / 5) / Math.sqrt(6), 14);
    expect(pairedDifference([0.2]).se).toBeNull();
    expect(pairedDifference([1, 0], ['a', 'a']).se).toBeNull();
  });

  test("McNemar's exact p equals Pascal's-triangle binomial sums", () => {
    const row = (n: number) => {
      let r = [1];
      for (let i = 0; i < n; i++) r = [1, ...r.slice(1).map((v, k) => v + r[k]!), 1];
      return r;
    };
    for (let n = 1; n <= 30; n++) {
      const c = row(n);
      for (let worse = 0; worse <= n; worse++) {
        const k = Math.min(worse, n - worse);
        const tail = c.slice(0, k + 1).reduce((s, v) => s + v, 0) / 2 ** n;
        expect(mcnemarExact(worse, n - worse)).toBeCloseTo(Math.min(1, 2 * tail), 12);
      }
    }
    expect(mcnemarExact(0, 0)).toBe(1);
    expect(mcnemarExact(0, 5)).toBeCloseTo(0.0625, 14);
    expect(mcnemarExact(9, 1)).toBeCloseTo(0.021484375, 14);
  });

  test("Holm's adjustment, worked by hand, in the given order", () => {
    // sorted 0.01, 0.03, 0.04 → 3·0.01, max(0.03, 2·0.03), max(0.06, 1·0.04)
    expect(holm([0.01, 0.04, 0.03]).map((p) => Number(p.toFixed(12)))).toEqual([0.03, 0.06, 0.06]);
    expect(holm([0.5, 0.9])).toEqual([1, 1]);
    expect(holm([])).toEqual([]);
  });

  test('minimum detectable effect: (z(0.975) + z(0.8)) · se', () => {
    expect(minimumDetectableEffect(0.03)).toBeCloseTo((1.9599639845 + 0.8416212336) * 0.03, 9);
  });
});

describe('cluster bootstrap', () => {
  const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

  test('seeded: the same seed gives the same interval; all-equal units give no spread', () => {
    const units = Array.from({ length: 50 }, (_, i) => ((i * 37) % 11) / 10);
    expect(clusterBootstrap(units, mean, { seed: 7 })).toEqual(clusterBootstrap(units, mean, { seed: 7 }));
    expect(clusterBootstrap(units, mean, { seed: 7 }).low).not.toBe(clusterBootstrap(units, mean, { seed: 8 }).low);
    const flat = clusterBootstrap([0.5, 0.5, 0.5], mean);
    expect(flat).toMatchObject({ value: 0.5, se: 0, resamples: 2000 });
    expect([flat.low, flat.high]).toEqual([0.5, 0.5]);
  });

  test('the bootstrap SE of a mean approaches the closed form sd/√n; p follows the sign', () => {
    const units = Array.from({ length: 400 }, (_, i) => Math.sin(i * 12.9898) * 0.5);
    const result = clusterBootstrap(units, mean, { resamples: 4000, seed: 3 });
    const m = mean(units);
    const closed = Math.sqrt(units.reduce((s, x) => s + (x - m) ** 2, 0) / units.length) / Math.sqrt(units.length);
    expect(result.se / closed).toBeGreaterThan(0.93);
    expect(result.se / closed).toBeLessThan(1.07);
    expect(clusterBootstrap([0, 0, 0, 0], mean).p).toBe(1);
    expect(clusterBootstrap(Array.from({ length: 60 }, (_, i) => (i % 6 === 0 ? 0 : 1)), mean).p).toBe(0);
  });
});
