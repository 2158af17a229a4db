// Kalahi's multiple choice for one prompt (docs/metrics.md#per-answer-score, #mc1-mc2-mc3): the model's log-probability of every formatted
// reference as its reply to the prompt (through the chat template, end-of-turn tokens included), byte-normalised,
// then MC1 / MC2 / MC2 (normalised) / MC3 from the normalised scores and the same from the raw sums.
import type { KalahiRow } from '../data/kalahi.ts';
import { byteNormalisedScore, kalahiMC, type KalahiMCResult } from '../metrics/mc.ts';
import { utf8ByteLength } from '../../../core/python/codePoints.ts';
import type { ChatMessage, ModelProvider } from '../../../models/types.ts';
import type { KalahiMCFigures, KalahiMCRecord, KalahiReferenceScore } from './records.ts';
import { finiteOrNull } from './reply.ts';
import { recordedCount, recordedInput, type RecordPrompts } from '../../../models/recordedInput.ts';
import { LETTER_MAX_NEW_TOKENS, letterMessages, letterOptions, parseLetter, type LetterOption } from '../prompts/letterChoice.ts';

/** The chat the reference builds: the prompt alone, as the user's turn (no system prompt). */
export function kalahiMessages(row: Pick<KalahiRow, 'prompt'>): ChatMessage[] {
  return [{ role: 'user', content: row.prompt }];
}

/** Relevant answers first, then irrelevant ones, each with its place in its list. */
export function kalahiReferences(row: Pick<KalahiRow, 'relevantAnswers' | 'irrelevantAnswers' | 'bestIndex'>): Array<Pick<KalahiReferenceScore, 'kind' | 'index' | 'text' | 'best'>> {
  return [
    ...row.relevantAnswers.map((text, index) => ({ kind: 'relevant' as const, index, text, best: index === row.bestIndex })),
    ...row.irrelevantAnswers.map((text, index) => ({ kind: 'irrelevant' as const, index, text, best: false })),
  ];
}

function figures(result: KalahiMCResult, normalised: boolean): KalahiMCFigures {
  return {
    mc1: result.mc1,
    mc2: finiteOrNull(result.mc2),
    mc2_normalised: normalised ? finiteOrNull(result.mc2Normalised) : null,
    mc3: result.mc3,
    lprob_max: result.lprobMax,
    lprob_diff: result.lprobDiff,
  };
}

/** MC figures of a prompt from its reference log-probabilities (pure: the tests feed it independent numbers). */
export function kalahiMCRecord(
  row: Pick<KalahiRow, 'promptVariationId' | 'relevantAnswers' | 'irrelevantAnswers' | 'bestIndex'>,
  scored: ReadonlyArray<{ logprob: number; tokenCount: number }>,
  timing: { latencyMs: number; cached: boolean } = { latencyMs: 0, cached: false },
): KalahiMCRecord {
  const refs = kalahiReferences(row);
  if (scored.length !== refs.length) throw new Error(`Kalahi ${row.promptVariationId}: ${scored.length} log-probabilities for ${refs.length} references`);
  if (row.irrelevantAnswers.length === 0) {
    throw new Error(`Kalahi ${row.promptVariationId}: no irrelevant answers, so MC1/MC2/MC3 are undefined (the reference raises on max() of an empty list)`);
  }
  const references: KalahiReferenceScore[] = refs.map((ref, i) => ({
    ...ref,
    logprob: scored[i]!.logprob,
    tokens: scored[i]!.tokenCount,
    bytes: utf8ByteLength(ref.text),
    score: byteNormalisedScore(scored[i]!.logprob, ref.text),
  }));
  const relevant = references.filter((r) => r.kind === 'relevant');
  const irrelevant = references.filter((r) => r.kind === 'irrelevant');
  const normalised = kalahiMC(relevant.map((r) => r.score), irrelevant.map((r) => r.score), row.bestIndex);
  const raw = kalahiMC(relevant.map((r) => r.logprob), irrelevant.map((r) => r.logprob), row.bestIndex);
  // First of equal maxima, relevant answers first (the order they were scored in).
  let top = references[0]!;
  for (const r of references) if (r.score > top.score) top = r;
  return {
    references,
    normalised: figures(normalised, true),
    nonNormalised: figures(raw, false),
    preferred: { kind: top.kind, index: top.index, text: top.text, score: top.score, best: top.best },
    latencyMs: timing.latencyMs,
    cached: timing.cached,
  };
}

/** Asks the model for every reference's log-probability (one batched call) and computes the prompt's MC figures. */
export async function measureKalahiMC(model: ModelProvider, row: KalahiRow, itemKey: string, recordPrompts: RecordPrompts = 'text'): Promise<KalahiMCRecord> {
  const messages = kalahiMessages(row);
  const refs = kalahiReferences(row);
  const results = await model.scoreContinuations(refs.map((ref) => ({ messages, continuation: ref.text, itemKey })));
  if (results.length !== refs.length) throw new Error(`${model.describe().provider}: ${results.length} log-probabilities for ${refs.length} references of ${itemKey}`);
  const latencyMs = results.reduce((sum, r) => sum + r.latencyMs, 0);
  const record = kalahiMCRecord(row, results, { latencyMs, cached: results.every((r) => r.cached) });
  // Every reference follows the same prompt: the first answer says what it was.
  record.modelInput = recordedInput(results[0]?.input, recordPrompts);
  record.promptTokens = recordedCount(results[0]?.promptTokens);
  // The references may be scored on different servers of a pool: each that answered, once.
  const servers = [...new Set(results.flatMap((r) => (r.server ?? '').split(',').filter((s) => s !== '')))];
  if (servers.length > 0) record.server = servers.join(',');
  return record;
}

/** MC1 of a lettered question (LOKAL_KALAHI_MC=letter): 1 when the reply names the best answer's letter; no ranking figures. */
export function kalahiLetterRecord(row: Pick<KalahiRow, 'promptVariationId' | 'relevantAnswers' | 'irrelevantAnswers' | 'bestIndex'>, options: readonly LetterOption[], response: string, timing: { latencyMs: number; cached: boolean }): KalahiMCRecord {
  const chosen = parseLetter(response);
  const answer = options.find((o) => o.best)!.letter;
  const picked = options.find((o) => o.letter === chosen);
  const mc1 = chosen === answer ? 1 : 0;
  const figures = { mc1, mc2: null, mc2_normalised: null, mc3: null, lprob_max: null, lprob_diff: null };
  return {
    references: [],
    normalised: figures,
    nonNormalised: { ...figures },
    preferred: picked ? { kind: picked.kind, index: picked.index, text: picked.text, score: null, best: picked.best } : null,
    letter: { options: [...options], answer, response, chosen },
    latencyMs: timing.latencyMs,
    cached: timing.cached,
  };
}

/** Asks the lettered question (SEA-HELM's prompt, 32 new tokens, greedy) and reads the letter from the reply. */
export async function measureKalahiLetter(model: ModelProvider, row: KalahiRow, itemKey: string, recordPrompts: RecordPrompts = 'text'): Promise<KalahiMCRecord> {
  const options = letterOptions(row);
  const [result] = await model.generate([{ messages: letterMessages(row, options), maxNewTokens: LETTER_MAX_NEW_TOKENS, itemKey }]);
  if (!result) throw new Error(`${model.describe().provider}: no reply for ${itemKey}`);
  const record = kalahiLetterRecord(row, options, result.text, { latencyMs: result.latencyMs, cached: result.cached });
  record.modelInput = recordedInput(result.input, recordPrompts);
  record.promptTokens = recordedCount(result.promptTokens);
  if (result.server !== undefined) record.server = result.server;
  return record;
}
