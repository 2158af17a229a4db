// The official MultiLoKo prompt material (tokens, few-shot and chat templates, few-shot examples), loaded from data.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** Where the prompt table lies; `source` inside it names the upstream file and commit. */
export const MULTILOKO_PROMPTS_FILE = fileURLToPath(new URL('./multiloko/prompts.json', import.meta.url));

const ExampleSchema = z.strictObject({ question: z.string(), answer: z.string(), output_type: z.string() });

const LanguagePromptsSchema = z.strictObject({
  /** The question marker of the few-shot template (`Q:`, `D:`, `質問：`); also the base-model stop string. */
  questionToken: z.string().min(1),
  /** The answer marker after which a base model completes (`A:`, `R:`, `回答：`). */
  answerToken: z.string().min(1),
  /** Jinja template for base models; loops over `few_shot`, then asks `question` with `output_type`. */
  fewshotTemplate: z.string().min(1),
  /** Jinja template of the single user message for chat models (`question`, `output_type`). */
  chatTemplate: z.string().min(1),
  /** The five official demonstrations of the language. */
  fewshotExamples: z.array(ExampleSchema).min(1),
});

const FixSchema = z.strictObject({
  language: z.string(),
  /** `questionToken`, `answerToken`, `fewshotTemplate`, `chatTemplate` or `fewshotExamples.<index>.<field>` (index from 0). */
  field: z.string(),
  before: z.string(),
  after: z.string(),
  occurrences: z.number().int().positive(),
  why: z.string(),
});

const PromptTableSchema = z.strictObject({
  source: z.string(),
  license: z.string(),
  rendering: z.string(),
  fixes: z.array(FixSchema),
  languages: z.record(z.string(), LanguagePromptsSchema),
});

export type MultilokoLanguagePrompts = z.infer<typeof LanguagePromptsSchema>;
export type MultilokoPromptExample = z.infer<typeof ExampleSchema>;
/** One correction of the upstream text: `before` → `after` in `field`, `occurrences` times. */
export type MultilokoPromptFix = z.infer<typeof FixSchema>;
export type MultilokoPromptTable = z.infer<typeof PromptTableSchema>;

/** Parses and validates a prompt table; errors name the file and the offending field. */
export function parseMultilokoPromptTable(text: string, file: string): MultilokoPromptTable {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: not valid JSON (${(error as Error).message})`, { cause: error });
  }
  const parsed = PromptTableSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${file} field "${issue.path.map(String).join('.')}": ${issue.message}`);
  }
  return parsed.data;
}

/** The validated table shipped with the package (read once, at import). */
export const MULTILOKO_PROMPT_TABLE: MultilokoPromptTable = parseMultilokoPromptTable(
  readFileSync(MULTILOKO_PROMPTS_FILE, 'utf8'),
  MULTILOKO_PROMPTS_FILE,
);

/** The 31 languages with official prompts, in the official FA_TOKENS order (folder names of the dataset). */
export const MULTILOKO_PROMPT_LANGUAGES: readonly string[] = Object.freeze(Object.keys(MULTILOKO_PROMPT_TABLE.languages));

/** Prompt material of one language (dataset folder name, e.g. `italian`, `simplified_mandarin`). */
export function multilokoLanguagePrompts(language: string): MultilokoLanguagePrompts {
  const prompts = MULTILOKO_PROMPT_TABLE.languages[language];
  if (prompts === undefined || !Object.hasOwn(MULTILOKO_PROMPT_TABLE.languages, language)) {
    throw new Error(
      `no MultiLoKo prompts for language "${language}" (${MULTILOKO_PROMPTS_FILE}); known: ${MULTILOKO_PROMPT_LANGUAGES.join(', ')}`,
    );
  }
  return prompts;
}
