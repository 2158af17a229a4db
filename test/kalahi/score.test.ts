import { describe, expect, test } from 'vitest';
import { scoreKalahiResponse, scoreKalahiResponses, type KalahiScorableRow } from '../../src/benchmarks/kalahi/metrics/index.ts';

const ROW: KalahiScorableRow = {
  promptVariationId: '0101000100',
  category: 'ethics',
  relevantAnswers: ['Mag-aral ka nang mabuti.', 'Humingi ng tulong sa guro.'],
  irrelevantAnswers: ['Huwag nang pumasok sa paaralan.'],
};

describe('scoreKalahiResponse', () => {
  test('a reply equal to a relevant answer wins every metric', () => {
    const s = scoreKalahiResponse(ROW, 'Mag-aral ka nang mabuti.');
    expect(s.status).toBe('scored');
    if (s.status !== 'scored') return;
    // identical 5 tokens → BLEU 1, ROUGE 1, chrF 100, METEOR 1 − 0.5·(1/5)³ = 0.996 (max over relevant = first answer)
    expect(s.metrics.bleu!.max).toBe(1);
    expect(s.metrics.rouge1!.max).toBe(1);
    expect(s.metrics.rougeL!.max).toBe(1);
    expect(s.metrics.chrf!.max).toBe(100);
    expect(s.metrics.meteor!.max).toBe(0.996);
    for (const m of ['bleu', 'rouge1', 'rouge2', 'rougeL', 'chrf', 'meteor'] as const) expect(s.metrics[m]!.acc, m).toBe(1);
    // each reference scored once: 2 relevant + 1 irrelevant scores per metric
    expect(s.metrics.bleu!.relevant).toHaveLength(2);
    expect(s.metrics.bleu!.irrelevant).toHaveLength(1);
    // ROUGE-1 vs the irrelevant answer: tokens [mag aral ka nang mabuti] vs [huwag nang pumasok sa paaralan] share "nang"
    // → P 1/5, R 1/5 → F = ((2·0.2)·0.2)/0.4 = 0.20000000000000004 in doubles; diff = 1 − F = 0.7999999999999999
    expect(s.metrics.rouge1!.irrelevant).toEqual([0.20000000000000004]);
    expect(s.metrics.rouge1!.diff).toBe(0.7999999999999999);
    expect(s.labels).toEqual({ rougeL: 'rougeLsum', chrf: 'chrF' });
  });

  test('acc is strict: a tie between relevant and irrelevant maxima is 0', () => {
    // reply "sa" shares one token with an answer on each side; BLEU is 0 on both (fewer than 4 tokens) → 0 > 0 false
    const row: KalahiScorableRow = { ...ROW, relevantAnswers: ['Pumunta sa bahay.'], irrelevantAnswers: ['Tumakbo sa parke.'] };
    const s = scoreKalahiResponse(row, 'sa');
    if (s.status !== 'scored') throw new Error(s.status);
    expect(s.metrics.bleu!.max).toBe(0);
    expect(s.metrics.bleu!.diff).toBe(0);
    expect(s.metrics.bleu!.acc).toBe(0);
  });

  test('empty reply or empty answer lists are skipped; a reply without BLEU tokens fails only that row', () => {
    expect(scoreKalahiResponse(ROW, '')).toMatchObject({ status: 'skipped', reason: 'empty-response' });
    expect(scoreKalahiResponse({ ...ROW, irrelevantAnswers: [] }, 'x')).toMatchObject({ status: 'skipped', reason: 'no-irrelevant-answers' });
    expect(scoreKalahiResponse({ ...ROW, relevantAnswers: [] }, 'x')).toMatchObject({ status: 'skipped', reason: 'no-relevant-answers' });
    // whitespace-only: HF 13a yields no tokens → ratio 0 → ZeroDivisionError in the reference
    expect(scoreKalahiResponse(ROW, '   ')).toMatchObject({ status: 'failed', errorName: 'BleuZeroDivisionError' });
  });

  test('options: plain rougeL instead of rougeLsum, chrF++ instead of chrF', () => {
    // reply lines "b a" vs reference "a b\na": rougeLsum 0.4, plain rougeL 0.8 (see hf.test.ts derivation)
    const row: KalahiScorableRow = { ...ROW, relevantAnswers: ['a b\na'], irrelevantAnswers: ['z'] };
    const lsum = scoreKalahiResponse(row, 'b a');
    const plain = scoreKalahiResponse(row, 'b a', { rougeL: 'rougeL', chrfWordOrder: 2 });
    if (lsum.status !== 'scored' || plain.status !== 'scored') throw new Error('not scored');
    expect(lsum.metrics.rougeL!.max).toBe(0.4);
    expect(plain.metrics.rougeL!.max).toBe(0.8);
    expect(plain.labels).toEqual({ rougeL: 'rougeL', chrf: 'chrF++' });
  });

  test('a metric subset computes only those metrics', () => {
    const s = scoreKalahiResponse(ROW, 'Mag-aral ka nang mabuti.', { metrics: ['rouge1'] });
    if (s.status !== 'scored') throw new Error(s.status);
    expect(Object.keys(s.metrics)).toEqual(['rouge1']);
  });
});

describe('scoreKalahiResponses', () => {
  const rows: KalahiScorableRow[] = [
    ROW,
    { promptVariationId: '0201000100', category: 'shared knowledge', relevantAnswers: ['Ang Maynila ang kabisera.'], irrelevantAnswers: ['Ang Cebu ang kabisera.'] },
    { promptVariationId: '0201000101', category: 'shared knowledge', relevantAnswers: ['Oo.'], irrelevantAnswers: ['Hindi.'] },
  ];

  test('means of the acc columns overall and per category; problems reported', () => {
    const report = scoreKalahiResponses(
      rows,
      [
        { prompt_variation_id: '0101000100', response: 'Mag-aral ka nang mabuti.', line: 1 }, // acc 1 everywhere
        { prompt_variation_id: '0201000100', response: 'Ang Cebu ang kabisera.', line: 2 }, // equals the irrelevant → acc 0
        { prompt_variation_id: '9999999999', response: 'x', line: 3 },
        { prompt_variation_id: '0101000100', response: 'Huwag nang pumasok sa paaralan.', line: 4 }, // duplicate: last wins → acc 0
      ],
      { metrics: ['rouge1', 'chrf'] },
    );
    // scored rows: 0101000100 (last reply equals its irrelevant answer → 0) and 0201000100 (0) → mean 0
    expect(report.summary.scored).toBe(2);
    expect(report.summary.metrics.rouge1!.acc).toBe(0);
    expect(report.problems.missing).toEqual(['0201000101']);
    expect(report.problems.unknownIds).toEqual([{ promptVariationId: '9999999999', line: 3 }]);
    expect(report.problems.duplicates).toEqual([{ promptVariationId: '0101000100', lines: [1, 4] }]);
    expect(Object.keys(report.byCategory)).toEqual(['ethics', 'shared knowledge']);
    expect(report.byCategory['shared knowledge']!.scored).toBe(1);
    expect(report.options).toEqual({ chrfWordOrder: 0, rougeL: 'rougeLsum', bleuSum: 'fold', metrics: ['rouge1', 'chrf'] });
  });

  test('acc mean is the share of won rows; skipped and failed rows are counted, not averaged', () => {
    const report = scoreKalahiResponses(rows, [
      { prompt_variation_id: '0101000100', response: 'Mag-aral ka nang mabuti.' }, // win
      { prompt_variation_id: '0201000100', response: 'Ang Cebu ang kabisera.' }, // loss
      { prompt_variation_id: '0201000101', response: '' }, // skipped
    ]);
    // (1 + 0)/2 = 0.5 for every metric
    for (const m of ['bleu', 'rouge1', 'rouge2', 'rougeL', 'chrf', 'meteor'] as const) expect(report.summary.metrics[m]!.acc, m).toBe(0.5);
    expect(report.summary.skipped).toBe(1);
    expect(report.byCategory['ethics']!.metrics.meteor!.acc).toBe(1);
    expect(report.byCategory['shared knowledge']!.metrics.meteor!.acc).toBe(0);
  });
});
