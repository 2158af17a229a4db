// Trials at the statistics level, as the trials issue's "done when" states it: 200 items each right with its own known
// probability, k = 8 trials. The measured pass@1, pass@4 and pass^4 cover their closed forms; a baseline 0.1 better on
// half the items fails the paired gate at k = 8 and is "too few items to tell" at k = 1. Twenty seeds, counts justified.
import { describe, expect, test } from 'vitest';
import { trialGate } from '../../src/core/baseline/trialGate.ts';
import { subsetTrialFigures } from '../../src/core/statistics/index.ts';
import { seededRandom } from '../support/seededRandom.ts';

const ITEMS = 200;
const SEEDS = Array.from({ length: 20 }, (_, i) => i + 1);
const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/** Per-item probabilities p_i ~ U(0.1, 0.95) and a trial drawer, all from one seed. */
function world(seed: number) {
  const uniform = seededRandom(seed);
  const p = Array.from({ length: ITEMS }, () => 0.1 + 0.85 * uniform());
  const trials = (probabilities: readonly number[], k: number) => probabilities.map((pi) => Array.from({ length: k }, () => (uniform() < pi ? 1 : 0)));
  return { p, trials };
}

describe('trials simulation', () => {
  test('pass@1, pass@4 and pass^4 over 200 items × 8 trials cover mean p, mean 1 − (1 − p)⁴ and mean p⁴', () => {
    const covered = { pass1: 0, pass4: 0, passHat4: 0, pass2AsPass4: 0, withinShare: 0 };
    for (const seed of SEEDS) {
      const { p, trials } = world(seed);
      const f = subsetTrialFigures(trials(p, 8), { ks: [1, 4], seed });
      const inside = (value: number, figure: { low: number; high: number }) => (value >= figure.low && value <= figure.high ? 1 : 0);
      covered.pass1 += inside(mean(p), f.passAt.get(1)!);
      covered.pass4 += inside(mean(p.map((pi) => 1 - (1 - pi) ** 4)), f.passAt.get(4)!);
      covered.passHat4 += inside(mean(p.map((pi) => pi ** 4)), f.passHat.get(4)!);
      // The intervals are narrow enough to matter: pass@2's closed form (≈ 0.1 below pass@4's) is not in pass@4's.
      covered.pass2AsPass4 += inside(mean(p.map((pi) => 1 - (1 - pi) ** 2)), f.passAt.get(4)!);
      // Within-item variance is p(1 − p), between-item the spread of the p_i: the share within, within 0.06
      // (the between estimate, a variance of 200 means, has a relative SE of about √(2/199) ≈ 0.1).
      const within = mean(p.map((pi) => pi * (1 - pi)));
      const between = mean(p.map((pi) => (pi - mean(p)) ** 2));
      if (Math.abs(f.variance!.withinShare! - within / (within + between)) < 0.06) covered.withinShare++;
    }
    // A 95% interval covers a fixed truth in at least 17 of 20 seeds with probability 0.984 (binomial; the intervals
    // resample items whose p_i the truth holds fixed, so they are if anything wider than needed).
    expect(covered.pass1).toBeGreaterThanOrEqual(17);
    expect(covered.pass4).toBeGreaterThanOrEqual(17);
    expect(covered.passHat4).toBeGreaterThanOrEqual(17);
    expect(covered.pass2AsPass4).toBe(0);
    expect(covered.withinShare).toBe(SEEDS.length);
  });

  test('a baseline 0.1 better on half the items: a significant drop at k = 8, too few items to tell at k = 1', () => {
    const verdicts = { 8: [] as string[], 1: [] as string[] };
    const mde = { 8: [] as number[], 1: [] as number[] };
    for (const seed of SEEDS) {
      const { p, trials } = world(seed);
      const current = p.map((pi, i) => (i % 2 === 0 ? pi - 0.1 : pi));
      for (const k of [8, 1] as const) {
        const baseline = trials(p, k);
        const now = trials(current, k);
        const pairs = baseline.map((b, i) => ({ id: `item-${i}`, current: now[i]!, baseline: b }));
        const gate = trialGate('pooled', 'em', pairs, { alpha: 0.05, margin: 0.01 }, { confidence: 0.95, resamples: 2000, seed })!;
        expect(gate.test).toBe(k === 1 ? 'McNemar exact' : 'paired bootstrap');
        verdicts[k].push(gate.verdict);
        mde[k].push(gate.mde!);
      }
    }
    // Expected sizes: var(d_i) ≈ 2·E[p(1 − p)]/k + var(drop) = 2·0.189/k + 0.0025 for p ~ U(0.1, 0.95), so
    // SE = √(var/200) ≈ 0.0158 at k = 8 and 0.0436 at k = 1, and MDE = (1.960 + 0.842)·SE ≈ 0.044 and 0.122.
    expect(Math.abs(mean(mde[8]) - 0.044)).toBeLessThan(0.005);
    expect(Math.abs(mean(mde[1]) - 0.122)).toBeLessThan(0.012);
    // Power against the true mean drop 0.05 is Φ(0.05/SE − 1.96): 0.89 at k = 8, 0.21 at k = 1. At least 15 of 20
    // drops at k = 8 happens with probability 0.98 at that power and 4·10⁻⁷ at k = 1's; at least 12 of 20 "too few"
    // at k = 1 with probability 0.99 (and 2·10⁻⁷ if k = 1 were as sensitive as k = 8): the counts tell the two apart.
    expect(verdicts[8].filter((v) => v === 'significant drop').length).toBeGreaterThanOrEqual(15);
    expect(verdicts[1].filter((v) => v === 'too few items to tell').length).toBeGreaterThanOrEqual(12);
  });
});
