// The pieces of batched generation that need no model: argmax ties, gathering cache views, shared runs, the prefix store.
import { describe, expect, test } from 'vitest';
import { argmax, MIN_SHARED_PREFIX, sharedRuns } from '../../src/models/batchedGeneration.ts';
import { gatherViews, type KvLayout, type KvView } from '../../src/models/kvCache.ts';
import { PrefixCache } from '../../src/models/prefixCache.ts';

/** A [batch, heads, length, 1] cache whose values name their place: 1000·b + 100·h + position. */
function view(batch: number, heads: number, length: number, row: number, start: number, count: number): KvView {
  const data = new Float32Array(batch * heads * length);
  for (let b = 0; b < batch; b++) for (let h = 0; h < heads; h++) for (let p = 0; p < length; p++) data[(b * heads + h) * length + p] = 1000 * b + 100 * h + p;
  return { cache: { k: { type: 'float32', data, dims: [batch, heads, length, 1] } }, row, start, length: count };
}
const layouts: KvLayout[] = [{ name: 'k', type: 'float32', heads: 2, dim: 1 }];
const seq = (n: number, from = 0) => Array.from({ length: n }, (_, i) => from + i);

describe('batched generation helpers', () => {
  test('argmax takes the first of equal maxima, as transformers.js does', () => {
    expect(argmax(Float32Array.of(1, 3, 3, 2))).toBe(1);
    expect(argmax(Float32Array.of(-5))).toBe(0);
    expect(argmax(Float32Array.of(-Infinity, -1e30, -1e30))).toBe(1);
  });

  test('gatherViews right-aligns each view (or its first positions) with zeros before it', () => {
    const a = view(2, 2, 5, 1, 1, 3); // row 1, positions 1..3
    const b = view(1, 2, 4, 0, 0, 4);
    const out = gatherViews([a, b, { cache: {}, row: 0, start: 0, length: 0 }], layouts, [3, 2, 0]);
    expect(out.width).toBe(3);
    expect(out.cache.k!.dims).toEqual([3, 2, 3, 1]);
    expect([...out.cache.k!.data]).toEqual([1001, 1002, 1003, 1101, 1102, 1103, 0, 0, 1, 0, 100, 101, 0, 0, 0, 0, 0, 0]);
    expect(() => gatherViews([b], layouts, [5])).toThrow(/view of 4 positions asked for 5/);
  });

  test('sharedRuns groups sequences sharing enough leading tokens, with the length all members share', () => {
    const head = seq(MIN_SHARED_PREFIX + 4);
    const sequences = [
      [...head, 1, 2],
      [7, 7, 7],
      [...head, 1, 3],
      [...head.slice(0, MIN_SHARED_PREFIX), 99],
      seq(MIN_SHARED_PREFIX - 1),
    ];
    expect(sharedRuns(sequences)).toEqual([{ members: [0, 2, 3], common: MIN_SHARED_PREFIX }]);
    expect(sharedRuns([[...head, 5], [...head, 6]])).toEqual([{ members: [0, 1], common: head.length }]);
    expect(sharedRuns([seq(5), seq(5)])).toEqual([]);
  });

  test('the prefix store finds the longest shared start, copies what it keeps, and evicts the least recently used', () => {
    const store = new PrefixCache(layouts, 10);
    const source = view(1, 2, 8, 0, 0, 8);
    const first = store.add(seq(6), source, 'prompt')!;
    expect(first.view.cache.k!.dims).toEqual([1, 2, 6, 1]);
    expect(first.view.cache.k!.data).not.toBe(source.cache.k!.data);
    expect(store.longest([0, 1, 2, 9])).toMatchObject({ entry: first, length: 3 });
    expect(store.longest([9])).toBeUndefined();
    expect(store.add(seq(6), source, 'shared')).toBe(first); // the same ids: refreshed, not stored twice
    expect(first.kind).toBe('shared');
    const second = store.add(seq(4, 50), source, 'prompt')!;
    expect(store.tokens).toBe(10);
    store.touch(first);
    store.add(seq(3, 80), source, 'prompt'); // over budget: the least recently used (second) goes
    expect(store.size).toBe(2);
    expect(store.longest(seq(4, 50))).toBeUndefined();
    expect(store.longest(seq(2))).toMatchObject({ entry: first, length: 2 });
    expect(second.tokens).toEqual(seq(4, 50));
    expect(store.add(seq(11), source, 'prompt')).toBeUndefined(); // larger than the whole budget
  });
});
