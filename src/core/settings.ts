// The run's settings: defaults < lokal.config.json < options in code < LOKAL_* environment variables.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { KALAHI_ENV_FIELDS, KALAHI_SETTINGS_SHAPE } from '../benchmarks/kalahi/settings.ts';
import { DEFAULT_MAX_NEW_TOKENS } from '../models/types.ts';

/** Which subsets of a language run: kinds, directions, or exact eval.py keys such as `italian_translated_human_english`. */
export const SUBSET_KINDS = ['local', 'translated', 'human', 'machine', 'to-english', 'from-english'] as const;

export const PROMPT_MODES = ['base', 'chat', 'auto'] as const;
export const FEWSHOT_SETTINGS = ['dataset', 'official', 'none'] as const;

/** One layer of settings (a file, options in code, the environment): every field optional, no defaults. */
export const LokalConfigSchema = z.strictObject({
  /** MultiLoKo location (folder or .enc archive); unset: the data loader's default ($LOKAL_MULTILOKO, then ./data/). */
  multiloko: z.string().min(1).optional(),
  split: z.string().min(1).optional(),
  /** Language folders to run (a subset belongs to its non-English side); unset: all. */
  languages: z.array(z.string().min(1)).min(1).optional(),
  /** Subset kinds or keys to run (see SUBSET_KINDS); unset: all. */
  subsets: z.array(z.string().min(1)).min(1).optional(),
  /** First N items of each subset (smoke runs). */
  limit: z.number().int().positive().optional(),
  /** Provider string: `replay:<file>`, `transformers:<id|path>`, `openai:<model>`. */
  model: z.string().min(1).optional(),
  /** A wrong answer fails its item test. */
  strict: z.boolean().optional(),
  /** A replay item without a prediction: scored as '' and flagged (`empty`), or a failed test (`fail`). */
  missing: z.enum(['empty', 'fail']).optional(),
  maxNewTokens: z.number().int().positive().optional(),
  /** Folder of `multiloko.json`. */
  output: z.string().min(1).optional(),
  /** Gates such as `em>=0.30,gap<=0.40,italian.em>=0.35` (see thresholds.ts). */
  thresholds: z.string().optional(),
  /** An earlier results JSON (this reporter's or `lokal score`'s) that EM must not drop below. */
  baseline: z.string().min(1).optional(),
  /** Allowed EM drop against the baseline (0–1 scale). */
  baselineTolerance: z.number().min(0).max(1).optional(),
  /** Extra metrics in the printed table besides EM, F1, chrF (`all` or metric names). */
  tableMetrics: z.array(z.string().min(1)).optional(),

  // --- prompts and answer extraction (src/vitest/prompt.ts) ---
  /** Official base (few-shot completion) or chat prompt; `auto`: chat when the model is a chat model. */
  prompt: z.enum(PROMPT_MODES).optional(),
  /** Few-shot demonstrations of base prompts: the dataset's knowledge_fewshot.jsonl (else the official ones), the official ones, or none. */
  fewshot: z.enum(FEWSHOT_SETTINGS).optional(),
  /** Number of demonstrations in base prompts (official default 5). */
  shots: z.number().int().min(0).optional(),
  /** Answer extraction before scoring; unset: on for models, off for replay files. */
  extract: z.boolean().optional(),

  // --- model providers and the response cache (src/vitest/model.ts) ---
  /** Response cache of transformers:/openai: models (never replay). */
  cache: z.enum(['off', 'read', 'write', 'readwrite']).optional(),
  /** Cache file (JSONL); default .lokal-cache/responses.jsonl. */
  cacheFile: z.string().min(1).optional(),
  /** transformers: weight variant. */
  dtype: z.enum(['fp32', 'fp16', 'q8', 'int8', 'uint8', 'q4', 'q4f16', 'bnb4']).optional(),
  /** transformers: folder holding local models as <dir>/<owner>/<name>/. */
  modelDir: z.string().min(1).optional(),
  /** transformers: download cache folder. */
  modelCache: z.string().min(1).optional(),
  /** transformers: never download. */
  offline: z.boolean().optional(),
  /** openai: requests in flight at once. */
  concurrency: z.number().int().positive().optional(),
  /** openai: server base URL (the API key is read from OPENAI_API_KEY only, never from files). */
  baseUrl: z.string().url().optional(),

  // --- Kalahi (src/vitest/kalahiSettings.ts) ---
  ...KALAHI_SETTINGS_SHAPE,
});

export type LokalConfigInput = z.input<typeof LokalConfigSchema>;

export const LOKAL_DEFAULTS = {
  split: 'dev',
  strict: false,
  missing: 'empty',
  maxNewTokens: DEFAULT_MAX_NEW_TOKENS,
  output: 'results',
  baselineTolerance: 0.02,
  prompt: 'auto',
  fewshot: 'dataset',
  shots: 5,
} as const satisfies LokalConfigInput;

type Defaulted = keyof typeof LOKAL_DEFAULTS;
export type LokalConfig = Omit<LokalConfigInput, Defaulted> & { -readonly [K in Defaulted]-?: NonNullable<LokalConfigInput[K]> };

export const CONFIG_FILE = 'lokal.config.json';

/** LOKAL_* variable → config field and how its text becomes a value. */
const ENV_FIELDS: Record<string, { field: keyof LokalConfigInput; parse: (text: string) => unknown }> = {
  LOKAL_MULTILOKO: { field: 'multiloko', parse: (t) => t },
  LOKAL_SPLIT: { field: 'split', parse: (t) => t },
  LOKAL_LANGUAGES: { field: 'languages', parse: list },
  LOKAL_SUBSETS: { field: 'subsets', parse: list },
  LOKAL_LIMIT: { field: 'limit', parse: number },
  LOKAL_MODEL: { field: 'model', parse: (t) => t },
  LOKAL_STRICT: { field: 'strict', parse: flag },
  LOKAL_MISSING: { field: 'missing', parse: (t) => t },
  LOKAL_MAX_NEW_TOKENS: { field: 'maxNewTokens', parse: number },
  LOKAL_OUTPUT: { field: 'output', parse: (t) => t },
  LOKAL_THRESHOLDS: { field: 'thresholds', parse: (t) => t },
  LOKAL_BASELINE: { field: 'baseline', parse: (t) => t },
  LOKAL_BASELINE_TOLERANCE: { field: 'baselineTolerance', parse: number },
  LOKAL_TABLE_METRICS: { field: 'tableMetrics', parse: list },
  // prompts, models, cache
  LOKAL_PROMPT: { field: 'prompt', parse: (t) => t.trim() },
  LOKAL_FEWSHOT: { field: 'fewshot', parse: (t) => t.trim() },
  LOKAL_SHOTS: { field: 'shots', parse: number },
  LOKAL_EXTRACT: { field: 'extract', parse: flag },
  LOKAL_CACHE: { field: 'cache', parse: (t) => t.trim().toLowerCase() },
  LOKAL_CACHE_FILE: { field: 'cacheFile', parse: (t) => t },
  LOKAL_DTYPE: { field: 'dtype', parse: (t) => t.trim() },
  LOKAL_MODEL_DIR: { field: 'modelDir', parse: (t) => t },
  LOKAL_MODEL_CACHE: { field: 'modelCache', parse: (t) => t },
  LOKAL_OFFLINE: { field: 'offline', parse: flag },
  LOKAL_CONCURRENCY: { field: 'concurrency', parse: number },
  OPENAI_BASE_URL: { field: 'baseUrl', parse: (t) => t.trim() },
  // Kalahi (src/vitest/kalahiSettings.ts)
  ...KALAHI_ENV_FIELDS,
};

function list(text: string): string[] {
  return text.split(/[,\s]+/u).filter((part) => part !== '');
}

function number(text: string): unknown {
  const value = Number(text.trim());
  return text.trim() === '' || Number.isNaN(value) ? text : value;
}

function flag(text: string): unknown {
  const t = text.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(t)) return true;
  if (['0', 'false', 'no', 'off', ''].includes(t)) return false;
  return text;
}

export class LokalConfigError extends Error {
  constructor(
    readonly source: string,
    readonly field: string | undefined,
    detail: string,
  ) {
    super(`${source}${field ? ` field "${field}"` : ''}: ${detail}`);
    this.name = 'LokalConfigError';
  }
}

function validateLayer(layer: unknown, source: string, fieldNames?: Map<string, string>, rawValues?: Map<string, string>): LokalConfigInput {
  const parsed = LokalConfigSchema.safeParse(layer);
  if (parsed.success) return stripUndefined(parsed.data);
  const issue = parsed.error.issues[0]!;
  const field = issue.path.length ? String(issue.path[0]) : issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : undefined;
  const shown = field && fieldNames?.get(field);
  // Name the variable and echo what it was set to, so the mistake is visible without looking up the environment.
  if (shown) {
    const got = `got ${JSON.stringify(rawValues?.get(field!) ?? '')}`;
    const hint = ENV_FIELDS[shown]?.parse === flag ? '; use 1/true/yes/on or 0/false/no/off' : '';
    throw new LokalConfigError(shown, undefined, `${issue.message} (${got}${hint})`);
  }
  throw new LokalConfigError(source, field, issue.code === 'unrecognized_keys' ? `unknown setting (known: ${Object.keys(LokalConfigSchema.shape).join(', ')})` : issue.message);
}

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** The config file's layer: `LOKAL_CONFIG` or ./lokal.config.json when it exists. */
export function readConfigFile(cwd: string, env: Readonly<Record<string, string | undefined>>): LokalConfigInput {
  const file = env.LOKAL_CONFIG ? path.resolve(cwd, env.LOKAL_CONFIG) : path.join(cwd, CONFIG_FILE);
  if (!existsSync(file)) {
    if (env.LOKAL_CONFIG) throw new LokalConfigError('LOKAL_CONFIG', undefined, `${file} does not exist`);
    return {};
  }
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new LokalConfigError(file, undefined, `malformed JSON: ${(error as Error).message}`);
  }
  return validateLayer(value, file);
}

/** The environment's layer; an empty variable counts as unset (except LOKAL_STRICT, where it means off). */
export function readConfigEnv(env: Readonly<Record<string, string | undefined>>): LokalConfigInput {
  const layer: Record<string, unknown> = {};
  const names = new Map<string, string>();
  const raw = new Map<string, string>();
  for (const [name, { field, parse }] of Object.entries(ENV_FIELDS)) {
    const text = env[name];
    if (text === undefined || (text.trim() === '' && field !== 'strict')) continue;
    layer[field] = parse(text);
    names.set(field, name);
    raw.set(field, text);
  }
  return validateLayer(layer, 'environment', names, raw);
}

export interface ResolveOptions {
  cwd?: string;
  env?: Readonly<Record<string, string | undefined>>;
}

/** The settings given by lokal.config.json, `options` and LOKAL_* variables (later wins), without defaults. */
export function resolveLokalSettings(options: LokalConfigInput = {}, resolve: ResolveOptions = {}): LokalConfigInput {
  const cwd = resolve.cwd ?? process.cwd();
  const env = resolve.env ?? process.env;
  return { ...readConfigFile(cwd, env), ...validateLayer(options, 'options'), ...readConfigEnv(env) };
}

/** Merges defaults, lokal.config.json, `options` (from an eval file or reporter options) and LOKAL_* variables. */
export function resolveLokalConfig(options: LokalConfigInput = {}, resolve: ResolveOptions = {}): LokalConfig {
  return { ...LOKAL_DEFAULTS, ...resolveLokalSettings(options, resolve) };
}
