// One model call for one item test: the answer with what the test's verdict and meta record (latency, cache, tokens).
import type { GenerateRequest, ModelProvider, ModelUsage } from './types.ts';

/** What one item test measured, for the verdict and the meta (with what the model saw and its token counts). */
export interface ItemAnswer extends ModelUsage {
  text: string;
  latencyMs: number;
  cached: boolean;
  missing: boolean;
}

/** Asks the model one request; provider errors propagate (the item test fails with them). */
export async function askModel(model: ModelProvider, request: GenerateRequest): Promise<ItemAnswer> {
  const [result] = await model.generate([request]);
  if (!result) throw new Error(`${model.describe().provider}: no answer for ${request.itemKey ?? 'the request'}`);
  return {
    text: result.text,
    latencyMs: result.latencyMs,
    cached: result.cached,
    missing: (result as { missing?: boolean }).missing === true,
    input: result.input,
    promptTokens: result.promptTokens,
    outputTokens: result.outputTokens,
    ...(result.server !== undefined ? { server: result.server } : {}),
  };
}
