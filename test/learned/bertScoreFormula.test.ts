import { describe, expect, test } from 'vitest';
import { bertScoreFromEmbeddings, bertScoreWeights } from '../../src/metrics/bertScore.ts';

// Hand-made 2-d embeddings. Candidate: [CLS] a b [SEP]; reference: [CLS] x [SEP]. Unit vectors after normalisation:
//   c0 [CLS] (-1,0)    c1 (3,4)/5 = (0.6,0.8)    c2 (0,2)/2 = (0,1)    c3 [SEP] (1,1)/√2
//   r0 [CLS] (1,0)     r1 (4,3)/5 = (0.8,0.6)    r2 [SEP] (0,-3)/3 = (0,-1)
// Cosines of the content tokens:
//   c1: r0 0.6, r1 0.48+0.48 = 0.96, r2 -0.8                     -> best 0.96
//   c2: r0 0,   r1 0.6,              r2 -1                       -> best 0.6
//   r1: c0 -0.8, c1 0.96, c2 0.6, c3 (0.8+0.6)/√2 = 0.7·√2 ≈ 0.98995 -> best 0.7·√2 (the candidate's [SEP]: special
//       tokens take part in the matching, only their own weight is 0)
const candidate = { vectors: [[-1, 0], [3, 4], [0, 2], [1, 1]], weights: [0, 1, 1, 0] };
const reference = { vectors: [[1, 0], [4, 3], [0, -3]], weights: [0, 1, 0] };
const close = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThan(1e-12);

describe('bertScoreFromEmbeddings (greedy cosine matching)', () => {
  test('precision, recall and F1 of the hand-made pair', () => {
    const r = bertScoreFromEmbeddings(candidate, reference);
    const P = (0.96 + 0.6) / 2; // 0.78
    const R = 0.7 * Math.SQRT2;
    close(r.precision, P);
    close(r.recall, R);
    close(r.f1, (2 * P * R) / (P + R));
  });

  test('weights are normalised to sum 1 (P = (2·0.96 + 1·0.6)/3 = 0.84)', () => {
    const r = bertScoreFromEmbeddings({ ...candidate, weights: [0, 2, 1, 0] }, reference);
    close(r.precision, 0.84);
    close(r.recall, 0.7 * Math.SQRT2);
  });

  test('swapping candidate and reference swaps precision and recall', () => {
    const a = bertScoreFromEmbeddings(candidate, reference);
    const b = bertScoreFromEmbeddings(reference, candidate);
    close(b.precision, a.recall);
    close(b.recall, a.precision);
    close(b.f1, a.f1);
  });

  test('a sentence of exactly two tokens ([CLS] [SEP], an empty text) scores 0, as bert_score', () => {
    const empty = { vectors: [[1, 0], [0, 1]], weights: [0, 0] };
    expect(bertScoreFromEmbeddings(empty, reference)).toEqual({ precision: 0, recall: 0, f1: 0 });
    expect(bertScoreFromEmbeddings(candidate, empty)).toEqual({ precision: 0, recall: 0, f1: 0 });
  });

  test('negative best matches stay negative (one pair, no padding to clip them at 0)', () => {
    // one token each, opposite directions: cosine -1, so P = R = -1 and F = 2·1/(-2) = -1
    const r = bertScoreFromEmbeddings({ vectors: [[2, 0]], weights: [1] }, { vectors: [[-5, 0]], weights: [1] });
    expect(r).toEqual({ precision: -1, recall: -1, f1: -1 });
  });

  test('P + R = 0 gives F = 0 instead of NaN', () => {
    // orthogonal single tokens: cosine 0, P = R = 0, 0/0 -> 0
    expect(bertScoreFromEmbeddings({ vectors: [[1, 0]], weights: [1] }, { vectors: [[0, 1]], weights: [1] })).toEqual({ precision: 0, recall: 0, f1: 0 });
  });

  test('identical sentences score 1', () => {
    const r = bertScoreFromEmbeddings(candidate, candidate);
    close(r.precision, 1);
    close(r.recall, 1);
    close(r.f1, 1);
  });

  test('malformed inputs are rejected', () => {
    expect(() => bertScoreFromEmbeddings({ vectors: [[1, 0]], weights: [1, 1] }, reference)).toThrow(/1 token vectors but 2 weights/);
    expect(() => bertScoreFromEmbeddings({ vectors: [[1, 0, 0]], weights: [1] }, reference)).toThrow(/different sizes/);
    expect(() => bertScoreFromEmbeddings({ vectors: [], weights: [] }, reference)).toThrow(/at least one token/);
  });
});

describe('bertScoreWeights (idf off)', () => {
  test('0 for the cls/sep ids wherever they occur, 1 for every other id', () => {
    expect(bertScoreWeights([2, 17, 3, 2, 9], [2, 3])).toEqual([0, 1, 0, 0, 1]);
    expect(bertScoreWeights([], [2, 3])).toEqual([]);
  });
});
