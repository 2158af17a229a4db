// The seed of one trial of one item, derived from the run's base seed: SHA-256 of the JSON array [base seed, item id,
// trial index], its first 4 bytes read as an unsigned big-endian integer — the same on every platform and Node version.
import { sha256 } from './sha256.ts';

/** A 32-bit unsigned seed (what mulberry32 and an OpenAI-compatible server's `seed` take) for trial `trial` (0-based) of `itemId`. */
export function trialSeed(baseSeed: number, itemId: string, trial: number): number {
  if (!Number.isSafeInteger(baseSeed)) throw new RangeError(`trialSeed: the base seed must be a safe integer (got ${baseSeed})`);
  if (!Number.isSafeInteger(trial) || trial < 0) throw new RangeError(`trialSeed: the trial index must be an integer ≥ 0 (got ${trial})`);
  // JSON keeps the three parts apart: no id and index can run together into another pair's text.
  return Number.parseInt(sha256(JSON.stringify([baseSeed, itemId, trial])).slice(0, 8), 16);
}
