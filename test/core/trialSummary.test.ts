// One item's trial summary against hand counts: metric means, pass@k and pass^k by enumeration, the majority answer
// with its tie rule, the consistency rate and the flaky flag.
import { describe, expect, test } from 'vitest';
import { summariseTrials, type Trial } from '../../src/core/statistics/index.ts';

const trial = (answer: string, correct: boolean, metrics: Record<string, number | null> = {}): Trial => ({ answer, correct, metrics });

describe('summariseTrials', () => {
  test('four trials, three right: means, pass@k, pass^k, majority and consistency by hand', () => {
    const summary = summariseTrials([
      trial('Manila', true, { em: 1, f1: 1 }),
      trial('manila city', false, { em: 0, f1: 0.5 }),
      trial('Manila', true, { em: 1, f1: 1 }),
      trial('Manila', true, { em: 1, f1: null }),
    ]);
    expect(summary.n).toBe(4);
    expect(summary.correct).toBe(3);
    // em: 3/4; f1 over the three trials that have it: (1 + 0.5 + 1)/3.
    expect(summary.means).toEqual({ em: 0.75, f1: 2.5 / 3 });
    // One wrong trial: pass@1 = 3/4, and every pair or larger subset holds a right one.
    expect(summary.passAt).toEqual([0.75, 1, 1, 1]);
    // pass^2 = C(3,2)/C(4,2) = 3/6, pass^3 = C(3,3)/C(4,3) = 1/4, pass^4 = 0.
    expect(summary.passHat[0]).toBeCloseTo(0.75, 15);
    expect(summary.passHat[1]).toBeCloseTo(0.5, 15);
    expect(summary.passHat[2]).toBeCloseTo(0.25, 15);
    expect(summary.passHat[3]).toBe(0);
    expect(summary.answers).toEqual([{ answer: 'Manila', count: 3 }, { answer: 'manila city', count: 1 }]);
    expect(summary.majority).toBe('Manila');
    expect(summary.consistency).toBe(0.75);
    expect(summary.flaky).toBe(true);
  });

  test('a tie goes to the answer given first, whatever its position in the sort order', () => {
    const summary = summariseTrials([trial('b', false), trial('a', true), trial('a', true), trial('b', false)]);
    expect(summary.majority).toBe('b');
    expect(summary.consistency).toBe(0.5);
    // A later answer that overtakes the first one wins.
    expect(summariseTrials([trial('b', false), trial('a', true), trial('a', true)]).majority).toBe('a');
  });

  test('trials that agree on correctness are not flaky, even with different answers', () => {
    const allWrong = summariseTrials([trial('x', false), trial('y', false)]);
    expect(allWrong.flaky).toBe(false);
    expect(allWrong.passAt).toEqual([0, 0]);
    const allRight = summariseTrials([trial('x', true), trial('x', true)]);
    expect(allRight.flaky).toBe(false);
    expect(allRight.consistency).toBe(1);
    expect(allRight.passHat).toEqual([1, 1]);
  });

  test('a metric no trial has is null; one trial is summed up as itself', () => {
    const one = summariseTrials([trial('x', true, { bleu: null, em: 1 })]);
    expect(one.means).toEqual({ bleu: null, em: 1 });
    expect(one.passAt).toEqual([1]);
    expect(one.flaky).toBe(false);
    expect(() => summariseTrials([])).toThrow(/no trials/u);
  });
});
