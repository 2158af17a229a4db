// Builds the official MultiLoKo prompt for one question: few-shot completion prompt (base) or user message (chat).
import { multilokoLanguagePrompts, type MultilokoPromptExample } from './multilokoPromptTable.ts';
import { renderOfficialJinja } from './officialJinja.ts';

export type MultilokoPromptMode = 'base' | 'chat';

/** The fields of a question the templates use (a dataset `MultiLoKoQuestion` fits). */
export interface MultilokoPromptItem {
  id?: string | number;
  question?: string;
  output_type?: string;
}

/**
 * A demonstration from the dataset (`knowledge_fewshot.jsonl`). Its answer is `answer` when present,
 * else the first of `targets` (the short answers), else `target` (the long answer).
 */
export interface MultilokoFewshotItem extends MultilokoPromptItem {
  answer?: string;
  targets?: readonly string[];
  target?: string;
}

/** Dataset items, the official five examples of the prompt file, or zero-shot. */
export type MultilokoFewshotChoice = readonly MultilokoFewshotItem[] | 'official' | 'none';
export type MultilokoFewshotSource = 'dataset' | 'official' | 'none';

export interface RenderMultilokoPromptOptions {
  /** Language of the question text (dataset folder name): `italian` for `italian` and `english_translated_human_italian`, `english` for `italian_translated_human_english`. */
  language: string;
  item: MultilokoPromptItem;
  mode: MultilokoPromptMode;
  /** Base mode only; default `'official'`. Chat templates are zero-shot in the official protocol, so chat ignores it. */
  fewshot?: MultilokoFewshotChoice;
  /** Number of demonstrations, the first ones in order (official `fewshot_examples[language][0:num_shot]`); default 5. */
  numShot?: number;
}

/** Which demonstrations a prompt contains, for the results (`count` may be below numShot when fewer exist). */
export interface MultilokoFewshotUsed {
  source: MultilokoFewshotSource;
  count: number;
}

export interface RenderedMultilokoBasePrompt {
  mode: 'base';
  language: string;
  /** The completion prompt; ends with the language's answer token (e.g. `A:`). */
  prompt: string;
  /** Generation stops at the next question token of the language or at a blank line. */
  stop: string[];
  fewshot: MultilokoFewshotUsed;
}

export interface RenderedMultilokoChatPrompt {
  mode: 'chat';
  language: string;
  /** The single user message. */
  message: string;
  fewshot: MultilokoFewshotUsed;
}

export type RenderedMultilokoPrompt = RenderedMultilokoBasePrompt | RenderedMultilokoChatPrompt;

/** Default number of demonstrations (the official create_examples.py default). */
export const MULTILOKO_DEFAULT_NUM_SHOT = 5;

/**
 * Renders the official prompt of `language` for `item`, exactly as the MultiLoKo repository's
 * examples/create_examples.py does (same templates after the fixes listed in src/benchmarks/multiloko/prompts/FIXES.md,
 * same Jinja whitespace rules). Throws when a field the template needs is missing, rather than
 * silently rendering it empty as Jinja would.
 */
export function renderMultilokoPrompt(options: RenderMultilokoPromptOptions): RenderedMultilokoPrompt {
  const { language, item, mode } = options;
  const prompts = multilokoLanguagePrompts(language);
  const where = `MultiLoKo ${mode} prompt (${language}, item ${describeId(item.id)})`;
  const question = requireText(item.question, where, 'question');
  const outputType = requireText(item.output_type, where, 'output_type');

  if (mode === 'chat') {
    const message = renderOfficialJinja(prompts.chatTemplate, { question, output_type: outputType });
    return { mode, language, message, fewshot: { source: 'none', count: 0 } };
  }
  if (mode !== 'base') throw new Error(`${where}: mode must be 'base' or 'chat', got ${JSON.stringify(mode)}`);

  const numShot = options.numShot ?? MULTILOKO_DEFAULT_NUM_SHOT;
  if (!Number.isInteger(numShot) || numShot < 0) {
    throw new Error(`${where}: numShot must be a non-negative integer, got ${String(numShot)}`);
  }
  const { source, shots } = chooseShots(options.fewshot ?? 'official', prompts.fewshotExamples, numShot, where);
  const prompt = renderOfficialJinja(prompts.fewshotTemplate, { question, output_type: outputType, few_shot: shots });
  return {
    mode,
    language,
    prompt,
    stop: [prompts.questionToken, '\n\n'],
    fewshot: { source, count: shots.length },
  };
}

function chooseShots(
  choice: MultilokoFewshotChoice,
  official: readonly MultilokoPromptExample[],
  numShot: number,
  where: string,
): { source: MultilokoFewshotSource; shots: MultilokoPromptExample[] } {
  if (choice === 'none' || numShot === 0) return { source: 'none', shots: [] };
  if (choice === 'official') return { source: 'official', shots: official.slice(0, numShot) };
  if (!Array.isArray(choice)) {
    throw new Error(`${where}: fewshot must be a list of items, 'official' or 'none', got ${JSON.stringify(choice)}`);
  }
  if (choice.length === 0) {
    throw new Error(`${where}: fewshot is an empty list; pass 'none' for zero-shot or 'official' for the prompt file's examples`);
  }
  const shots = choice.slice(0, numShot).map((shot, index) => {
    const at = `${where}, few-shot example ${index + 1} (id ${describeId(shot.id)})`;
    return {
      question: requireText(shot.question, at, 'question'),
      answer: requireText(fewshotAnswer(shot), at, 'answer" / "targets[0]" / "target'),
      output_type: requireText(shot.output_type, at, 'output_type'),
    };
  });
  return { source: 'dataset', shots };
}

/** The answer a dataset demonstration shows: `answer`, else the first short answer, else the long answer. */
export function fewshotAnswer(shot: MultilokoFewshotItem): string | undefined {
  if (typeof shot.answer === 'string') return shot.answer;
  if (Array.isArray(shot.targets) && typeof shot.targets[0] === 'string') return shot.targets[0];
  return typeof shot.target === 'string' ? shot.target : undefined;
}

function requireText(value: unknown, where: string, field: string): string {
  if (typeof value !== 'string') {
    throw new Error(`${where}: field "${field}" is ${value === undefined ? 'missing' : `not a string (${typeof value})`}`);
  }
  return value;
}

function describeId(id: string | number | undefined): string {
  return id === undefined ? '?' : JSON.stringify(id);
}
