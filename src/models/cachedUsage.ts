// What the response cache keeps of a result besides the answer: the prompt the model saw and its token counts, so a
// cached item records the same as the call that filled the cache. The prompt is stored only where it is not the request
// itself (a chat template rendered by a local model); entries written before these fields have none.
import { canonicalModelInput } from './recordedInput.ts';
import type { ChatMessage, ContinuationResult, GenerateResult, ModelInput } from './types.ts';

export interface StoredUsage {
  /** `'request'`: the request's own prompt or messages. */
  input?: ModelInput | 'request';
  promptTokens?: number | null;
  outputTokens?: number | null;
}

type Asked = { prompt?: string; messages?: ChatMessage[] };
type Usage = Pick<GenerateResult, 'input' | 'promptTokens' | 'outputTokens'>;

/** The result's usage fields as a cache entry stores them. */
export function storedUsage(req: Asked, result: GenerateResult | ContinuationResult): StoredUsage {
  const out: StoredUsage = {};
  const input = result.input;
  if (input) {
    const same = 'text' in input ? input.text === req.prompt : req.messages !== undefined && canonicalModelInput(input) === canonicalModelInput({ messages: req.messages });
    out.input = same ? 'request' : input;
  }
  if (result.promptTokens !== undefined) out.promptTokens = result.promptTokens;
  if ('outputTokens' in result && result.outputTokens !== undefined) out.outputTokens = result.outputTokens;
  return out;
}

/** A cache entry's usage as a result's fields again. */
export function restoredUsage(req: Asked, entry: StoredUsage): Usage {
  const out: Usage = {};
  if (entry.input === 'request') out.input = req.messages !== undefined ? { messages: req.messages } : { text: req.prompt! };
  else if (entry.input !== undefined) out.input = entry.input;
  if (entry.promptTokens !== undefined) out.promptTokens = entry.promptTokens;
  if (entry.outputTokens !== undefined) out.outputTokens = entry.outputTokens;
  return out;
}

const isCount = (v: unknown) => v === undefined || v === null || (typeof v === 'number' && Number.isInteger(v) && v >= 0);
const isInput = (v: unknown) =>
  v === undefined ||
  v === 'request' ||
  (!!v && typeof v === 'object' && (typeof (v as { text?: unknown }).text === 'string' || Array.isArray((v as { messages?: unknown }).messages)));

/** Whether a parsed cache line's usage fields (if any) have the shapes storedUsage writes. */
export function isStoredUsage(v: Record<string, unknown>): boolean {
  return isInput(v.input) && isCount(v.promptTokens) && isCount(v.outputTokens);
}
