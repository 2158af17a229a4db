// Kalahi with trials (docs/kalahi-trials.md) on hand-built records: the options of each trial in its seeded order and
// the reply's letter mapped back to the option it shows; a prompt's trials folded (MC1 mean, pass@k, pass^k, majority,
// flaky; each generation metric over the scored trials); and a group's figures, MC1 by the best answer's position,
// each against values worked out by hand from the definitions.
import { describe, expect, test } from 'vitest';
import { foldGenerationTrials, foldLetterTrials, kalahiLetterTrialsVerdict, letterTrialOf } from '../../src/benchmarks/kalahi/run/itemTrials.ts';
import { letterOptions, trialLetterOptions } from '../../src/benchmarks/kalahi/prompts/letterChoice.ts';
import { kalahiLetterRecord } from '../../src/benchmarks/kalahi/run/mcTask.ts';
import type { KalahiGenerationRecord, KalahiPromptRecord } from '../../src/benchmarks/kalahi/run/records.ts';
import { groupTrialFigures, positionLine } from '../../src/benchmarks/kalahi/results/trialFigures.ts';
import { seededPermutation } from '../../src/core/statistics/seededPermutation.ts';
import { trialSeed } from '../../src/core/trialSeed.ts';
import { KALAHI_LETTER_ROW as row } from '../support/kalahiLetterRow.ts';
import { passAtDefinition as passAt, passHatDefinition as passHat } from '../support/passAtDefinition.ts';

const official = letterOptions(row);
const timing = { latencyMs: 10, cached: false };

/** The trial of `row` whose reply is `reply`, with its options in trial t's order (base seed 42). */
function letterTrial(t: number, reply: string) {
  const { options, order } = trialLetterOptions(official, 42, row.promptVariationId, t);
  const record = kalahiLetterRecord(row, options, reply, timing);
  return { record, trial: letterTrialOf(record, t, trialSeed(42, row.promptVariationId, t), order, 5), options, order };
}
/** The reply naming the option whose text is `text` in trial t's order. */
const replyFor = (t: number, text: string) => `Sagot: ${trialLetterOptions(official, 42, row.promptVariationId, t).options.find((o) => o.text === text)!.letter}`;

describe('the options of a trial', () => {
  test('trial 0 shows the options of a run without trials; trial t the seeded order, lettered A–D again', () => {
    expect(trialLetterOptions(official, 42, row.promptVariationId, 0)).toEqual({ options: official, order: [0, 1, 2, 3] });
    for (let t = 1; t < 12; t++) {
      const { options, order } = trialLetterOptions(official, 42, row.promptVariationId, t);
      expect(order).toEqual(seededPermutation(4, trialSeed(42, row.promptVariationId, t)));
      expect(options.map((o) => o.letter)).toEqual(['A', 'B', 'C', 'D']);
      // Letter i shows the trial-0 option order[i]: the same text, kind and place in its list.
      options.forEach((o, i) => expect({ ...o, letter: official[order[i]!]!.letter }).toEqual(official[order[i]!]));
      expect(trialLetterOptions(official, 42, row.promptVariationId, t)).toEqual({ options, order });
    }
    // Over 12 trials the best answer is not shown at one letter only (the position is what the trials vary).
    const places = new Set(Array.from({ length: 12 }, (_, t) => trialLetterOptions(official, 42, row.promptVariationId, t).options.findIndex((o) => o.best)));
    expect(places.size).toBeGreaterThan(1);
  });

  test("the reply's letter is mapped back through the order: choosing the best answer's text scores MC1 1 whatever its letter", () => {
    const best = row.relevantAnswers[0]!;
    const bestPlace = official.findIndex((o) => o.best);
    for (let t = 0; t < 8; t++) {
      const right = letterTrial(t, replyFor(t, best));
      expect(right.trial.mc1).toBe(1);
      expect(right.trial.option).toBe(bestPlace);
      expect(right.trial.answer).toBe(right.options.find((o) => o.best)!.letter);
      // Naming "Magalit." (the third irrelevant answer) is wrong, and maps back to that option of trial 0.
      const wrong = letterTrial(t, replyFor(t, 'Magalit.'));
      expect(wrong.trial.mc1).toBe(0);
      expect(official[wrong.trial.option!]!.text).toBe('Magalit.');
    }
    expect(letterTrial(3, 'hindi ko alam').trial).toMatchObject({ chosen: null, option: null, mc1: 0 });
  });
});

describe("a prompt's lettered trials folded", () => {
  test('3 of 4 right: MC1 0.75, pass@2 = 1, pass^2 = 1/2, majority the best answer, flaky; every trial kept', () => {
    const asked = [letterTrial(0, replyFor(0, 'Kausapin ang magulang.')), letterTrial(1, replyFor(1, 'Umalis ng bahay.')), letterTrial(2, replyFor(2, 'Kausapin ang magulang.')), letterTrial(3, replyFor(3, 'Kausapin ang magulang.'))];
    const mc = foldLetterTrials(official, asked.map((a) => a.record), asked.map((a) => a.trial));
    expect(mc.normalised.mc1).toBe(0.75);
    expect(mc.nonNormalised.mc1).toBe(0.75);
    expect(mc.latencyMs).toBe(40);
    expect(mc.trials).toMatchObject({ asked: 4, majority: 'the best answer', consistency: 0.75, flaky: true, passAt: [0.75, 1, 1, 1], passHat: [0.75, 0.5, 0.25, 0] });
    expect(mc.trials!.trials.map((t) => [t.trial, t.seed, t.mc1])).toEqual([0, 1, 2, 3].map((t) => [t, trialSeed(42, row.promptVariationId, t), t === 1 ? 0 : 1]));
    // The question shown is the first trial that chose the majority option: trial 0.
    expect(mc.letter!.options).toEqual(asked[0]!.options);
    expect(kalahiLetterTrialsVerdict(mc)).toBe('✓✗✓✓ 3/4 · MC1 0.75 · majority the best answer (3 of 4) · flaky');
  });

  test('the majority is the option, not the letter: the same wrong answer at different letters is one answer', () => {
    const asked = [0, 1, 2].map((t) => letterTrial(t, replyFor(t, 'Huwag pansinin.')));
    const mc = foldLetterTrials(official, asked.map((a) => a.record), asked.map((a) => a.trial));
    expect(mc.trials).toMatchObject({ majority: 'irrelevant answer #2', consistency: 1, flaky: false, passAt: [0, 0, 0] });
    expect(mc.normalised.mc1).toBe(0);
  });
});

function generation(response: string, acc: Record<string, number>, status: KalahiGenerationRecord['status'] = 'scored'): KalahiGenerationRecord {
  const metrics = Object.fromEntries(Object.entries(acc).map(([m, a]) => [m, { relevant: [a], irrelevant: [0.5], max: a + 0.25, diff: a - 0.25, acc: a }]));
  return { response, status, metrics: status === 'scored' ? metrics : {}, notComputed: {}, latencyMs: 7, cached: true, missing: false, outputTokens: 3 };
}

describe("a prompt's generation trials folded", () => {
  test('means over the scored trials only; pass@k of each metric acc; the majority reply shown', () => {
    const folded = foldGenerationTrials(
      [generation('a', { bleu: 1, chrf: 1 }), generation('', {}, 'skipped'), generation('b', { bleu: 0, chrf: 1 }), generation('a', { bleu: 1, chrf: 1 })],
      [1, 2, 3, 4],
    );
    expect(folded.status).toBe('scored');
    expect(folded.response).toBe('a');
    // BLEU: 2 of the 3 scored trials right; chrF: all 3.
    expect(folded.metrics.bleu).toMatchObject({ acc: 2 / 3, relevant: [1] });
    expect(folded.metrics.bleu!.max).toBeCloseTo(2 / 3 + 0.25, 12);
    expect(folded.metrics.bleu!.diff).toBeCloseTo(2 / 3 - 0.25, 12);
    expect(folded.metrics.chrf!.acc).toBe(1);
    expect(folded.trials!.passAt.bleu).toEqual([1, 2, 3].map((j) => expect.closeTo(passAt(3, 2, j), 12)));
    expect(folded.trials!.passHat.bleu).toEqual([1, 2, 3].map((j) => expect.closeTo(passHat(3, 2, j), 12)));
    expect(folded.trials).toMatchObject({ asked: 4, scored: 3, majority: 'a', consistency: 2 / 3, flaky: ['bleu'] });
    expect(folded.trials!.trials.map((t) => [t.trial, t.seed, t.status])).toEqual([[0, 1, 'scored'], [1, 2, 'skipped'], [2, 3, 'scored'], [3, 4, 'scored']]);
    expect([folded.latencyMs, folded.cached, folded.outputTokens]).toEqual([28, true, 12]);
  });

  test('no trial scored: the first record of the status, every trial kept, no means', () => {
    const folded = foldGenerationTrials([generation('', {}, 'skipped'), generation('', {}, 'skipped')], [undefined, undefined]);
    expect(folded.status).toBe('skipped');
    expect(folded.trials).toMatchObject({ scored: 0, majority: null, passAt: {} });
  });
});

/** A prompt record of category `category` whose lettered trials have the best answer at `letters` and MC1 `right`. */
function promptRecord(i: number, category: string, letters: string[], right: number[]): KalahiPromptRecord {
  const trials = letters.map((answer, t) => ({ trial: t, order: [0, 1, 2, 3], answer, response: '', chosen: null, option: null, mc1: right[t]!, latencyMs: 1, cached: false }));
  const mc1 = right.reduce((a, b) => a + b, 0) / right.length;
  const figures = { mc1, mc2: null, mc2_normalised: null, mc3: null, lprob_max: null, lprob_diff: null };
  return {
    suite: 'full', promptVariationId: `v${i}`, promptId: `p${i}`, category, topic: 't', row: i + 1, itemKey: `kalahi/v${i}`,
    mc: {
      references: [], normalised: figures, nonNormalised: figures, preferred: null, latencyMs: 0, cached: false,
      trials: { asked: letters.length, options: official, trials, majority: '', consistency: 1, passAt: [], passHat: [], flaky: false },
    },
  };
}

describe("a group's trial figures", () => {
  const records = [
    promptRecord(0, 'ethics', ['A', 'B', 'C', 'D'], [1, 1, 0, 1]),
    promptRecord(1, 'ethics', ['A', 'A', 'B', 'D'], [1, 0, 0, 0]),
    promptRecord(2, 'values', ['C', 'C', 'C', 'B'], [1, 1, 1, 1]),
  ];

  test('MC1 the mean of the prompt means; pass@1, pass@4, pass^4 the means of the per-prompt values; flaky prompts', () => {
    const figures = groupTrialFigures(records)!;
    expect(figures.asked).toBe(4);
    const mc = figures.mc!;
    expect(mc.mc1.value).toBeCloseTo((3 / 4 + 1 / 4 + 1) / 3, 12);
    expect(Object.keys(mc.pass_at)).toEqual(['1', '4']);
    expect(mc.pass_at['4']!.value).toBeCloseTo((passAt(4, 3, 4) + passAt(4, 1, 4) + passAt(4, 4, 4)) / 3, 12);
    expect(mc.pass_hat['4']!.value).toBeCloseTo((0 + 0 + 1) / 3, 12);
    expect(mc.pass_at['1']!.low).toBeLessThanOrEqual(mc.pass_at['1']!.value);
    expect(mc.flaky).toBe(2);
    expect([mc.prompts, mc.fewest_trials, mc.most_trials, mc.prompts_short]).toEqual([3, 4, 4, 0]);
    // One-way ANOVA by hand: MSW = Σ (y − ȳ_i)² / (N − m), MSB = Σ n (ȳ_i − ȳ)² / (m − 1), σ²_b = (MSB − MSW) / 4.
    const means = [3 / 4, 1 / 4, 1];
    const grand = 8 / 12;
    const msw = (3 * (1 - 0.75) ** 2 + (0 - 0.75) ** 2 + (1 - 0.25) ** 2 + 3 * 0.25 ** 2) / (12 - 3);
    const msb = (4 * means.reduce((s, m) => s + (m - grand) ** 2, 0)) / 2;
    expect(mc.within_share).toBeCloseTo(msw / (msw + Math.max(0, (msb - msw) / 4)), 12);
  });

  test('MC1 by the best answer position: the trials that showed it at each letter, and MC1 among them', () => {
    const { by_position } = groupTrialFigures(records)!.mc!;
    // A: trials (0,0)=1, (1,0)=1, (1,1)=0; B: (0,1)=1, (1,2)=0, (2,3)=1; C: (0,2)=0, (2,0..2)=1,1,1; D: (0,3)=1, (1,3)=0.
    expect(by_position).toEqual({ A: { trials: 3, mc1: 2 / 3 }, B: { trials: 3, mc1: 2 / 3 }, C: { trials: 4, mc1: 3 / 4 }, D: { trials: 2, mc1: 1 / 2 } });
    expect(positionLine(by_position)).toBe("MC1 by the best answer's position: A 0.6667 (3 trials) · B 0.6667 (3) · C 0.7500 (4) · D 0.5000 (2)");
    expect(groupTrialFigures(records.slice(2))!.mc!.by_position.A).toEqual({ trials: 0, mc1: null });
  });

  test('without trials there are no trial figures', () => {
    const plain = records.map((r) => ({ ...r, mc: { ...r.mc!, trials: undefined } }));
    expect(groupTrialFigures(plain)).toBeUndefined();
  });
});
