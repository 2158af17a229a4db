// The llama: provider's sequence pool: a request gets the free sequence holding the longest prefix of its prompt, a
// freed sequence goes to the waiting request sharing the most with it, and reuse erases only past the shared prefix.
import { describe, expect, test } from 'vitest';
import { SequencePool, type PooledSequence } from '../../src/models/sequencePool.ts';

/** A sequence holding `tokens`, recording what was erased. */
class FakeSequence implements PooledSequence {
  erased: Array<{ start: number; end: number }> = [];
  constructor(
    readonly name: string,
    public tokens: number[],
  ) {}
  get nextTokenIndex() {
    return this.tokens.length;
  }
  compareContextTokens(ids: number[]) {
    let i = 0;
    while (i < this.tokens.length && this.tokens[i] === ids[i]) i++;
    return { firstDifferentIndex: i };
  }
  async eraseContextTokenRanges(ranges: Array<{ start: number; end: number }>) {
    this.erased.push(...ranges);
    this.tokens = this.tokens.slice(0, ranges[0]!.start);
  }
}

describe('SequencePool', () => {
  test('acquire takes the free sequence sharing the longest prefix (the first on ties)', async () => {
    const a = new FakeSequence('a', [1, 2, 9]);
    const b = new FakeSequence('b', [1, 2, 3, 4]);
    const c = new FakeSequence('c', []);
    const pool = new SequencePool([a, b, c]);
    expect((await pool.acquire([1, 2, 3, 5])).name).toBe('b');
    expect((await pool.acquire([7])).name).toBe('a');
    expect((await pool.acquire([1])).name).toBe('c');
  });

  test('a freed sequence goes to the waiting request that shares the most with it, else the earliest', async () => {
    const a = new FakeSequence('a', [5, 6, 7]);
    const pool = new SequencePool([a]);
    const held = await pool.acquire([5]);
    const order: string[] = [];
    const first = pool.acquire([1, 2]).then((s) => (order.push('first'), s));
    const sharing = pool.acquire([5, 6, 0]).then((s) => (order.push('sharing'), s));
    pool.release(held);
    pool.release(await sharing);
    await first;
    expect(order).toEqual(['sharing', 'first']);
  });

  test('reuse keeps the shared prefix up to the limit and erases the rest', async () => {
    const s = new FakeSequence('s', [1, 2, 3, 4, 5]);
    expect(await SequencePool.reuse(s, [1, 2, 3, 9], 3)).toBe(3);
    expect(s.erased).toEqual([{ start: 3, end: 5 }]);
    // the whole prompt held: one token is kept back, its logits are needed again
    const t = new FakeSequence('t', [1, 2, 3]);
    expect(await SequencePool.reuse(t, [1, 2, 3], 2)).toBe(2);
    expect(t.tokens).toEqual([1, 2]);
    // nothing kept when reuse is off
    const u = new FakeSequence('u', [1, 2]);
    expect(await SequencePool.reuse(u, [1, 2, 3], 0)).toBe(0);
    expect(u.tokens).toEqual([]);
  });
});
