// Trial seeds against `sha256sum` run by hand on the same JSON text (first 8 hex digits read as an unsigned integer),
// and the properties the cache and providers rely on: distinct per trial and item, integers in 32 bits.
import { describe, expect, test } from 'vitest';
import { trialSeed } from '../../src/core/trialSeed.ts';

describe('trialSeed', () => {
  test('equals the first 4 bytes of SHA-256 of [base, id, trial], as sha256sum gives them', () => {
    // printf '%s' '[42,"item-1",0]' | sha256sum → 0946da47…, 0x0946da47 = 155638343; and so on.
    expect(trialSeed(42, 'item-1', 0)).toBe(155638343);
    expect(trialSeed(42, 'item-1', 1)).toBe(4238178839);
    expect(trialSeed(43, 'item-1', 0)).toBe(303709569);
    expect(trialSeed(42, 'item-10', 0)).toBe(3128704389);
    // UTF-8 ids and a negative base seed: '[-7,"fil/ñ-3",999]' → 1e52a366.
    expect(trialSeed(-7, 'fil/ñ-3', 999)).toBe(508732262);
  });

  test('a thousand trials of an item get a thousand distinct 32-bit seeds', () => {
    const seeds = Array.from({ length: 1000 }, (_, t) => trialSeed(0, 'q', t));
    expect(new Set(seeds).size).toBe(1000);
    expect(seeds.every((s) => Number.isInteger(s) && s >= 0 && s < 2 ** 32)).toBe(true);
  });

  test('rejects a base seed that is not a safe integer and a negative or fractional trial', () => {
    expect(() => trialSeed(1.5, 'q', 0)).toThrow(/base seed must be a safe integer \(got 1.5\)/u);
    expect(() => trialSeed(2 ** 53, 'q', 0)).toThrow(/safe integer/u);
    expect(() => trialSeed(1, 'q', -1)).toThrow(/trial index must be an integer ≥ 0/u);
    expect(() => trialSeed(1, 'q', 0.5)).toThrow(/trial index/u);
  });
});
