// The run's settings: defaults < lokal.config.json < options in code < LOKAL_* environment variables.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** Which subsets of a language run: kinds, directions, or exact eval.py keys such as `italian_translated_human_english`. */
export const SUBSET_KINDS = ['local', 'translated', 'human', 'machine', 'to-english', 'from-english'] as const;

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
});

export type LokalConfigInput = z.input<typeof LokalConfigSchema>;

export const LOKAL_DEFAULTS = {
  split: 'dev',
  strict: false,
  missing: 'empty',
  maxNewTokens: 64,
  output: 'results',
  baselineTolerance: 0.02,
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

function validateLayer(layer: unknown, source: string, fieldNames?: Map<string, string>): LokalConfigInput {
  const parsed = LokalConfigSchema.safeParse(layer);
  if (parsed.success) return stripUndefined(parsed.data);
  const issue = parsed.error.issues[0]!;
  const field = issue.path.length ? String(issue.path[0]) : issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : undefined;
  const shown = field && fieldNames?.get(field);
  if (shown) throw new LokalConfigError(shown, undefined, issue.message);
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
  for (const [name, { field, parse }] of Object.entries(ENV_FIELDS)) {
    const text = env[name];
    if (text === undefined || (text.trim() === '' && field !== 'strict')) continue;
    layer[field] = parse(text);
    names.set(field, name);
  }
  return validateLayer(layer, 'environment', names);
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
