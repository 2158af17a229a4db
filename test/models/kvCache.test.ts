// Cutting and gathering key/value caches, on hand-made tensors whose every value names its own place.
import { Tensor } from '@huggingface/transformers';
import { describe, expect, test } from 'vitest';
import { cacheRow, commonPrefixLength, gatherPast, type PromptState } from '../../src/models/kvCache.ts';
import { logSoftmaxAt } from '../../src/models/logitRows.ts';

/** [batch, heads, length, dim] with value = 1000·b + 100·h + 10·position + d. */
function labelled(batch: number, heads: number, length: number, dim: number): Tensor {
  const data = new Float32Array(batch * heads * length * dim);
  for (let b = 0; b < batch; b++)
    for (let h = 0; h < heads; h++)
      for (let p = 0; p < length; p++) for (let d = 0; d < dim; d++) data[((b * heads + h) * length + p) * dim + d] = 1000 * b + 100 * h + 10 * p + d;
  return new Tensor('float32', data, [batch, heads, length, dim]);
}

describe('key/value caches', () => {
  test('cacheRow takes one row and its first positions, for every head', () => {
    const row = cacheRow({ 'past_key_values.0.key': labelled(2, 2, 3, 2) }, 1, 2)['past_key_values.0.key']!;
    expect(row.dims).toEqual([1, 2, 2, 2]);
    expect([...(row.data as Float32Array)]).toEqual([1000, 1001, 1010, 1011, 1100, 1101, 1110, 1111]);
  });

  test('gatherPast right-aligns each prompt in the longest one, zeros before', () => {
    const state = (length: number, b: number): PromptState => ({
      length,
      last: new Float32Array(0),
      cache: cacheRow({ k: labelled(2, 1, 3, 1) }, b, length),
    });
    const gathered = gatherPast([state(1, 0), state(3, 1)]);
    expect(gathered.width).toBe(3);
    expect(gathered.lengths).toEqual([1, 3]);
    expect(gathered.cache.k!.dims).toEqual([2, 1, 3, 1]);
    expect([...(gathered.cache.k!.data as Float32Array)]).toEqual([0, 0, 0, 1000, 1010, 1020]);
  });

  test('commonPrefixLength', () => {
    expect(commonPrefixLength([[1, 2, 3], [1, 2, 4], [1, 2]])).toBe(2);
    expect(commonPrefixLength([[5], [6]])).toBe(0);
    expect(commonPrefixLength([])).toBe(0);
  });

  test('logSoftmaxAt: logits [0, ln 3] are probabilities 1/4 and 3/4; a shift changes nothing', () => {
    expect(logSoftmaxAt(Float32Array.of(0, Math.log(3)), 0)).toBeCloseTo(Math.log(1 / 4), 7);
    expect(logSoftmaxAt(Float32Array.of(0, Math.log(3)), 1)).toBeCloseTo(Math.log(3 / 4), 7);
    // huge logits would overflow exp without the maximum subtracted
    expect(logSoftmaxAt(Float32Array.of(1000, 1000), 1)).toBeCloseTo(Math.log(1 / 2), 12);
  });
});
