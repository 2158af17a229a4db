// Turns a model's raw output into the answer that is scored (the caller keeps the raw output).
import { multilokoLanguagePrompts } from './multilokoPromptTable.ts';
import type { MultilokoPromptMode } from './renderMultilokoPrompt.ts';

export interface ExtractAnswerOptions {
  /** Language of the prompt (the question's language), as given to renderMultilokoPrompt. */
  language: string;
  mode: MultilokoPromptMode;
}

/**
 * The answer frame a chat template ends with and asks the model to use: the template's last line
 * when the template does not end with a newline (English "The answer is", Dutch "Het antwoord is",
 * Urdu "جواب ہے"); undefined for the 28 chat templates without such a frame.
 */
export function chatAnswerFrame(language: string): string | undefined {
  const template = multilokoLanguagePrompts(language).chatTemplate;
  if (template.endsWith('\n')) return undefined;
  const lastLine = template.slice(template.lastIndexOf('\n') + 1).trim();
  return lastLine === '' || /[{}%]/.test(lastLine) ? undefined : lastLine;
}

/**
 * Extracts the answer from a raw output, in this order:
 * 1. drop leading whitespace (so a reply that starts on a new line is not cut to nothing), then cut
 *    at the first line break (\n or \r) and trim;
 * 2. strip an echoed answer token of the language (`A:`, `R:`, `回答：`…), accepting `:`, `：` or `៖`
 *    with optional space before it as the token's colon;
 * 3. chat mode only: strip a leading answer frame where the chat template asks for one
 *    (see chatAnswerFrame; case-insensitive, must be followed by a space, colon or the end), with
 *    an optional colon after it, then an echoed answer token once more.
 * Pure: no state, no I/O. Scoring normalises the result further (lower-case, punctuation, articles).
 */
export function extractAnswer(raw: string, options: ExtractAnswerOptions): string {
  const { language, mode } = options;
  const prompts = multilokoLanguagePrompts(language);
  const start = raw.replace(/^\s+/u, '');
  const lineBreak = start.search(/[\r\n]/u);
  let answer = (lineBreak === -1 ? start : start.slice(0, lineBreak)).trim();
  const token = answerTokenPattern(prompts.answerToken);
  answer = answer.replace(token, '').trim();
  if (mode === 'chat') {
    const frame = chatAnswerFrame(language);
    if (frame !== undefined) {
      const framePattern = new RegExp(`^${escapeRegExp(frame)}(?=[\\s:：]|$)\\s*[:：]?`, 'iu');
      answer = answer.replace(framePattern, '').trim();
      answer = answer.replace(token, '').trim();
    }
  }
  return answer;
}

/** `^A\s*[:：៖]\s*` for the token `A:`; a token without a colon must be followed by a space or the end. */
function answerTokenPattern(token: string): RegExp {
  const stem = token.replace(/\s*[:：៖]$/u, '');
  if (stem === token) return new RegExp(`^${escapeRegExp(token)}(?=\\s|$)`, 'u');
  return new RegExp(`^${escapeRegExp(stem)}\\s*[:：៖]`, 'u');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
