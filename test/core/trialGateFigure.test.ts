// Gates on pass@k and pass^k: the clause grammar takes them, k is checked, and a figure over items' trials is judged
// against values worked out by hand from the definitions (docs/trials.md), with one-line failures without trials.
import { describe, expect, test } from 'vitest';
import { parseClause, ThresholdError } from '../../src/core/gates.ts';
import { clusterBootstrap } from '../../src/core/statistics/bootstrap.ts';
import { stratumAverage } from '../../src/core/statistics/stratumAverage.ts';
import { judgeTrialFigure, parseTrialFigure } from '../../src/core/trialGateFigure.ts';

describe('parseTrialFigure', () => {
  test('pass@k and pass^k with their k; other figures are not trial figures', () => {
    expect(parseTrialFigure('pass@4', 'c')).toEqual({ kind: 'at', k: 4, name: 'pass@4' });
    expect(parseTrialFigure('PASS^02', 'c')).toEqual({ kind: 'hat', k: 2, name: 'pass^2' });
    expect(parseTrialFigure('em', 'c')).toBeUndefined();
    expect(parseTrialFigure('pass', 'c')).toBeUndefined();
  });

  test('k outside 1–1000 is an error naming the clause and the range', () => {
    expect(() => parseTrialFigure('pass@0', 'pass@0>=0.5')).toThrow(ThresholdError);
    expect(() => parseTrialFigure('pass@0', 'pass@0>=0.5')).toThrow('LOKAL_THRESHOLDS clause "pass@0>=0.5": pass@0: k must be an integer from 1 to 1000 (the trials LOKAL_TRIALS allows)');
    expect(() => parseTrialFigure('pass^1001', 'c')).toThrow(/pass\^1001: k must be an integer from 1 to 1000/u);
  });

  test('the clause grammar splits a scoped trial figure like any other', () => {
    expect(parseClause('multiloko.italian.pass@4 >= 0.6', ['multiloko', 'kalahi'], 'e.g.')).toMatchObject({ benchmark: 'multiloko', scopes: ['italian'], figure: 'pass@4', op: '>=', bound: 0.6 });
    expect(parseClause('pass^2<0.3', ['multiloko'], 'e.g.')).toMatchObject({ scopes: [], figure: 'pass^2', op: '<', bound: 0.3 });
    expect(() => parseClause('pass@>=0.3', ['multiloko'], 'e.g.')).toThrow(ThresholdError);
  });
});

describe('judgeTrialFigure', () => {
  // Stratum a: an item 3 of 4 right and one 0 of 4; stratum b: 2 of 2 and 1 of 2.
  const a = { name: 'a', items: [[1, 0, 1, 1], [0, 0, 0, 0]] };
  const b = { name: 'b', items: [[1, 1], [1, 0]] };

  test('pass@2 averaged over two strata: a (1 + 0)/2, b (1 + 1)/2, so 0.75; its interval holds it', () => {
    const outcome = judgeTrialFigure('pass@2>=0.7', 'average pass@2', parseTrialFigure('pass@2', '')!, [a, b], true, '>=', 0.7);
    // pass@2 of 3 right of 4: 1 − C(1,2)/C(4,2) = 1; of 1 right of 2: 1 − C(1,2)/C(2,2) = 1.
    expect(outcome.value).toBe(0.75);
    expect(outcome.pass).toBe(true);
    // The bootstrap resamples a's items (pass@2 1 and 0) within a; b's are both 1. a's mean is 0 or 1 a quarter of the
    // time each, so the average (a + 1)/2 is 1/2 or 1 far more often than the 2.5% tails: the interval is [1/2, 1].
    expect(outcome.interval).toEqual({ low: 0.5, high: 1 });
    expect(outcome.message).toMatch(/^average pass@2 = 0\.7500 \(95% CI [\d.]+–[\d.]+\), meets ≥ 0\.7000 \(gate pass@2>=0\.7\)$/u);
  });

  test('pass^2: a (C(3,2)/C(4,2) = 1/2 + 0)/2 = 1/4, b (1 + 0)/2 = 1/2; average 3/8, below 0.4 fails', () => {
    const outcome = judgeTrialFigure('pass^2>=0.4', 'average pass^2', parseTrialFigure('pass^2', '')!, [a, b], true, '>=', 0.4);
    expect(outcome.value).toBe(0.375);
    expect(outcome.pass).toBe(false);
  });

  test('k above the fewest trials: one line naming the stratum and its trials', () => {
    const outcome = judgeTrialFigure('pass@4>=0.5', 'average pass@4', parseTrialFigure('pass@4', '')!, [a, b], true, '>=', 0.5);
    expect(outcome.pass).toBe(false);
    expect(outcome.message).toBe('average pass@4: pass@4 needs 4 trials of every item, and an item of b has 2, so the gate fails (gate pass@4>=0.5)');
  });

  test('a run without trials: one line for k above 1; pass@1 is the share right', () => {
    const single = { name: 'italian · local', items: [[1], [0], [1], [1]] };
    const four = judgeTrialFigure('pass@4>=0.6', 'italian · local pass@4', parseTrialFigure('pass@4', '')!, [single], false, '>=', 0.6);
    expect(four.message).toBe('italian · local pass@4: the run asked one answer per item, and pass@4 needs 4 trials of each (set LOKAL_TRIALS to 4 or more), so the gate fails (gate pass@4>=0.6)');
    expect(four.message).not.toContain('\n');
    expect(judgeTrialFigure('pass@1>=0.6', 'f', parseTrialFigure('pass@1', '')!, [single], false, '>=', 0.6).value).toBe(0.75);
  });
});

describe('stratumAverage', () => {
  test('one stratum: the same percentile interval as the cluster bootstrap of its mean (the same seeded draws)', () => {
    const values = [0, 0.25, 1, 0.5, 0.75, 1, 0, 0.125];
    const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    const direct = clusterBootstrap(values, mean, { seed: 7, resamples: 500 });
    const averaged = stratumAverage([values], { seed: 7, resamples: 500 });
    expect(averaged.value).toBe(mean(values));
    expect(averaged.low).toBeCloseTo(direct.low, 12);
    expect(averaged.high).toBeCloseTo(direct.high, 12);
  });

  test('strata of different sizes weigh equally; a constant stratum adds no spread', () => {
    const result = stratumAverage([[1, 1, 1, 1, 1, 1], [0, 1]]);
    expect(result.value).toBe(0.75);
    expect(stratumAverage([[0.5, 0.5], [0.25]])).toMatchObject({ value: 0.375, low: 0.375, high: 0.375 });
    expect(() => stratumAverage([[1], []])).toThrow(/every stratum needs an item/u);
  });
});
