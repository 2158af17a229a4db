// A request's prompt as a transformers.js tokenizer feeds it to the model — a plain prompt encoded with the tokenizer's
// special tokens, chat messages through its chat template (generation prompt added) encoded without them: the one rule
// TransformersProvider runs and `lokal plan` counts prompt tokens by.
import type { ChatMessage } from './types.ts';

/** What of a transformers.js tokenizer the rule uses. */
export interface PromptTokenizer {
  encode(text: string, options?: { add_special_tokens?: boolean }): Array<number | bigint>;
  apply_chat_template(messages: ChatMessage[], options: Record<string, unknown>): unknown;
  chat_template: unknown;
}

/** The chat template rendered as text; its tokens are those of apply_chat_template(tokenize: true), which encodes this text without added special tokens. */
export function chatTemplateText(tokenizer: PromptTokenizer, messages: ChatMessage[], addGenerationPrompt: boolean): string {
  return tokenizer.apply_chat_template(messages, { add_generation_prompt: addGenerationPrompt, tokenize: false }) as string;
}

/** Token ids of prompt text: special tokens (a BOS) are added to a plain prompt, not to a rendered chat template (it has its own). */
export function promptTextIds(tokenizer: PromptTokenizer, text: string, fromMessages: boolean): number[] {
  return tokenizer.encode(text, { add_special_tokens: !fromMessages }).map(Number);
}

/**
 * The text a request is fed as (the chat template rendered for messages) and its token ids. `noChatTemplate` makes the
 * error for messages to a tokenizer without a chat template (each caller names its model or folder).
 */
export function requestPromptIds(
  tokenizer: PromptTokenizer,
  request: { prompt?: string; messages?: ChatMessage[] },
  noChatTemplate: () => Error,
): { text: string; ids: number[] } {
  if (request.messages === undefined) return { text: request.prompt ?? '', ids: promptTextIds(tokenizer, request.prompt ?? '', false) };
  if (!tokenizer.chat_template) throw noChatTemplate();
  const text = chatTemplateText(tokenizer, request.messages, true);
  return { text, ids: promptTextIds(tokenizer, text, true) };
}
