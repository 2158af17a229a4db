// Kalahi's per-metric reduction (docs/metrics.md#open-ended-scoring), values worked out by hand.
import { expect, test } from 'vitest';
import { maxDiffAcc } from '../../src/benchmarks/kalahi/metrics/index.ts';

test('max over relevant, diff against the max over irrelevant, acc strict; NaN ignored as numpy nanmax does', () => {
  // max relevant 0.5, max irrelevant 0.25: diff 0.25, acc 1
  expect(maxDiffAcc([0.5, Number.NaN, 0.1], [0.25, Number.NaN])).toMatchObject({ max: 0.5, diff: 0.25, acc: 1 });
  // a tie is not a win: acc 0, diff 0
  expect(maxDiffAcc([0.4], [0.4, 0.1])).toMatchObject({ max: 0.4, diff: 0, acc: 0 });
  // all relevant NaN: max NaN, diff NaN, acc 0 (NaN > x is false)
  const allNaN = maxDiffAcc([Number.NaN], [0.2]);
  expect(Number.isNaN(allNaN.max) && Number.isNaN(allNaN.diff) && allNaN.acc === 0).toBe(true);
});
