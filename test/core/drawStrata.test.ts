// drawStrata is the stratified bootstrap's draw loop without a closure call per draw: it must give, call after call,
// exactly what Math.floor(seededUniform(seed)() * size) gives in the same order.
import { describe, expect, test } from 'vitest';
import { drawStrata, seededUniform } from '../../src/core/statistics/bootstrap.ts';

describe('drawStrata', () => {
  test.each([0, 1, 20261203, 2 ** 31 - 1, 2 ** 32 + 5, -7])('seed %d: the same indices as seededUniform, state carried between calls', (seed) => {
    const sizes = [3, 1, 250, 17, 0, 2];
    const uniform = seededUniform(seed);
    const state = Int32Array.of(seed | 0);
    const sample = new Int32Array(sizes.reduce((a, b) => a + b, 0));
    for (let call = 0; call < 5; call++) {
      const expected: number[] = [];
      for (const size of sizes) for (let i = 0; i < size; i++) expected.push(Math.floor(uniform() * size));
      drawStrata(state, sizes, sample);
      expect(Array.from(sample)).toEqual(expected);
    }
    // Every index lies in its stratum.
    let at = 0;
    for (const size of sizes) for (let i = 0; i < size; i++, at++) expect(sample[at]! >= 0 && sample[at]! < size).toBe(true);
  });
});
