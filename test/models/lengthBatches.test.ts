// Cutting sequences into forward passes: costs worked out by hand (Σ rows × longest + 16 per pass).
import { describe, expect, test } from 'vitest';
import { lengthBatches } from '../../src/models/lengthBatches.ts';

const cut = (lengths: number[], options: Partial<Parameters<typeof lengthBatches>[2]> = {}) =>
  lengthBatches(
    lengths.map((length, i) => ({ i, length })),
    (x) => x.length,
    { batchSize: 8, maxBatchLogits: 1e9, vocab: 1, ...options },
  ).map((batch) => batch.map((x) => x.i));

describe('lengthBatches', () => {
  test('a long sequence goes alone when padding the short ones to it costs more than a pass', () => {
    // together: 4 × 10 + 16 = 56; [1,1,1] + [10]: (3 + 16) + (10 + 16) = 45
    expect(cut([1, 10, 1, 1])).toEqual([[0, 2, 3], [1]]);
  });

  test('close lengths share a pass', () => {
    // together: 2 × 6 + 16 = 28; apart: 5 + 16 + 6 + 16 = 43
    expect(cut([6, 5])).toEqual([[1, 0]]);
  });

  test('batchSize and the logits budget bound a pass', () => {
    expect(cut([3, 3, 3], { batchSize: 1 })).toEqual([[0], [1], [2]]);
    // 2 rows × 4 × vocab 10 = 80 logits > 79: apart; a single row may exceed the budget
    expect(cut([4, 4], { vocab: 10, maxBatchLogits: 79 })).toEqual([[0], [1]]);
    expect(cut([4, 4], { vocab: 10, maxBatchLogits: 80 })).toEqual([[0, 1]]);
    expect(cut([100], { vocab: 10, maxBatchLogits: 1 })).toEqual([[0]]);
  });

  test('last logits only: the logits budget bounds rows, maxBatchTokens rows × longest', () => {
    // 3 rows × vocab 10 = 30 logits whatever their length (per position it would be 3 × 40 × 10 = 1,200)
    expect(cut([40, 40, 40], { vocab: 10, maxBatchLogits: 30, lastLogitsOnly: true })).toEqual([[0, 1, 2]]);
    expect(cut([40, 40, 40], { vocab: 10, maxBatchLogits: 29, lastLogitsOnly: true })).toEqual([[0, 1], [2]]);
    // 2 × 40 = 80 positions fit 80, not 79; a single row may exceed it
    expect(cut([40, 40], { maxBatchTokens: 80, lastLogitsOnly: true })).toEqual([[0, 1]]);
    expect(cut([40, 40], { maxBatchTokens: 79, lastLogitsOnly: true })).toEqual([[0], [1]]);
    expect(cut([500], { maxBatchTokens: 10, lastLogitsOnly: true })).toEqual([[0]]);
  });

  test('equal lengths keep the caller order; nothing in, nothing out', () => {
    expect(cut([2, 2, 2, 2])).toEqual([[0, 1, 2, 3]]);
    expect(cut([])).toEqual([]);
  });
});
