// How an item is asked, decided without the prompt templates: the prompt mode, the few-shot source, whether answers
// are extracted, and what the item's meta says about it. The templates themselves (itemPrompt.ts) load only for
// items that render a prompt or extract an answer.
import type { MultiLoKoDataset } from '../data/multiloko.ts';
import type { MultilokoFewshotChoice, MultilokoFewshotUsed } from '../prompts/renderMultilokoPrompt.ts';
import type { MultiLoKoSettings } from '../settings.ts';
import type { LokalPromptUse } from './records.ts';
import { providerRow } from '../../../models/providers.ts';

export type PromptMode = 'base' | 'chat';

/**
 * The few-shot demonstrations for prompts in `language`: `dataset` → that language's knowledge_fewshot.jsonl when the
 * dataset has it (non-empty), else the official examples of the prompt file; `official`; `none` (zero-shot).
 */
export function chooseFewshot(dataset: Pick<MultiLoKoDataset, 'fewshot'>, language: string, setting: MultiLoKoSettings['fewshot']): MultilokoFewshotChoice {
  if (setting === 'none' || setting === 'official') return setting;
  const examples = Object.hasOwn(dataset.fewshot, language) ? dataset.fewshot[language] : undefined;
  return examples && examples.length > 0 ? examples : 'official';
}

/** The model's side of the prompt choice: replay files take no prompt; others are chat models or not. */
export interface PromptTarget {
  kind: string;
  chat(): Promise<boolean>;
}

/** `none` for replay; LOKAL_PROMPT=base|chat as given; `auto` → chat for chat models, else base. */
export async function resolvePromptMode(setting: MultiLoKoSettings['prompt'], model: PromptTarget): Promise<PromptMode | 'none'> {
  if (providerRow(model.kind)?.answersFromFile) return 'none';
  if (setting === 'base' || setting === 'chat') return setting;
  return (await model.chat()) ? 'chat' : 'base';
}

/**
 * Whether answers are extracted before scoring: LOKAL_EXTRACT when set; otherwise yes for models (their raw output
 * runs on past the answer) and no for replay files (predictions are scored as given, like `lokal score` does).
 */
export function extractsAnswers(setting: boolean | undefined, kind: string): boolean {
  return setting ?? !providerRow(kind)?.answersFromFile;
}

/** What an item's meta says about how it was asked. */
export function promptUse(mode: PromptMode | 'none', language: string, fewshot: MultilokoFewshotUsed | undefined, extracted: boolean): LokalPromptUse {
  return {
    mode,
    language: mode === 'none' ? null : language,
    fewshot: fewshot?.source ?? 'none',
    shots: fewshot?.count ?? 0,
    extracted,
  };
}
