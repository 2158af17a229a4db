// A seeded shuffle of n positions: the Fisher–Yates shuffle (Durstenfeld's in-place form) driven by mulberry32, so
// the same seed gives the same order on every machine (docs/kalahi-trials.md shows it step by step).
import { seededUniform } from './bootstrap.ts';

/**
 * The order [0, 1, …, n − 1] shuffled: for i from n − 1 down to 1, one draw u of mulberry32(seed), j = ⌊u · (i + 1)⌋,
 * then positions i and j swap. Every one of the n! orders is equally likely (up to the generator's 2⁻³² resolution).
 */
export function seededPermutation(n: number, seed: number): number[] {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`seededPermutation: n must be an integer ≥ 0 (got ${n})`);
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seededPermutation: the seed must be a safe integer (got ${seed})`);
  const order = Array.from({ length: n }, (_, i) => i);
  const uniform = seededUniform(seed);
  for (let i = n - 1; i >= 1; i--) {
    const j = Math.floor(uniform() * (i + 1));
    const swap = order[i]!;
    order[i] = order[j]!;
    order[j] = swap;
  }
  return order;
}
