// MultiLoKo prompts: the official templates as data, their rendering and answer extraction.
export { renderOfficialJinja } from './officialJinja.ts';
export {
  MULTILOKO_PROMPTS_FILE,
  MULTILOKO_PROMPT_TABLE,
  MULTILOKO_PROMPT_LANGUAGES,
  multilokoLanguagePrompts,
  parseMultilokoPromptTable,
  type MultilokoLanguagePrompts,
  type MultilokoPromptExample,
  type MultilokoPromptFix,
  type MultilokoPromptTable,
} from './multilokoPromptTable.ts';
export {
  MULTILOKO_DEFAULT_NUM_SHOT,
  renderMultilokoPrompt,
  fewshotAnswer,
  type MultilokoPromptMode,
  type MultilokoPromptItem,
  type MultilokoFewshotItem,
  type MultilokoFewshotChoice,
  type MultilokoFewshotSource,
  type MultilokoFewshotUsed,
  type RenderMultilokoPromptOptions,
  type RenderedMultilokoPrompt,
  type RenderedMultilokoBasePrompt,
  type RenderedMultilokoChatPrompt,
} from './renderMultilokoPrompt.ts';
export { extractAnswer, chatAnswerFrame, type ExtractAnswerOptions } from './extractAnswer.ts';
