// Headline intervals by the stratified cluster bootstrap, checked against closed forms and degenerate cases: a figure
// that cannot vary has a zero-width interval; a question and its translations are resampled together (an MTE of
// identical local and translated answers never moves); the average EM's bootstrap SE matches √(Σ p(1−p)/n)/L.
import { describe, expect, test } from 'vitest';
import type { LokalSubsetAggregate } from '../../src/benchmarks/multiloko/run/records.ts';
import type { RolledSubset } from '../../src/benchmarks/multiloko/run/rolledSubset.ts';
import { headlineIntervals, subsetIntervals } from '../../src/benchmarks/multiloko/results/intervals.ts';
import { headlineIntervalLines } from '../../src/benchmarks/multiloko/results/intervalTable.ts';
import { multilokoHeadline } from '../../src/benchmarks/multiloko/metrics/multilokoEffects.ts';

/** A subset whose item i scores ems[i] on EM (and every other metric alike); ids shared across subsets of one source. */
function subset(key: string, ems: number[], translated?: { source: string; question: string; kind: 'human' | 'machine' }): RolledSubset {
  const em = ems.reduce((a, b) => a + b, 0) / ems.length;
  const aggregate = {
    benchmark: 'multiloko', key, name: key, language: translated?.source ?? key, sourceLanguage: translated?.source ?? key,
    questionLanguage: translated?.question ?? key, translated: !!translated, ...(translated ? { translation: translated.kind } : {}),
    means: { em, f1: em, bleu: 100 * em, chrf: 100 * em, edit_distance: 1 - em, edit_similarity: em, edit_distance_first: 1 - em },
  } as unknown as LokalSubsetAggregate;
  const records = ems.map((v, i) => ({ subset: key, id: `q${i}`, index: i, scores: { em: v, f1: v, bleu: 100 * v, chrf: 100 * v, edit_distance: 1 - v, edit_similarity: v, edit_distance_first: 1 - v } }));
  return { aggregate, records: records as unknown as RolledSubset['records'] };
}

const pattern = (n: number, right: (i: number) => boolean) => Array.from({ length: n }, (_, i) => (right(i) ? 1 : 0));

describe('headline intervals', () => {
  test('figures that cannot vary have zero-width intervals; the seed and resamples are recorded', () => {
    const h = headlineIntervals([subset('italian', pattern(50, () => true)), subset('french', pattern(50, () => false))])!;
    expect(h).toMatchObject({ method: 'stratified cluster bootstrap', resamples: 2000, seed: 20261203, confidence: 0.95 });
    expect(h.figures.average_em).toMatchObject({ low: 0.5, high: 0.5, se: 0, defined: 2000 });
    expect(h.figures.gap_em).toMatchObject({ low: 1, high: 1, se: 0 });
  });

  test('a question and its translation are resampled together: identical answers give an MTE interval of [0, 0]', () => {
    const answers = pattern(60, (i) => i % 3 === 0);
    const h = headlineIntervals([subset('italian', answers), subset('italian_translated_human_english', answers, { source: 'italian', question: 'english', kind: 'human' })])!;
    expect(h.figures['mte_human:italian']).toMatchObject({ low: 0, high: 0, se: 0 });
    expect(h.figures.mte_human).toMatchObject({ low: 0, high: 0 });
    // The local EM alone does vary.
    expect(h.figures.average_em!.high - h.figures.average_em!.low).toBeGreaterThan(0.1);
  });

  test('the bootstrap SE of the average EM agrees with the closed form √(Σ p(1−p)/n)/L', () => {
    const n = 200;
    const rates = [0.2, 0.5, 0.7];
    const subsets = rates.map((p, l) => subset(`lang${l}`, pattern(n, (i) => i < p * n)));
    const h = headlineIntervals(subsets)!;
    const closed = Math.sqrt(rates.reduce((s, p) => s + (p * (1 - p)) / n, 0)) / rates.length;
    expect(h.figures.average_em!.se / closed).toBeGreaterThan(0.93);
    expect(h.figures.average_em!.se / closed).toBeLessThan(1.07);
    // Percentile interval ≈ mean ± 1.96 SE for a sum of many items.
    const mean = rates.reduce((a, b) => a + b, 0) / 3;
    expect(h.figures.average_em!.low).toBeCloseTo(mean - 1.96 * closed, 2);
    expect(h.figures.average_em!.high).toBeCloseTo(mean + 1.96 * closed, 2);
    expect(headlineIntervals(subsets, { seed: 1 })!.figures.average_em!.low).not.toBe(h.figures.average_em!.low);
    expect(headlineIntervals(subsets)).toEqual(h);
    expect(headlineIntervalLines(h)[1]).toMatch(/^ {2}average EM \[\d+\.\d{2}, \d+\.\d{2}\] · gap \[\d+\.\d{2}, \d+\.\d{2}\]$/u);
  });

  test('one question per language: every resample is the run itself, so each interval is the official figure', () => {
    const run = [
      subset('italian', [1]),
      subset('italian_translated_human_english', [0], { source: 'italian', question: 'english', kind: 'human' }),
      subset('italian_translated_machine_english', [1], { source: 'italian', question: 'english', kind: 'machine' }),
      subset('english', [0]),
      subset('english_translated_human_italian', [1], { source: 'english', question: 'italian', kind: 'human' }),
      subset('french', [1]),
    ];
    const official = multilokoHeadline(Object.fromEntries(run.map((s) => [s.aggregate.key, s.aggregate.means!.em])));
    const h = headlineIntervals(run)!;
    const expected: Record<string, number> = {
      average_em: official.local!.mean,
      gap_em: official.local!.gap,
      mte_human: official.motherTongueEffect.human.average!.mean,
      mte_machine: official.motherTongueEffect.machine.average!.mean,
      le_human: official.localityEffect.human.average!.mean,
      'mte_human:italian': official.motherTongueEffect.human.perLanguage.italian!,
      'le_human:italian': official.localityEffect.human.perLanguage.italian!,
    };
    for (const [name, value] of Object.entries(expected)) expect(h.figures[name], name).toMatchObject({ low: value, high: value });
    expect(h.figures.le_machine).toBeUndefined();
  });

  test('no local subset: no headline interval; one item: a mean has no standard error', () => {
    expect(headlineIntervals([subset('italian_translated_human_english', [1, 0], { source: 'italian', question: 'english', kind: 'human' })])).toBeUndefined();
    const one = subsetIntervals(subset('italian', [1]).records);
    expect(one.em).toMatchObject({ method: 'wilson', n: 1 });
    // One F1 of 1: a score at the top, which is a 0/1 item: Wilson's interval of 1 of 1, as EM's.
    expect(one.f1).toEqual({ ...one.em, method: 'quasi-wilson' });
    expect(subsetIntervals(subset('italian', [0.5]).records).f1).toEqual({ low: 0.5, high: 0.5, se: null, n: 1, method: 'quasi-wilson' });
    expect(subsetIntervals(subset('italian', [0.5]).records).edit_distance).toMatchObject({ method: 't' });
    expect(subsetIntervals([])).toEqual({});
  });

  test('over one local language the average EM keeps the interval its subset shows, not a bootstrap of [1, 1]', () => {
    const run = [subset('italian', [1, 1, 1, 1, 1]), subset('italian_translated_human_english', [1, 0, 1, 1, 0], { source: 'italian', question: 'english', kind: 'human' })];
    const h = headlineIntervals(run)!;
    const table = subsetIntervals(run[0]!.records).em!;
    expect(table.low).toBeCloseTo(0.566, 3);
    expect(h.figures.average_em).toMatchObject({ low: table.low, high: table.high });
    expect(headlineIntervalLines(h)[1]).toContain(`average EM [${(100 * table.low).toFixed(2)}, 100.00]`);
  });
});
