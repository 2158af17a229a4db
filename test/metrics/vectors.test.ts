// Every verified vector of metric-vectors.json (test/fixtures copy of the shared reference vectors) for the metrics this folder implements
// (multiloko.*, sacrebleu.*, difflib.*): bit-exact, except sacrebleu BLEU within 1e-12 (docs/metrics.md#exactness).
import { describe, expect, test } from 'vitest';
import {
  bleuTokens, chrfScore, chrfWordTokens, editDistance, editSimilarity, exactMatch, normalizeAnswer, scoreExample,
  sentenceBleu, tokenF1, tokenize13a, type ExampleScores,
} from '../../src/metrics/index.ts';
import { VECTORS_FILE, vectors as vectorsOf, type MetricVector as Vector } from '../fixtures/vectors.ts';

const OURS = ['multiloko', 'sacrebleu', 'difflib'];
const vectors: Vector[] = OURS.flatMap((family) => vectorsOf(family));

/** What our implementation gives for one vector, and whether it is compared within the BLEU tolerance. */
function evaluate(v: Vector): { got: number | string; tolerance: number } {
  const h = v.hypothesis;
  const r = v.references;
  switch (v.metric) {
    case 'sacrebleu.sentence_chrf': {
      const wordOrder = v.variant.startsWith('chrF++') ? 2 : 0;
      const epsSmoothing = v.variant.includes('eps_smoothing=True');
      return { got: chrfScore(h, r, { wordOrder, epsSmoothing }), tolerance: 0 };
    }
    case 'sacrebleu.chrf_word_split':
      return { got: chrfWordTokens(h).join(' '), tolerance: 0 };
    case 'sacrebleu.sentence_bleu':
      return { got: sentenceBleu(h, r, { effectiveOrder: !v.variant.includes('use_effective_order=False') }), tolerance: 1e-12 };
    case 'sacrebleu.tokenize_13a':
      return { got: tokenize13a(h), tolerance: 0 };
    case 'sacrebleu.bleu_preprocess':
      return { got: bleuTokens(h).join(' '), tolerance: 0 };
    case 'multiloko.normalize_answer':
      return { got: normalizeAnswer(h), tolerance: 0 };
    case 'multiloko.em':
      return { got: exactMatch(h, r), tolerance: 0 };
    case 'multiloko.f1':
      return { got: tokenF1(h, r), tolerance: 0 };
    case 'multiloko.edit_distance':
      return { got: Math.min(...r.map((t) => editDistance(h, t))), tolerance: 0 };
    case 'multiloko.edit_similarity':
      return { got: Math.max(...r.map((t) => editSimilarity(h, t))), tolerance: 0 };
    case 'multiloko.pipeline': {
      const metric = v.variant as Exclude<keyof ExampleScores, 'f1_words'>;
      return { got: scoreExample(h, r).scores[metric], tolerance: metric === 'bleu' ? 1e-12 : 0 };
    }
    case 'difflib.ratio':
      return { got: editSimilarity(h, r[0]!, { autojunk: !v.variant.includes('autojunk=False') }), tolerance: 0 };
    default:
      throw new Error(`metric-vectors.json: no implementation mapped for ${v.metric} (${v.variant})`);
  }
}

describe(`metric vectors of ${VECTORS_FILE}`, () => {
  test('the file holds vectors of every family this folder implements', () => {
    const families = new Set(vectors.map((v) => v.metric));
    for (const m of ['sacrebleu.sentence_chrf', 'sacrebleu.sentence_bleu', 'sacrebleu.tokenize_13a', 'multiloko.normalize_answer',
      'multiloko.f1', 'multiloko.em', 'multiloko.edit_distance', 'multiloko.edit_similarity', 'multiloko.pipeline', 'difflib.ratio']) {
      expect(families, m).toContain(m);
    }
  });

  test.each(vectors.map((v, i) => [i, v.metric, v.variant, JSON.stringify(v.hypothesis).slice(0, 40), v] as const))(
    '#%i %s [%s] %s',
    (_i, _metric, _variant, _hyp, v) => {
      const { got, tolerance } = evaluate(v);
      if (tolerance > 0) {
        expect(typeof got).toBe('number');
        expect(Math.abs((got as number) - (v.expected as number))).toBeLessThanOrEqual(tolerance);
      } else {
        expect(got).toBe(v.expected);
      }
    },
  );
});
