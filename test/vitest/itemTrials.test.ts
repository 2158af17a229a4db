// An item's trials folded into its record (scores the means, the majority answer shown, every trial kept), its verdict
// line, and a subset's trial figures and terminal lines, against values worked out by hand.
import { describe, expect, test } from 'vitest';
import { foldTrials, trialVerdictLine } from '../../src/benchmarks/multiloko/run/itemTrials.ts';
import { reportedKs } from '../../src/core/statistics/reportedKs.ts';
import { subsetTrials, trialLines } from '../../src/benchmarks/multiloko/results/trialTable.ts';
import { multilokoAnswer } from '../support/multilokoAnswer.ts';

/** One trial's record: its answer, EM and F1. */
const trial = (prediction: string, em: number, f1: number) => multilokoAnswer(prediction, em, f1, { id: '1' });

describe('foldTrials', () => {
  test('4 trials, 3 right: scores are the means, the majority answer is shown, pass@2 = 1 and pass^2 = 1/2', () => {
    const record = foldTrials([trial('roma', 1, 1), trial('milano', 0, 0), trial('roma', 1, 1), trial('roma', 1, 1)], [11, 12, 13, 14]);
    expect(record.scores.em).toBe(0.75);
    expect(record.scores.f1).toBe(0.75);
    expect(record.answer).toBe('roma');
    expect(record.latencyMs).toBe(40);
    expect(record.outputTokens).toBe(8);
    expect(record.trials!.map((t) => [t.trial, t.seed, t.answer])).toEqual([[0, 11, 'roma'], [1, 12, 'milano'], [2, 13, 'roma'], [3, 14, 'roma']]);
    expect(record.trialSummary).toMatchObject({ n: 4, correct: 3, passAt: [0.75, 1, 1, 1], passHat: [0.75, 0.5, 0.25, 0], majority: 'roma', consistency: 0.75, flaky: true });
    expect(trialVerdictLine(record)).toBe('✓✗✓✓ 3/4 · EM 0.75 · F1 0.75 · chrF 75.0 · majority "roma" · targets "roma" · flaky');
  });

  test('trials all right are not flaky; the indexes of the trials kept are recorded', () => {
    const record = foldTrials([trial('roma', 1, 1), trial('roma', 1, 1)], [undefined, undefined], [0, 2]);
    expect(record.trials!.map((t) => t.trial)).toEqual([0, 2]);
    expect('seed' in record.trials![0]!).toBe(false);
    expect(trialVerdictLine(record)).toBe('✓✓ 2/2 · EM 1 · F1 1 · chrF 100.0 · majority "roma" · targets "roma"');
  });
});

describe('subset trial figures', () => {
  test('ks reported: 1 and the largest power of two within the trials', () => {
    expect([1, 2, 3, 8, 10, 1000].map(reportedKs)).toEqual([[1], [1, 2], [1, 2], [1, 8], [1, 8], [1, 512]]);
  });

  test('no trials: no figures; with trials: means over items, flaky items, items short, one line each', () => {
    expect(subsetTrials([trial('roma', 1, 1)])).toBeUndefined();
    const a = foldTrials([trial('roma', 1, 1), trial('x', 0, 0), trial('roma', 1, 1), trial('roma', 1, 1)], []);
    const b = foldTrials([trial('x', 0, 0), trial('x', 0, 0)], [], [0, 1]);
    const figures = subsetTrials([a, b])!;
    // Item means 3/4 and 0: mean EM 0.375; pass@2 (fewest trials 2): item a 1, item b 0.
    expect(figures).toMatchObject({ items: 2, fewest_trials: 2, most_trials: 4, items_short: 1, flaky: 1 });
    expect(figures.mean_em.value).toBe(0.375);
    expect(figures.pass_at['2']!.value).toBe(0.5);
    expect(figures.pass_hat['2']!.value).toBe(0.25);
    const lines = trialLines([{ name: 'italian · local', language: 'italian', trials: figures }]);
    expect(lines[1]).toMatch(/^ {2}italian · local: 2–4 trials · EM 37\.5 \[/u);
    expect(lines[2]).toBe('  flaky items (trials disagree): italian 1');
    expect(lines[3]).toBe('lokal: MultiLoKo 1 item has fewer trials than asked (the replay file lacks them); the figures use the trials there');
    expect(trialLines([{ name: 'italian · local', language: 'italian' }])).toEqual([]);
    // Every item with 2 of the 4 trials asked (a replay file with trials 0 and 1 only): both are short.
    const c = { ...foldTrials([trial('roma', 1, 1), trial('x', 0, 0)], []), trialsAsked: 4 };
    expect(subsetTrials([c, { ...b, trialsAsked: 4 }])!.items_short).toBe(2);
  });
});
