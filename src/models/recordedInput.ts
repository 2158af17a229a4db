// What an item's record keeps of the prompt its model saw (LOKAL_RECORD_PROMPTS): the text or messages as fed, their
// SHA-256, or nothing — so a result can be reproduced (text) or audited against a prompt kept elsewhere (hash).
import { createHash } from 'node:crypto';
import type { ModelInput } from './types.ts';

export type RecordPrompts = 'text' | 'hash' | 'off';

/** The prompt as recorded: as fed (text mode) or its digest (hash mode). */
export type RecordedInput = ModelInput | { sha256: string };

/**
 * The serialisation that is hashed: compact JSON `{"text":"…"}` or `{"messages":[{"role":"…","content":"…"},…]}`, keys
 * in that order, no spaces, non-ASCII characters as themselves (JSON.stringify; in Python
 * `json.dumps(obj, ensure_ascii=False, separators=(",", ":"))`), encoded as UTF-8.
 */
export function canonicalModelInput(input: ModelInput): string {
  if ('text' in input) return JSON.stringify({ text: input.text });
  return JSON.stringify({ messages: input.messages.map((m) => ({ role: m.role, content: m.content })) });
}

/** SHA-256 of the canonical serialisation, lower-case hex. */
export function modelInputSha256(input: ModelInput): string {
  return createHash('sha256').update(canonicalModelInput(input), 'utf8').digest('hex');
}

/** What the record keeps (default `text`); null when nothing was fed (replay) or recording is off. */
export function recordedInput(input: ModelInput | undefined, mode: RecordPrompts = 'text'): RecordedInput | null {
  if (input === undefined || mode === 'off') return null;
  return mode === 'hash' ? { sha256: modelInputSha256(input) } : input;
}

/** A token count as recorded: null when the provider does not know it. */
export function recordedCount(count: number | null | undefined): number | null {
  return count ?? null;
}
