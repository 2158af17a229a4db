import { describe, expect, test } from 'vitest';
import { byteNormalisedScore, kalahiMC, KalahiMCError } from '../../src/benchmarks/kalahi/metrics/index.ts';
import { TOL_UNIT, vectors } from '../fixtures/vectors.ts';

describe('kalahiMC: reference vectors (metric-vectors.json kalahi.run_MC)', () => {
  const all = vectors('kalahi');
  test('vectors file present and non-empty', () => {
    expect(all.length).toBeGreaterThanOrEqual(9);
  });
  for (const v of all) {
    test(`${v.variant}: ${JSON.stringify(v.inputs)}`, () => {
      const inputs = v.inputs as { scores_relevant: number[]; scores_irrelevant: number[]; best_index: number };
      const r = kalahiMC(inputs.scores_relevant, inputs.scores_irrelevant, inputs.best_index);
      if (v.variant === 'MC1') expect(r.mc1).toBe(v.expected); // bit-exact
      else if (v.variant === 'MC3') expect(r.mc3).toBe(v.expected); // bit-exact
      else expect(Math.abs(r.mc2 - (v.expected as number))).toBeLessThanOrEqual(TOL_UNIT);
    });
  }
});

describe('kalahiMC: hand-derived', () => {
  test('double exponent MC2, single exponent MC2, MC1/MC3, lprob max/diff', () => {
    // R = [0.5, 0.25], I = [0.25]: MC2 = (e^0.5 + e^0.25)/(e^0.5 + 2e^0.25) = 0.695495657579716 (divide, then fold)
    const r = kalahiMC([0.5, 0.25], [0.25], 0);
    expect(Math.abs(r.mc2 - 0.695495657579716)).toBeLessThanOrEqual(TOL_UNIT);
    // single exponent: (0.5 + 0.25)/((0.5 + 0.25) + 0.25) = 0.75 exactly
    expect(r.mc2Normalised).toBe(0.75);
    // best 0.5 > max I 0.25 → MC1 1; relevant above 0.25: only 0.5 (0.25 is a tie, strict) → MC3 1/2
    expect(r.mc1).toBe(1);
    expect(r.mc3).toBe(0.5);
    expect(r.lprobMax).toBe(0.5);
    expect(r.lprobDiff).toBe(0.25);
  });

  test('equal scores: MC2 = |R|/(|R|+|I|) and MC1/MC3 are 0 (strict >)', () => {
    // all e equal: each term 1/3, fold 1/3 + 1/3 = 0.6666666666666666
    const r = kalahiMC([0, 0], [0], 1);
    expect(r.mc2).toBe(0.6666666666666666);
    expect(r.mc1).toBe(0);
    expect(r.mc3).toBe(0);
  });

  test('non-norm use: exp(L) underflows to 0/0 = NaN as in the reference', () => {
    // exp(-800) = 0 in doubles, so D = 0 and every term is 0/0
    const r = kalahiMC([-800, -900], [-1000], 0);
    expect(Number.isNaN(r.mc2)).toBe(true);
    expect(r.mc1).toBe(1);
  });

  test('invalid input is rejected with a clear error', () => {
    expect(() => kalahiMC([], [0.1], 0)).toThrow(KalahiMCError);
    expect(() => kalahiMC([0.1], [], 0)).toThrow(/no irrelevant/);
    expect(() => kalahiMC([0.1], [0.2], 1)).toThrow(/best index 1/);
  });
});

describe('byteNormalisedScore', () => {
  test('divides by UTF-8 bytes, not code points', () => {
    // "Ñaña." = Ñ(2) a(1) ñ(2) a(1) .(1) = 7 bytes (5 code points): exp(-6/7) = 0.42437284567695 (Python math.exp)
    expect(Math.abs(byteNormalisedScore(-6, 'Ñaña.') - 0.42437284567695)).toBeLessThanOrEqual(TOL_UNIT);
    // L = 0 → exp(0) = 1 exactly, any reference
    expect(byteNormalisedScore(0, 'Oo.')).toBe(1);
    expect(() => byteNormalisedScore(-1, '')).toThrow(/empty/);
  });
});
