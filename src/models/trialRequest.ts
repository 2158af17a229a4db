// One trial's generate request: the item's request with the run's temperature, top-p and the trial's own seed
// (trialSeed of the base seed, the item id and the trial index), each only when set, and the trial index from 1 on.
import { trialSeed } from '../core/trialSeed.ts';
import type { GenerateRequest } from './types.ts';

/** The sampling settings a trial request carries (each optional: unset leaves today's request as it is). */
export interface TrialDecoding {
  temperature?: number;
  topP?: number;
  /** Base seed; trial t of item `itemId` sends trialSeed(seed, itemId, t) (docs/trials.md). */
  seed?: number;
}

/** Trial `trial` (0-based) of the item `itemId`: trial 0 with no decoding settings is `request` unchanged. */
export function trialRequest(request: GenerateRequest, decoding: TrialDecoding, itemId: string, trial: number): GenerateRequest {
  return {
    ...request,
    ...(decoding.temperature !== undefined ? { temperature: decoding.temperature } : {}),
    ...(decoding.topP !== undefined ? { topP: decoding.topP } : {}),
    ...(decoding.seed !== undefined ? { seed: trialSeed(decoding.seed, itemId, trial) } : {}),
    // Trial 0 keeps no index, so k = 1 asks, caches and replays exactly as a run without trials, and raising k reuses it.
    ...(trial > 0 ? { trial } : {}),
  };
}
