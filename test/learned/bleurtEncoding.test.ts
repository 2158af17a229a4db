import { describe, expect, test } from 'vitest';
import { encodeBleurtPair, truncateSeqPair } from '../../src/metrics/bleurt.ts';

describe('truncateSeqPair (BLEURT _truncate_seq_pair)', () => {
  test('pops from the end of the strictly longer side until the pair fits', () => {
    // 5 + 2 > 4: reference 5 > 2 -> 4; 4 + 2 > 4: 4 > 2 -> 3; 3 + 2 > 4: 3 > 2 -> 2; 2 + 2 fits
    expect(truncateSeqPair([1, 2, 3, 4, 5], [6, 7], 4)).toEqual({ reference: [1, 2], candidate: [6, 7] });
  });
  test('on equal lengths the candidate loses the token', () => {
    expect(truncateSeqPair([1, 2], [6, 7], 3)).toEqual({ reference: [1, 2], candidate: [6] });
    // then alternately: 2+2 -> 2+1 -> 1+1 -> 1+0
    expect(truncateSeqPair([1, 2], [6, 7], 1)).toEqual({ reference: [1], candidate: [] });
  });
  test('a pair that fits is unchanged, and the inputs are not modified', () => {
    const ref = [1, 2, 3];
    const cand = [4];
    expect(truncateSeqPair(ref, cand, 4)).toEqual({ reference: [1, 2, 3], candidate: [4] });
    truncateSeqPair(ref, cand, 0);
    expect(ref).toEqual([1, 2, 3]);
    expect(cand).toEqual([4]);
  });
});

describe('encodeBleurtPair', () => {
  test('[CLS] reference [SEP] candidate [SEP] with segment ids 0 then 1', () => {
    expect(encodeBleurtPair([10, 11], [20], { clsId: 2, sepId: 3, maxSeqLength: 512 })).toEqual({
      inputIds: [2, 10, 11, 3, 20, 3],
      tokenTypeIds: [0, 0, 0, 0, 1, 1],
    });
  });
  test('truncates the texts to maxSeqLength − 3 tokens', () => {
    // 3 + 2 > 3: reference 3 > 2 -> [10, 11]; 2 + 2 > 3: tie -> candidate [20]
    expect(encodeBleurtPair([10, 11, 12], [20, 21], { clsId: 2, sepId: 3, maxSeqLength: 6 })).toEqual({
      inputIds: [2, 10, 11, 3, 20, 3],
      tokenTypeIds: [0, 0, 0, 0, 1, 1],
    });
  });
  test('empty texts still get the three special tokens', () => {
    expect(encodeBleurtPair([], [], { clsId: 2, sepId: 3, maxSeqLength: 3 })).toEqual({ inputIds: [2, 3, 3], tokenTypeIds: [0, 0, 1] });
  });
  test('maxSeqLength below 3 is rejected', () => {
    expect(() => encodeBleurtPair([1], [2], { clsId: 2, sepId: 3, maxSeqLength: 2 })).toThrow(/at least 3/);
  });
});
