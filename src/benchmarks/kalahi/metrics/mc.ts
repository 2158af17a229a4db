// Kalahi multiple-choice metrics from per-answer scores (docs/metrics.md#mc1-mc2-mc3, aisingapore/kalahi metrics.py @2beb3ef).
import { utf8ByteLength } from '../../../core/python/codePoints.ts';

export interface KalahiMCResult {
  /** 1 when the best answer's score is strictly greater than every irrelevant score, else 0. */
  mc1: number;
  /** The reference's MC2: Σ_R exp(s_r)/D, D = Σ_R exp(s) + Σ_I exp(s) — exp of already exponentiated scores. */
  mc2: number;
  /** The single-exponent MC2 the paper's prose describes: Σ s_R / (Σ s_R + Σ s_I). */
  mc2Normalised: number;
  /** Share of relevant scores strictly greater than every irrelevant score. */
  mc3: number;
  /** max over relevant scores (`lprob max`). */
  lprobMax: number;
  /** max relevant − max irrelevant (`lprob diff`). */
  lprobDiff: number;
}

export class KalahiMCError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KalahiMCError';
  }
}

function maxOf(values: readonly number[]): number {
  // Python max(): the first of equal values; NaN never replaces a number once one is held (comparisons are false).
  let best = values[0]!;
  for (let i = 1; i < values.length; i++) if (values[i]! > best) best = values[i]!;
  return best;
}

function foldSum(values: readonly number[]): number {
  let s = 0;
  for (const v of values) s += v;
  return s;
}

/**
 * MC1/MC2/MC3 for one prompt. Pass byte-normalised scores for the published columns; pass the raw
 * log-probability sums L for the "non norm" columns (then `mc2` is Σ exp(L_r)/D, possibly NaN from 0/0,
 * and `mc2Normalised` has no meaning).
 */
export function kalahiMC(
  relevantScores: readonly number[],
  irrelevantScores: readonly number[],
  bestIndex: number,
): KalahiMCResult {
  if (relevantScores.length === 0) throw new KalahiMCError('kalahiMC: no relevant scores');
  if (irrelevantScores.length === 0) throw new KalahiMCError('kalahiMC: no irrelevant scores');
  if (!Number.isInteger(bestIndex) || bestIndex < 0 || bestIndex >= relevantScores.length) {
    throw new KalahiMCError(`kalahiMC: best index ${bestIndex} is not an index of the ${relevantScores.length} relevant scores`);
  }
  const maxIrrelevant = maxOf(irrelevantScores);
  const maxRelevant = maxOf(relevantScores);
  const mc1 = relevantScores[bestIndex]! > maxIrrelevant ? 1.0 : 0.0;
  let above = 0;
  for (const s of relevantScores) if (s > maxIrrelevant) above++;
  const mc3 = above / relevantScores.length;

  // numpy: probs = exp(scores); probs_true / (sum(probs_true) + sum(probs_false)); then sum() — plain folds.
  const expRelevant = relevantScores.map((s) => Math.exp(s));
  const expIrrelevant = irrelevantScores.map((s) => Math.exp(s));
  const denominator = foldSum(expRelevant) + foldSum(expIrrelevant);
  const mc2 = foldSum(expRelevant.map((e) => e / denominator));

  const sumRelevant = foldSum(relevantScores);
  const mc2Normalised = sumRelevant / (sumRelevant + foldSum(irrelevantScores));

  return { mc1, mc2, mc2Normalised, mc3, lprobMax: maxRelevant, lprobDiff: maxRelevant - maxIrrelevant };
}

/** Per-answer score: exp(L / UTF-8 byte length of the formatted reference) (docs/metrics.md#per-answer-score). */
export function byteNormalisedScore(logprob: number, reference: string): number {
  const bytes = utf8ByteLength(reference);
  if (bytes === 0) throw new KalahiMCError('byteNormalisedScore: the reference is empty (0 bytes)');
  return Math.exp(logprob / bytes);
}
