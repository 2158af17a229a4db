// The request an item test sends: the official MultiLoKo prompt (base few-shot completion or chat message) in the
// questions' language, and the answer that is scored (extracted from the raw output, or the output as given).
import type { MultiLoKoSubset } from '../data/multiloko.ts';
import type { MultiLoKoQuestion } from '../data/schema.ts';
import type { GenerateRequest } from '../../../models/types.ts';
import { extractAnswer } from '../prompts/extractAnswer.ts';
import { renderMultilokoPrompt, type MultilokoFewshotChoice, type MultilokoFewshotUsed } from '../prompts/renderMultilokoPrompt.ts';
import type { MultiLoKoSettings } from '../settings.ts';
import type { PromptMode } from './promptChoice.ts';

export type ItemPrompt = Pick<GenerateRequest, 'prompt' | 'messages' | 'stop'>;
export { chooseFewshot, extractsAnswers, promptUse, resolvePromptMode, type PromptMode, type PromptTarget } from './promptChoice.ts';

export interface RenderedItemPrompt {
  request: ItemPrompt;
  fewshot: MultilokoFewshotUsed;
}

/**
 * The official prompt for one item in the subset's question language: base → the few-shot completion prompt with
 * stop strings (next question token, blank line); chat → one user message. Errors name the subset file and the item.
 */
export function renderItemPrompt(
  item: MultiLoKoQuestion,
  subset: Pick<MultiLoKoSubset, 'file' | 'questionLanguage'>,
  plan: { mode: PromptMode; fewshot: MultilokoFewshotChoice; shots: number },
): RenderedItemPrompt {
  if (item.question === undefined || item.question.trim() === '') {
    throw new Error(`${subset.file}: item ${JSON.stringify(item.id)} has no "question" to ask`);
  }
  let rendered;
  try {
    rendered = renderMultilokoPrompt({ language: subset.questionLanguage, item, mode: plan.mode, fewshot: plan.fewshot, numShot: plan.shots });
  } catch (error) {
    const fewshot = Array.isArray(plan.fewshot) ? ` (few-shot examples from ${subset.questionLanguage}/knowledge_fewshot.jsonl)` : '';
    throw new Error(`${subset.file}${fewshot}: ${(error as Error).message}`, { cause: error });
  }
  if (rendered.mode === 'base') return { request: { prompt: rendered.prompt, stop: rendered.stop }, fewshot: rendered.fewshot };
  return { request: { messages: [{ role: 'user', content: rendered.message }] }, fewshot: rendered.fewshot };
}

/**
 * The answer that is scored. Extraction uses the prompt's language and mode; replay answers (no prompt) are extracted
 * as chat replies unless LOKAL_PROMPT=base, since the chat rules (also strip "The answer is") cover the base ones.
 */
export function scoredAnswer(raw: string, use: { extract: boolean; mode: PromptMode | 'none'; language: string; setting: MultiLoKoSettings['prompt'] }): string {
  if (!use.extract) return raw;
  const mode: PromptMode = use.mode !== 'none' ? use.mode : use.setting === 'base' ? 'base' : 'chat';
  return extractAnswer(raw, { language: use.language, mode });
}
