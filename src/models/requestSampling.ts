// Sampled decoding of one request for the local providers (`transformers:`, `llama:`): the request's temperature,
// top-p and seed checked once, and for transformers: a token picker with its own seeded generator, so a request's
// draws never depend on what else is decoded with it (docs/trials.md).
import { randomInt } from 'node:crypto';
import { sampleToken } from '../core/sampleToken.ts';
import { seededUniform } from '../core/statistics/bootstrap.ts';
import { ProviderError, type GenerateRequest } from './types.ts';

/** What a sampled request decodes with; top-p 1 keeps every token, the seed is the trial's (or drawn, when none). */
interface RequestSampling {
  temperature: number;
  topP: number;
  seed: number;
  /** False when the request named no seed and one was drawn at random: its answer cannot be asked again. */
  seeded: boolean;
}

/** Seeds mulberry32 and llama.cpp's sampler take alike: an unsigned 32-bit integer (what trialSeed gives). */
const MAX_SEED = 2 ** 32 - 1;

/** The request's sampling, or undefined for greedy decoding (temperature unset or 0: top-p and seed do not matter). */
export function requestSampling(provider: string, req: GenerateRequest, where: string): RequestSampling | undefined {
  const { temperature, topP, seed } = req;
  if (temperature !== undefined && !(Number.isFinite(temperature) && temperature >= 0))
    throw new ProviderError(provider, 'config', `${where}: temperature must be a number ≥ 0 (got ${temperature})`);
  if (topP !== undefined && !(topP > 0 && topP <= 1)) throw new ProviderError(provider, 'config', `${where}: top-p must be above 0 and at most 1 (got ${topP})`);
  if (seed !== undefined && !(Number.isInteger(seed) && seed >= 0 && seed <= MAX_SEED))
    throw new ProviderError(provider, 'config', `${where}: seed must be an integer from 0 to ${MAX_SEED} (got ${seed})`);
  if (!temperature) return undefined;
  // No seed (LOKAL_SEED unset): a fresh one, as an unseeded server samples; the answer is then not reproducible.
  return { temperature, topP: topP ?? 1, seed: seed ?? randomInt(MAX_SEED + 1), seeded: seed !== undefined };
}

/**
 * The next token of one sampled request, from its processed last-position logits: sampleToken with this request's
 * own mulberry32 stream (one draw per step with more than one candidate), created here and used by no other request.
 */
export function tokenPicker(sampling: RequestSampling): (logits: Float32Array) => number {
  const uniform = seededUniform(sampling.seed);
  const settings = { temperature: sampling.temperature, topP: sampling.topP };
  return (logits) => sampleToken(logits, settings, uniform);
}
