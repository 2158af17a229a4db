// MultiLoKo's gates over trials at the roll-up: pass@k and pass^k clauses per subset and averaged over the local
// languages, `em>=…` on the trial means, and the one-line failures (k above the trials, a run without trials),
// against figures worked out by hand from docs/trials.md's definitions.
import { describe, expect, test } from 'vitest';
import { routeClauses, ThresholdError } from '../../src/core/gates.ts';
import { aggregateSubset } from '../../src/benchmarks/multiloko/results/aggregate.ts';
import { multilokoGate, parseGate } from '../../src/benchmarks/multiloko/run/gates.ts';
import { foldTrials } from '../../src/benchmarks/multiloko/run/itemTrials.ts';
import type { LokalSubsetInfo } from '../../src/benchmarks/multiloko/run/records.ts';
import type { RolledSubset } from '../../src/benchmarks/multiloko/run/rolledSubset.ts';
import { judgeRun, summariseGroups } from '../../src/benchmarks/multiloko/results/rollup.ts';
import { multilokoAnswer } from '../support/multilokoAnswer.ts';

/** A subset rolled up from its items' trials (1 right, 0 wrong): each item folded as the item test folds it. */
function rolled(key: string, language: string, translated: boolean, items: number[][]): RolledSubset {
  const info = { benchmark: 'multiloko', key, name: `${language} · ${translated ? 'translated' : 'local'}`, language, translated, sourceLanguage: language, questionLanguage: language, order: 0, split: 'dev' } as unknown as LokalSubsetInfo;
  const records = items.map((trials, i) => {
    const answers = trials.map((y) => multilokoAnswer(y === 1 ? 'roma' : 'milano', y, y, { subset: key, id: `q${i}`, index: i }));
    const record = trials.length === 1 ? answers[0]! : foldTrials(answers, []);
    return { record, state: 'passed' as const };
  });
  const aggregate = aggregateSubset(info, records);
  return { aggregate, records: records.map((r) => r.record) };
}

const judgeWith = (thresholds: string, subsets: RolledSubset[]) => {
  const gates = routeClauses(thresholds, ['multiloko', 'kalahi'], 'multiloko').get('multiloko')!.map(multilokoGate);
  return judgeRun(subsets, summariseGroups(subsets), { gates, baselineTolerance: 0.02 });
};

// Italian: 3 of 4 and 1 of 4 right; French: 4 of 4 and 0 of 4.
const italian = rolled('italian', 'italian', false, [[1, 1, 0, 1], [0, 1, 0, 0]]);
const french = rolled('french', 'french', false, [[1, 1, 1, 1], [0, 0, 0, 0]]);
const translated = rolled('italian_translated_human_english', 'italian', true, [[1, 0, 0, 0], [1, 1, 0, 0]]);

describe('pass@k and pass^k gates', () => {
  test('the grammar: a trial figure with a scope, on a 0–1 scale', () => {
    expect(parseGate('italian.pass@4>=0.6')).toMatchObject({ scope: { kind: 'subset', key: 'italian' }, trial: { kind: 'at', k: 4 }, metric: 'em' });
    expect(parseGate('pass^2>=0.3')).toMatchObject({ scope: { kind: 'cross', figure: 'average' }, trial: { kind: 'hat', k: 2 } });
    expect(parseGate('local.pass@2>=0.3').scope).toEqual({ kind: 'each', which: 'local' });
    expect(() => parseGate('pass@4>=60')).toThrow(ThresholdError);
    expect(() => parseGate('pass@4>=60')).toThrow('pass@4 is on a 0–1 scale, 60 is out of range; did you mean 0.6?');
    expect(() => parseGate('pass@0>=0.5')).toThrow(/k must be an integer from 1 to 1000/u);
  });

  test('per subset and averaged over the local languages, each with its interval; translations stay out of the average', () => {
    const judged = judgeWith('italian.pass@2>=0.6,pass@2>=0.6,pass^2>=0.3,*.pass@4>=0.5', [italian, french, translated]);
    const byGate = (gate: string) => judged.outcomes.filter((o) => o.gate === gate);
    // Italian pass@2: 3 of 4 right gives 1 − C(1,2)/C(4,2) = 1; 1 of 4 gives 1 − C(3,2)/C(4,2) = 1/2: mean 3/4.
    const [one] = byGate('italian.pass@2>=0.6');
    expect(one!.figure).toBe('italian · local pass@2');
    expect(one!.value).toBe(0.75);
    // Its bootstrap resamples the two items: a mean of 1/2 (both the 1/2 item) or 1 (both the 1) each comes out a
    // quarter of the time, far more often than the 2.5% tails, so the 95% interval is [1/2, 1].
    expect(one!.interval).toEqual({ low: 0.5, high: 1 });
    // French pass@2: 1 and 0, mean 1/2; the average of the two languages is (3/4 + 1/2)/2 = 5/8.
    const [average] = byGate('pass@2>=0.6');
    expect(average!.figure).toBe('average pass@2 (2 local languages)');
    expect(average!.value).toBe(0.625);
    // pass^2: Italian C(3,2)/C(4,2) = 1/2 and 0, mean 1/4; French 1 and 0, mean 1/2; their average 3/8.
    const [hat] = byGate('pass^2>=0.3');
    expect(hat!.value).toBe(0.375);
    expect(hat!.pass).toBe(true);
    // pass@4 of every subset: Italian (1 + 1)/2, French (1 + 0)/2, the translation (1 + 1)/2.
    expect(byGate('*.pass@4>=0.5').map((o) => [o.figure, o.value, o.pass])).toEqual([
      ['italian · local pass@4', 1, true],
      ['french · local pass@4', 0.5, true],
      ['italian · translated pass@4', 1, true],
    ]);
  });

  test('em>=… reads the trial means: Italian (3/4 + 1/4)/2 = 1/2, French 1/2, their average 1/2', () => {
    expect(italian.aggregate.means!.em).toBe(0.5);
    const judged = judgeWith('em>=0.55,italian.f1>=0.5', [italian, french]);
    expect(judged.outcomes.map((o) => [o.gate, o.value, o.pass])).toEqual([
      ['italian.f1>=0.5', 0.5, true],
      ['em>=0.55', 0.5, false],
    ]);
  });

  test('k above the fewest trials, and a run without trials: one line each', () => {
    const judged = judgeWith('pass@8>=0.5', [italian, french]);
    expect(judged.outcomes.map((o) => o.message)).toEqual(['average pass@8 (2 local languages): pass@8 needs 8 trials of every item, and an item of italian · local has 4, so the gate fails (gate pass@8>=0.5)']);
    const once = rolled('italian', 'italian', false, [[1], [0], [1]]);
    const single = judgeWith('italian.pass@4>=0.6,pass@1>=0.6', [once]);
    expect(single.outcomes.map((o) => [o.message.split('\n').length, o.pass])).toEqual([[1, false], [1, true]]);
    expect(single.outcomes[0]!.message).toBe('italian · local pass@4: the run asked one answer per item, and pass@4 needs 4 trials of each (set LOKAL_TRIALS to 4 or more), so the gate fails (gate italian.pass@4>=0.6)');
    // pass@1 over one answer per item is the share right: 2 of 3.
    expect(single.outcomes[1]!.value).toBeCloseTo(2 / 3, 15);
  });
});
