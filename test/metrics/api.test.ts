// The public surface: argument errors where the reference raises, the max/min over targets, the labelled
// language-aware normaliser variant, and scoreExample's record.
import { describe, expect, test } from 'vitest';
import { MULTILOKO_METRICS, MetricsError, editDistance, exactMatch, normalizeAnswer, scoreExample, scoreNormalizedExample, sentenceBleu, tokenF1 } from '../../src/metrics/index.ts';
import { contentLanguage, normalizeAnswerForLanguage } from '../../src/benchmarks/multiloko/index.ts';

test('metric names in eval.py order', () => {
  expect(MULTILOKO_METRICS).toEqual(['em', 'f1', 'bleu', 'chrf', 'edit_distance', 'edit_similarity']);
});

describe('empty target lists raise (max()/min() of nothing in the reference)', () => {
  test.each([
    ['exactMatch', () => exactMatch('a', [])],
    ['tokenF1', () => tokenF1('a', [])],
    ['sentenceBleu', () => sentenceBleu('a', [])],
    ['scoreExample', () => scoreExample('a', [])],
    ['scoreNormalizedExample', () => scoreNormalizedExample('a', [])],
  ])('%s', (_name, call) => {
    expect(call).toThrow(MetricsError);
  });
  test('a plain string is not a target list', () => {
    expect(() => exactMatch('a', 'abc' as unknown as string[])).toThrow(/array of strings/);
    expect(() => normalizeAnswer(5 as unknown as string)).toThrow(TypeError);
  });
});

describe('per-example values over several targets', () => {
  test('F1 is the maximum over targets', () => {
    // target 'c': no overlap → 0; target 'a b c': same 2, P = 2/2, R = 2/3
    expect(tokenF1('a b', ['c', 'a b c'])).toBe((2 * 1 * (2 / 3)) / (1 + 2 / 3));
  });
  test('scoreExample: min distance over targets, distance to the first target, max similarity', () => {
    const { scores, targets } = scoreExample('Rome', ['Roma', 'Rome, Italy', 'rome']);
    expect(targets).toEqual(['roma', 'rome italy', 'rome']);
    expect(scores.edit_distance).toBe(0); // 'rome' is target 3
    expect(scores.edit_distance_first).toBe(1); // rome → roma: one substitution
    expect(scores.edit_similarity).toBe(1.0);
    expect(scores.em).toBe(1.0);
  });
  test('a custom normaliser replaces the official one', () => {
    const { prediction, targets } = scoreExample('A B', ['a b'], { normalize: (s) => s });
    expect([prediction, targets]).toEqual(['A B', ['a b']]);
    expect(editDistance(prediction, targets[0]!)).toBe(2);
  });
});

describe('language-aware normaliser (a variant, not the official normalisation)', () => {
  test('English articles go only from English text', () => {
    expect(normalizeAnswerForLanguage('Voy a la casa', 'spanish')).toBe('voy a la casa');
    expect(normalizeAnswer('Voy a la casa')).toBe('voy la casa');
    expect(normalizeAnswerForLanguage('The Beatles!', 'english')).toBe('beatles');
    expect(normalizeAnswerForLanguage('The Beatles!', 'italian_translated_human_english')).toBe('beatles');
    expect(normalizeAnswerForLanguage('The Beatles!', 'english_translated_machine_italian')).toBe('the beatles');
  });
  test('content language of a subset key', () => {
    expect(contentLanguage('italian')).toBe('italian');
    expect(contentLanguage('italian_translated_human_english')).toBe('english');
    expect(contentLanguage('english_translated_machine_simplified_mandarin')).toBe('simplified_mandarin');
  });
});
