// What `defineDatasetBenchmark` takes: the data file or folder, the prompt, the accepted answers' field, the metrics
// by name, the grouping field and optional few-shot rows. One zod schema checks the options when the benchmark is
// defined, so a mistake fails at import with the option's name, not at the first item.
import { z } from 'zod';
import type { ChatMessage } from '../../models/types.ts';

/** The metrics a dataset benchmark may name: MultiLoKo's per-item metrics (eval.py), computed by the same functions. */
export const DATASET_METRICS = ['em', 'f1', 'chrf', 'bleu', 'edit_similarity'] as const;
export type DatasetMetric = (typeof DATASET_METRICS)[number];

/** `multiloko`: eval.py's normalize_answer (lower case, punctuation and English articles removed, whitespace collapsed); `none`: as given. */
export const NORMALIZATIONS = ['multiloko', 'none'] as const;
export type Normalization = (typeof NORMALIZATIONS)[number];

/** One row of the data: the fields of a JSONL object or a CSV row. */
export type DatasetRow = Record<string, unknown>;

/** A prompt function: a string is a completion prompt, a list of messages a chat prompt. */
export type PromptFunction = (row: DatasetRow) => string | ChatMessage[];

export interface DatasetBenchmarkOptions {
  /** Lower-case name: settings key, gate prefix (`capitals.em>=0.5`), results file stem, replay rows' `language`. */
  name: string;
  /** Display name (default: the name). */
  title?: string;
  /** A .jsonl or .csv file, or a folder of them, relative to the project root (the folder Vitest runs in). */
  data: string;
  /** `{field}` slots filled from each row (`{{` and `}}` for literal braces), or a function of the row. */
  prompt: string | PromptFunction;
  /** Send a string prompt as the user message of a chat (default false: a completion prompt). */
  chat?: boolean;
  /** A system message before a chat prompt. */
  system?: string;
  /** The field holding the accepted answers: a string or a list of strings (in a CSV, one answer unless `separator` splits it). */
  targets: string;
  /** CSV only: splits the targets cell into several accepted answers (e.g. `|`). */
  separator?: string;
  /** Metrics by name; the first is the one the baseline gate pairs and the report leads with. */
  metrics: readonly DatasetMetric[];
  /** How answers and targets are normalised before scoring (default `multiloko`). */
  normalize?: Normalization;
  /** The field whose value puts a row in a group (a describe, a row of the table, a gate scope); default: one group. */
  groupBy?: string;
  /** The field holding each row's id, unique in the benchmark (default `id`); replay files and baselines pair by it. */
  id?: string;
  /** Rows shown before each question with their first target as the answer: a list of rows, or a file like `data`. */
  fewShot?: string | readonly DatasetRow[];
  /** Text after each few-shot answer in a completion prompt (default a blank line). */
  fewShotSeparator?: string;
  /** Generation budget (default the shared `maxNewTokens`). */
  maxNewTokens?: number;
  /** Generation stops before any of these strings (default: a newline, for completion prompts only). */
  stop?: readonly string[];
}

const NAME = /^[a-z][a-z0-9_-]*$/u;

const DATASET_OPTIONS_SCHEMA = z.strictObject({
  name: z.string().regex(NAME, 'a lower-case name: a letter, then letters, digits, "_" or "-"'),
  title: z.string().min(1).optional(),
  data: z.string().min(1),
  prompt: z.union([z.string().min(1), z.custom<PromptFunction>((v) => typeof v === 'function', 'a template string or a function of the row')]),
  chat: z.boolean().optional(),
  system: z.string().optional(),
  targets: z.string().min(1),
  separator: z.string().min(1).optional(),
  metrics: z.array(z.enum(DATASET_METRICS)).min(1).refine((m) => new Set(m).size === m.length, 'a metric is named twice'),
  normalize: z.enum(NORMALIZATIONS).optional(),
  groupBy: z.string().min(1).optional(),
  id: z.string().min(1).optional(),
  fewShot: z.union([z.string().min(1), z.array(z.record(z.string(), z.unknown()))]).optional(),
  fewShotSeparator: z.string().optional(),
  maxNewTokens: z.number().int().positive().optional(),
  stop: z.array(z.string().min(1)).optional(),
});

/** Names a benchmark may not take: the built-in ones, and the shared settings' keys (its settings object sits beside them). */
function reservedNames(shared: readonly string[]): string[] {
  return ['multiloko', 'kalahi', ...shared];
}

export class DatasetOptionsError extends Error {
  constructor(name: string, field: string | undefined, detail: string) {
    super(`defineDatasetBenchmark(${JSON.stringify(name)})${field ? ` option "${field}"` : ''}: ${detail}`);
    this.name = 'DatasetOptionsError';
  }
}

/** The options checked: the first problem as an error naming the option. */
export function checkDatasetOptions(options: unknown, shared: readonly string[]): DatasetBenchmarkOptions {
  const parsed = DATASET_OPTIONS_SCHEMA.safeParse(options);
  const name = typeof (options as { name?: unknown } | null)?.name === 'string' ? (options as { name: string }).name : '?';
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new DatasetOptionsError(name, issue.path.map(String).join('.') || undefined, issue.message);
  }
  const checked = parsed.data as DatasetBenchmarkOptions;
  if (reservedNames(shared).includes(checked.name)) throw new DatasetOptionsError(name, 'name', `"${checked.name}" is taken (a built-in benchmark or a shared setting)`);
  return checked;
}
