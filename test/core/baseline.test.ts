// The baseline gate's decision against hand-computed values: McNemar's exact p with all flips one way is 2·0.5^k,
// Holm multiplies the i-th smallest p by (m − i + 1) and keeps the running maximum, the MDE is (z_{1−α/2} + z_0.8)·SE.
import { describe, expect, test } from 'vitest';
import { baselineOutcome, decide, fewestSignificantFlips, judgeBaselineFamily, pairedTest, testMde, type PairedFigure, type PairedScore } from '../../src/core/baseline/index.ts';

/** n paired 0/1 items: `worse` go 1 → 0, `better` 0 → 1, `bothRight` stay 1, the rest stay 0. */
function binaryFigure(key: string, n: number, worse: number, better = 0, bothRight = 0): PairedFigure {
  const pairs: PairedScore[] = [];
  for (let i = 0; i < n; i++) {
    const [baseline, current] = i < worse ? [1, 0] : i < worse + better ? [0, 1] : i < worse + better + bothRight ? [1, 1] : [0, 0];
    pairs.push({ id: `${key}-${i}`, baseline, current });
  }
  return { key, figure: `${key} EM`, pairs, onlyCurrent: 0, onlyBaseline: 0 };
}

const SETTINGS = { alpha: 0.05, margin: 0.01 };
// z_0.975 + z_0.8 from tables: 1.959964 + 0.841621.
const Z_SUM = 1.959964 + 0.841621;

describe('paired test of one figure', () => {
  test('McNemar with every flip one way: p = 2·0.5^k; mean difference and sd(d)/√n by hand', () => {
    const t = pairedTest(binaryFigure('it', 20, 6, 0, 8))!;
    expect(t.test).toBe('McNemar exact');
    expect(t.p).toBeCloseTo(2 * 0.5 ** 6, 12);
    expect(t.diff).toBeCloseTo(-6 / 20, 12);
    // six −1 and fourteen 0: mean −0.3, Σ(d − d̄)² = 6·0.49 + 14·0.09 = 4.2
    expect(t.se).toBeCloseTo(Math.sqrt(4.2 / 19) / Math.sqrt(20), 12);
    expect(t.low).toBeCloseTo(-0.3 - 1.959964 * t.se!, 5);
    expect([t.current, t.baseline, t.worse, t.better]).toEqual([8 / 20, 14 / 20, 6, 0]);
  });

  test('no discordant pairs: p = 1, SE 0, and the MDE falls back to the fewest significant flips over n', () => {
    const t = pairedTest(binaryFigure('it', 100, 0, 0, 40))!;
    expect([t.p, t.diff, t.se]).toEqual([1, 0, 0]);
    expect(fewestSignificantFlips(0.05)).toBe(6); // 2·0.5^5 = 0.0625 ≥ 0.05 > 2·0.5^6 = 0.03125
    expect(fewestSignificantFlips(0.01)).toBe(8); // 2·0.5^7 = 0.0156 ≥ 0.01 > 2·0.5^8 = 0.0078
    expect(testMde(t, 0.05)).toBeCloseTo(6 / 100, 12);
    expect(decide(t.diff, 1, 6 / 100, SETTINGS)).toBe('too few items to tell');
    expect(decide(0, 1, 6 / 1000, SETTINGS)).toBe('no significant change');
  });

  test('n = 1: a 1 → 0 flip is p = 1 (McNemar over one pair), no SE, no interval', () => {
    const [t] = judgeBaselineFamily([binaryFigure('one', 1, 1)], SETTINGS);
    expect([t!.p, t!.se, t!.low, t!.high, t!.mde, t!.verdict, t!.pass]).toEqual([1, null, null, null, 6, 'too few items to tell', true]);
  });

  test('n = 1 with a non-binary score: the bootstrap is not drawn (one value cannot tell a change from noise)', () => {
    const t = pairedTest({ key: 'x', figure: 'x F1', pairs: [{ id: 'a', baseline: 0.8, current: 0.2 }], onlyCurrent: 0, onlyBaseline: 0 })!;
    expect([t.test, t.p, t.se, t.bootstrap]).toEqual(['paired bootstrap', 1, null, undefined]);
  });

  test('all-equal scores: difference 0, p = 1, no spread so no MDE', () => {
    const pairs = Array.from({ length: 30 }, (_, i) => ({ id: String(i), baseline: 0.5, current: 0.5 }));
    const [t] = judgeBaselineFamily([{ key: 'x', figure: 'x F1', pairs, onlyCurrent: 0, onlyBaseline: 0 }], SETTINGS);
    expect([t!.diff, t!.se, t!.p, t!.mde, t!.verdict]).toEqual([0, 0, 1, null, 'too few items to tell']);
  });

  test('non-binary scores: a seeded paired bootstrap; its interval agrees with the t-interval of the differences', () => {
    // d_i = −0.1 + 0.05·((i mod 5) − 2): mean −0.1, symmetric spread.
    const pairs = Array.from({ length: 200 }, (_, i) => ({ id: String(i), baseline: 0.6, current: 0.5 + 0.05 * ((i % 5) - 2) }));
    const t = pairedTest({ key: 'x', figure: 'x chrF', pairs, onlyCurrent: 0, onlyBaseline: 0 })!;
    expect(t.test).toBe('paired bootstrap');
    expect(t.bootstrap).toEqual({ resamples: 2000, seed: 20261203 });
    expect(t.diff).toBeCloseTo(-0.1, 12);
    // sd of {−0.1, −0.05, 0, 0.05, 0.1} repeated 40 times: √(Σ/199) with Σ = 40·0.025 = 1
    const se = Math.sqrt(1 / 199) / Math.sqrt(200);
    expect(t.se).toBeCloseTo(se, 12);
    expect(Math.abs(t.low! - (-0.1 - 1.96 * se))).toBeLessThan(0.2 * se);
    expect(Math.abs(t.high! - (-0.1 + 1.96 * se))).toBeLessThan(0.2 * se);
    expect(t.p).toBe(0);
    expect(pairedTest({ key: 'x', figure: 'x chrF', pairs, onlyCurrent: 0, onlyBaseline: 0 })).toEqual(t);
  });

  test('0/1 scores of items sharing a source are clustered: bootstrap, not McNemar (which assumes independent pairs)', () => {
    const pairs = Array.from({ length: 40 }, (_, i) => ({ id: String(i), baseline: 1, current: i < 10 ? 0 : 1, cluster: `q${i % 20}` }));
    const t = pairedTest({ key: 'all', figure: 'all EM', pairs, onlyCurrent: 0, onlyBaseline: 0 })!;
    expect([t.test, t.clusters, t.n]).toEqual(['paired bootstrap', 20, 40]);
    // clusters q0..q9 hold one −1 each (plus a 0), q10..q19 two 0s; d̄ = −0.25: Σ_g (Σ(d − d̄))² = 10·(−0.5)² + 10·(0.5)² = 5
    expect(t.se).toBeCloseTo(Math.sqrt((20 / 19) * 5) / 40, 12);
  });

  test('a continuous score that is 0/1 everywhere is still tested as a mean (bootstrap), when the figure says so', () => {
    const figure = binaryFigure('mc2', 30, 8, 0, 10);
    expect(pairedTest(figure)!.test).toBe('McNemar exact');
    expect(pairedTest({ ...figure, scores: 'continuous' })!).toMatchObject({ test: 'paired bootstrap', binary: false, worse: 8, better: 0 });
  });

  test('no paired item: nothing to test', () => {
    expect(pairedTest({ key: 'x', figure: 'x', pairs: [], onlyCurrent: 3, onlyBaseline: 2 })).toBeUndefined();
  });
});

describe('the family: Holm and the decision', () => {
  test('Holm in order of p: 3·p(1), then max(running, 2·p(2)), max(running, p(3))', () => {
    // McNemar p: 7 flips → 2/128, 5 → 2/32, 6 → 2/64
    const tests = judgeBaselineFamily([binaryFigure('a', 100, 7), binaryFigure('b', 100, 5), binaryFigure('c', 100, 6)], SETTINGS);
    expect(tests.map((t) => t.p)).toEqual([2 / 128, 2 / 32, 2 / 64].map((p) => expect.closeTo(p, 12)));
    const first = 3 * (2 / 128); // 0.046875
    const third = Math.max(first, 2 * (2 / 64)); // 0.0625
    const second = Math.max(third, 2 / 32); // 0.0625
    expect(tests.map((t) => t.p_adjusted)).toEqual([first, second, third].map((p) => expect.closeTo(p, 12)));
    expect(tests.map((t) => t.verdict)).toEqual(['significant drop', 'too few items to tell', 'too few items to tell']);
    expect(tests.map((t) => t.pass)).toEqual([false, true, true]);
    expect(tests.every((t) => t.family === 3)).toBe(true);
    // MDE at α/3 for b: (z_{1−α/6} + z_0.8)·SE, at least fewest flips(α/3)/n
    const b = tests[1]!;
    expect(b.mde).toBeCloseTo(Math.max((2.393980 + 0.841621) * b.se!, fewestSignificantFlips(0.05 / 3) / 100), 5);
  });

  test('a significant drop within the margin passes; a significant gain passes', () => {
    expect(decide(-0.005, 0.001, 0.004, SETTINGS)).toBe('significant drop within margin');
    expect(decide(0.2, 0.001, 0.004, SETTINGS)).toBe('significant gain');
    expect(decide(-0.2, 0.001, 0.004, SETTINGS)).toBe('significant drop');
    expect(decide(-0.2, 0.05, 0.004, SETTINGS)).toBe('no significant change');
  });

  test('the MDE is (z_{1−α/2} + z_0.8)·SE when that exceeds the flip floor', () => {
    const t = pairedTest(binaryFigure('x', 1000, 60, 40, 300))!;
    expect(testMde(t, 0.05)).toBeCloseTo(Z_SUM * t.se!, 5);
  });

  test('outcome messages name the figure, Δ with its interval, adjusted p, MDE and why', () => {
    const [drop, noise] = judgeBaselineFamily([binaryFigure('italian', 250, 30, 5, 100), binaryFigure('french', 250, 2, 1, 100)], SETTINGS);
    const failed = baselineOutcome(drop!, SETTINGS, 'base.json');
    expect(failed.pass).toBe(false);
    expect(failed.gate).toBe('baseline(α=0.05, margin=0.01)');
    expect(failed.value).toBeCloseTo(-25 / 250, 12);
    expect(failed.message).toMatch(/^italian EM vs baseline: Δ −0\.100 \(95% CI \[−0\.\d{3}, −0\.\d{3}\]\), 0\.520 → 0\.420 over 250 paired items \(30 right → wrong, 5 wrong → right\); McNemar exact p < 0\.0001, Holm-adjusted p < 0\.0001 over 2 tests; MDE 0\.\d{3}: a significant drop larger than the 0\.01 margin, so the gate fails/);
    const passed = baselineOutcome(noise!, SETTINGS, 'base.json');
    expect(passed.pass).toBe(true);
    expect(passed.message).toContain('McNemar exact p = 1.0000');
    expect(passed.message).toMatch(/no significant change, but too few items to tell: MDE 0\.\d{3} > the 0\.01 margin/);
  });
});
