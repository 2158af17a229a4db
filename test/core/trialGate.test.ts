// The baseline gate with trials: per-item means by hand, McNemar's test when both runs have one 0/1 trial (equal to
// the gate without trials), the paired bootstrap and its MDE formula otherwise.
import { describe, expect, test } from 'vitest';
import { judgeBaselineFamily, pairedTest } from '../../src/core/baseline/index.ts';
import { trialGate, trialPairedFigure } from '../../src/core/baseline/trialGate.ts';

const SETTINGS = { alpha: 0.05, margin: 0.01 };

describe('trialGate', () => {
  test('per-item means of three items with two trials, and the MDE (z₀.₉₇₅ + z₀.₈) · sd(d)/√n by hand', () => {
    const pairs = [
      { id: 'a', current: [1, 0], baseline: [1, 1] },
      { id: 'b', current: [1, 1], baseline: [1, 1] },
      { id: 'c', current: [0, 0], baseline: [0, 1] },
    ];
    const figure = trialPairedFigure('pooled', 'em', pairs);
    expect(figure.pairs.map((p) => [p.current, p.baseline])).toEqual([[0.5, 1], [1, 1], [0, 0.5]]);
    expect(figure.scores).toBe('continuous');
    const gate = trialGate('pooled', 'em', pairs, SETTINGS)!;
    // d = −1/2, 0, −1/2: mean −1/3; deviations −1/6, 1/3, −1/6 → sd² = (6/36)/2 = 1/12, SE = √(1/12)/√3 = 1/6.
    expect(gate.diff).toBeCloseTo(-1 / 3, 15);
    expect(gate.se).toBeCloseTo(1 / 6, 15);
    // z₀.₉₇₅ = 1.959964, z₀.₈ = 0.841621 (normal tables): MDE = 2.801585/6.
    expect(gate.mde).toBeCloseTo(2.801585 / 6, 6);
    expect(gate.test).toBe('paired bootstrap');
    // Three items cannot show a significant drop, and an MDE of 0.47 is above the 0.01 margin.
    expect(gate.verdict).toBe('too few items to tell');
  });

  test('one 0/1 trial in both runs: the same test and verdict as the gate without trials (McNemar)', () => {
    const current = [1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0];
    const baseline = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0];
    const pairs = current.map((c, i) => ({ id: `q${i}`, current: [c], baseline: [baseline[i]!] }));
    const gate = trialGate('pooled', 'em', pairs, SETTINGS)!;
    const without = judgeBaselineFamily([{ key: 'pooled', figure: 'em', pairs: current.map((c, i) => ({ id: `q${i}`, current: c, baseline: baseline[i]! })), onlyCurrent: 0, onlyBaseline: 0 }], SETTINGS)[0]!;
    expect(gate).toEqual(without);
    // 7 items went right → wrong, none the other way: p = 2 · 0.5⁷ = 1/64.
    expect(gate.test).toBe('McNemar exact');
    expect(gate.p).toBeCloseTo(1 / 64, 15);
    expect(gate.verdict).toBe('significant drop');
  });

  test('all-0/1 means with several trials are still bootstrapped, as scores in [0, 1]', () => {
    const pairs = Array.from({ length: 30 }, (_, i) => ({ id: `q${i}`, current: i < 20 ? [0, 0] : [1, 1], baseline: [1, 1] }));
    const figure = trialPairedFigure('pooled', 'em', pairs);
    expect(pairedTest(figure)!.test).toBe('paired bootstrap');
    // Every resample of 20 drops of −1 and 10 zeros stays below 0: p = 0.
    expect(trialGate('pooled', 'em', pairs, SETTINGS)!.verdict).toBe('significant drop');
  });

  test('an item without trials in either run is refused', () => {
    expect(() => trialPairedFigure('pooled', 'em', [{ id: 'x', current: [], baseline: [1] }])).toThrow(/item x has no trials in the current run/u);
    expect(() => trialPairedFigure('pooled', 'em', [{ id: 'y', current: [1], baseline: [] }])).toThrow(/item y has no trials in the baseline/u);
  });
});
