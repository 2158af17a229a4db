// Kalahi's open-ended task for one prompt: a greedy reply through the chat template within the token budget, decoded
// without special tokens and stripped (as the reference), scored against every relevant and irrelevant answer.
import type { KalahiRow } from '../data/kalahi.ts';
import { pythonStrip } from '../../../core/python/pythonWhitespace.ts';
import type { GenerateRequest, ModelProvider } from '../../../models/types.ts';
import { KALAHI_TOKEN_BUDGET } from './config.ts';
import type { LearnedScorers } from './learned.ts';
import { kalahiMessages } from './mcTask.ts';
import type { KalahiGenerationRecord } from './records.ts';
import { scoreKalahiReply } from './reply.ts';
import type { KalahiBudget, KalahiChrf } from '../settings.ts';
import { recordedCount, recordedInput, type RecordPrompts } from '../../../models/recordedInput.ts';

/** The generate request of a prompt: `maxLength` counts the prompt's tokens (the reference), `maxNewTokens` does not. */
export function kalahiGenerateRequest(row: Pick<KalahiRow, 'prompt'>, itemKey: string, budget: KalahiBudget): GenerateRequest {
  return {
    messages: kalahiMessages(row),
    ...(budget === 'max_length' ? { maxLength: KALAHI_TOKEN_BUDGET } : { maxNewTokens: KALAHI_TOKEN_BUDGET }),
    itemKey,
  };
}

export interface GenerationSettings {
  budget: KalahiBudget;
  chrf: KalahiChrf;
  learned: LearnedScorers;
  /** What the record keeps of the prompt (default text). */
  recordPrompts?: RecordPrompts;
}

export async function measureKalahiGeneration(model: ModelProvider, row: KalahiRow, itemKey: string, settings: GenerationSettings): Promise<KalahiGenerationRecord> {
  const [result] = await model.generate([kalahiGenerateRequest(row, itemKey, settings.budget)]);
  if (!result) throw new Error(`${model.describe().provider}: no reply for ${itemKey}`);
  const response = pythonStrip(result.text);
  const scored = await scoreKalahiReply(row, response, { chrf: settings.chrf, learned: settings.learned });
  return {
    response,
    ...scored,
    latencyMs: result.latencyMs,
    cached: result.cached,
    missing: (result as { missing?: boolean }).missing === true,
    modelInput: recordedInput(result.input, settings.recordPrompts),
    promptTokens: recordedCount(result.promptTokens),
    outputTokens: recordedCount(result.outputTokens),
    ...(result.server !== undefined ? { server: result.server } : {}),
  };
}
