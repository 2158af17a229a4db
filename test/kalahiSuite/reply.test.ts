// Scoring one reply (text metrics + learned ones) and summarising prompt records: values by hand (docs/metrics.md#open-ended-scoring
// and test/fixtures/vectors.ts) and against the kalahi metric module's own max/diff/acc.
import { describe, expect, test } from 'vitest';
import type { KalahiRow } from '../../src/benchmarks/kalahi/data/kalahi.ts';
import { scoreKalahiResponse } from '../../src/benchmarks/kalahi/metrics/index.ts';
import { summariseKalahi } from '../../src/benchmarks/kalahi/results/aggregate.ts';
import { meanSkippingNull } from '../../src/core/stats.ts';
import type { LearnedScorers } from '../../src/benchmarks/kalahi/run/learned.ts';
import type { KalahiGenerationRecord, KalahiPromptRecord } from '../../src/benchmarks/kalahi/run/records.ts';
import { metricRecord, scoreKalahiReply } from '../../src/benchmarks/kalahi/run/reply.ts';
import { kalahiGenerationVerdict } from '../../src/benchmarks/kalahi/run/verdict.ts';

function row(relevant: string[], irrelevant: string[], id = '0101000100', category = 'ethics'): KalahiRow {
  return {
    promptVariationId: id,
    promptId: id.slice(0, 8),
    category,
    topic: 'career and livelihood',
    prompt: 'Ano ang gagawin ko?',
    bestAnswer: relevant[0]!,
    relevantAnswers: relevant,
    irrelevantAnswers: irrelevant,
    bestIndex: 0,
    raw: { bestAnswer: relevant[0]!, relevantAnswers: relevant.join(';'), irrelevantAnswers: irrelevant.join(';') },
    row: 1,
    line: 2,
  };
}

const cat = row(['The cat is on the mat.', 'Mag-ipon ng pera sa bangko.'], ['A dog.', 'Bumili ng bagong cellphone kahit walang pera.']);

describe('metricRecord', () => {
  test('max over relevant ignores NaN; diff and a strict acc', () => {
    expect(metricRecord([0.2, Number.NaN, 0.5], [0.5, 0.1])).toEqual({ relevant: [0.2, null, 0.5], irrelevant: [0.5, 0.1], max: 0.5, diff: 0, acc: 0 });
    expect(metricRecord([0.25, 0.75], [Number.NaN, 0.5])).toEqual({ relevant: [0.25, 0.75], irrelevant: [null, 0.5], max: 0.75, diff: 0.25, acc: 1 });
    expect(metricRecord([Number.NaN], [0.1])).toEqual({ relevant: [null], irrelevant: [0.1], max: null, diff: null, acc: 0 });
  });
});

const fakeLearned = (bleurt: (response: string, reference: string) => number): LearnedScorers => ({
  bleurt: { metric: 'bleurt', available: true, model: 'fake', description: {}, score: async (response, refs) => refs.map((r) => bleurt(response, r)) },
  bertscore: { metric: 'bertscore', available: false, model: 'microsoft/deberta-v3-large', reason: 'not available offline' },
});

describe('scoreKalahiReply', () => {
  test('chrF by default, chrF++ as option (reference vectors)', async () => {
    const chrf = await scoreKalahiReply(cat, 'The cat sat on the mat.', { chrf: 'chrf' });
    const chrfpp = await scoreKalahiReply(cat, 'The cat sat on the mat.', { chrf: 'chrf++' });
    expect(chrf.metrics.chrf!.relevant[0]).toBe(67.17273492330233);
    expect(chrfpp.metrics.chrf!.relevant[0]).toBe(69.43695278069349);
    // without learned scorers there are no learned columns and nothing is reported missing
    expect(Object.keys(chrf.metrics)).toEqual(['bleu', 'chrf', 'meteor', 'rouge1', 'rouge2', 'rougeL']);
    expect(chrf.notComputed).toEqual({});
  });

  test('learned metrics: per reference (relevant first), reduced like the others; an unavailable one is reported, not failed', async () => {
    const learned = fakeLearned((response, reference) => reference.length / 100);
    const scored = await scoreKalahiReply(cat, 'The cat sat on the mat.', { chrf: 'chrf', learned });
    expect(scored.status).toBe('scored');
    // table order: BLEURT, BERTScore, BLEU, ChrF, METEOR, ROUGE-1, ROUGE-2, ROUGE-L
    expect(Object.keys(scored.metrics)).toEqual(['bleurt', 'bleu', 'chrf', 'meteor', 'rouge1', 'rouge2', 'rougeL']);
    expect(scored.metrics.bleurt).toEqual({ relevant: [0.22, 0.27], irrelevant: [0.06, 0.45], max: 0.27, diff: 0.27 - 0.45, acc: 0 });
    expect(scored.notComputed).toEqual({ bertscore: 'not available offline' });
    const text = scoreKalahiResponse(cat, 'The cat sat on the mat.');
    if (text.status !== 'scored') throw new Error('expected a scored reply');
    expect(scored.metrics.rougeL).toEqual(text.metrics.rougeL);
    expect(scored.metrics.meteor).toEqual(text.metrics.meteor);
  });

  test('an empty reply is skipped as the reference skips it; so is a prompt without irrelevant answers', async () => {
    const learned = fakeLearned(() => 1);
    expect(await scoreKalahiReply(cat, '', { chrf: 'chrf', learned })).toEqual({ status: 'skipped', reason: 'empty-response', metrics: {}, notComputed: { bertscore: 'not available offline' } });
    expect((await scoreKalahiReply(row(['Oo.'], []), 'Oo.', { chrf: 'chrf' })).reason).toBe('no-irrelevant-answers');
  });

  test('a reply without BLEU tokens fails this prompt only, with the reference’s error', async () => {
    // 13a removes the literal <skipped>, leaving no tokens: HF BLEU divides by a zero translation length
    const empty = await scoreKalahiReply(cat, '<skipped>', { chrf: 'chrf' });
    expect(empty.status).toBe('failed');
    expect(empty.reason).toMatch(/ZeroDivision/);
  });
});

function generation(acc: Record<string, number>, status: KalahiGenerationRecord['status'] = 'scored', max: number | null = 0.5): KalahiGenerationRecord {
  return {
    response: 'x',
    status,
    metrics: Object.fromEntries(Object.entries(acc).map(([m, a]) => [m, { relevant: [], irrelevant: [], max, diff: max === null ? null : max - 0.25, acc: a }])),
    notComputed: { bertscore: 'offline' },
    latencyMs: 0,
    cached: false,
    missing: false,
  };
}

function record(id: string, rowNumber: number, category: string, mc1: number | undefined, gen?: KalahiGenerationRecord): KalahiPromptRecord {
  return {
    suite: 'full',
    promptVariationId: id,
    promptId: id,
    category,
    topic: 't',
    row: rowNumber,
    itemKey: `kalahi/${id}`,
    ...(mc1 === undefined
      ? {}
      : {
          mc: {
            references: [],
            normalised: { mc1, mc2: 0.5, mc2_normalised: 0.4, mc3: mc1 / 2, lprob_max: 0.1, lprob_diff: 0 },
            nonNormalised: { mc1: 0, mc2: mc1 === 1 ? null : 0.25, mc2_normalised: null, mc3: 0, lprob_max: -9, lprob_diff: -1 },
            preferred: { kind: 'relevant', index: 0, text: 'a', score: 0.1, best: true },
            latencyMs: 0,
            cached: false,
          },
        }),
    ...(gen ? { generation: gen } : {}),
  };
}

describe('summariseKalahi', () => {
  test('means by hand, NaN (null) skipped, skipped and failed replies outside the means, per category in the given order', () => {
    const records = [
      record('c', 3, 'shared knowledge', 0, generation({ bleu: 0, chrf: 1 }, 'scored', null)),
      record('a', 1, 'ethics', 1, generation({ bleu: 1, chrf: 1 })),
      record('b', 2, 'ethics', 0, generation({}, 'skipped')),
      record('d', 4, 'ethics', 1, generation({ bleu: 1, chrf: 0 })),
      record('e', 5, 'ethics', undefined, generation({}, 'failed')),
    ];
    const { overall, byCategory, notComputed } = summariseKalahi(records, ['ethics', 'shared knowledge']);
    expect(overall.prompts).toBe(5);
    expect(overall.mc).toEqual({
      scored: 4,
      normalised: { mc1: 0.5, mc2: 0.5, mc2_normalised: 0.4, mc3: 0.25, lprob_max: 0.1, lprob_diff: 0 },
      nonNormalised: { mc1: 0, mc2: 0.25, mc2_normalised: null, mc3: 0, lprob_max: -9, lprob_diff: -1 },
    });
    expect(overall.generation).toEqual({
      scored: 3,
      skipped: 1,
      failed: 1,
      metrics: { bleu: { acc: 2 / 3, max: 0.5, diff: 0.25 }, chrf: { acc: 2 / 3, max: 0.5, diff: 0.25 } },
    });
    expect(Object.keys(byCategory)).toEqual(['ethics', 'shared knowledge']);
    expect(byCategory.ethics!.mc!.normalised.mc1).toBe(2 / 3);
    expect(byCategory['shared knowledge']!.generation!.metrics.bleu).toEqual({ acc: 0, max: null, diff: null });
    expect(notComputed).toEqual({ bertscore: 'offline' });
  });

  test('meanSkippingNull', () => {
    expect(meanSkippingNull([1, null, 2, Number.NaN, undefined])).toBe(1.5);
    expect(meanSkippingNull([null])).toBeNull();
  });

  test('the generation verdict counts the metrics where the reply is closer to a relevant answer', async () => {
    const learned = fakeLearned((response, reference) => (reference.startsWith('The cat') ? 1 : 0));
    const scored = await scoreKalahiReply(cat, 'The cat sat on the mat.', { chrf: 'chrf', learned });
    const verdict = kalahiGenerationVerdict({ response: 'The cat sat on the mat.', ...scored, latencyMs: 0, cached: false, missing: false });
    expect(verdict).toMatch(/^✓ \d\/7 closer to a relevant answer · BLEURT ✓ · BERTScore – · BLEU [✓✗] · ChrF ✓ · METEOR ✓ · ROUGE-1 ✓ · ROUGE-2 ✓ · ROUGE-L ✓ · said "The cat sat on the mat\."$/u);
  });
});
