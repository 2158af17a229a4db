// Which model a run asks and how: the default model, provider options from the settings, the response cache
// around every non-replay provider, and whether the model is a chat model (for LOKAL_PROMPT=auto).
import { splitModelList } from '../core/modelList.ts';
import { isCheckout, packageFile } from '../core/packageFiles.ts';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_CACHE_FILE, withCache, type CacheMode } from './cache.ts';
import { createProvider, type CreateProviderOptions } from './index.ts';
import { knownProvider, providerRow, type ProviderRow } from './providers.ts';
import { DEFAULT_MODEL } from './defaults.ts';
import type { TransformersProviderOptions } from './transformers.ts';
import type { OpenAIProviderOptions } from './openai.ts';
import type { ModelProvider } from './types.ts';
import type { SharedSettings } from '../core/settings.ts';

/** The model of `npx vitest run evals` when LOKAL_MODEL and lokal.config.json name none. */
export const DEFAULT_MODEL_SPEC = `transformers:${DEFAULT_MODEL}`;

type ModelSettings = Pick<
  SharedSettings,
  | 'model'
  | 'missing'
  | 'cache'
  | 'cacheFile'
  | 'dtype'
  | 'numerics'
  | 'modelDir'
  | 'modelCache'
  | 'offline'
  | 'generateBatchSize'
  | 'maxBatchTokens'
  | 'prefixCacheTokens'
  | 'threads'
  | 'llamaContext'
  | 'llamaThreads'
  | 'concurrency'
  | 'baseUrl'
  | 'allowMixedServers'
  | 'requestTimeout'
  | 'requestBudget'
>;

/** The provider string(s) of the run, labels (`qwen3=…`) left off: the configured one, else the default model. */
export function modelSpec(config: Pick<SharedSettings, 'model'>): string {
  return config.model === undefined ? DEFAULT_MODEL_SPEC : splitModelList(config.model).join(',');
}

/** Provider options plus the cache settings; plain JSON, so equal settings give equal pool keys. */
export interface LokalModelOptions extends CreateProviderOptions {
  /** Response cache around transformers:/openai: providers (replay is never cached). */
  cache?: { mode: CacheMode; file: string };
}

function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** Options for createProvider from the run's settings (unset ones are left to the providers' own env defaults). */
export function lokalModelOptions(config: ModelSettings): LokalModelOptions {
  const transformers: TransformersProviderOptions = defined({
    dtype: config.dtype,
    numerics: config.numerics,
    modelDir: config.modelDir,
    cacheDir: config.modelCache,
    // Only an explicit "offline" forbids downloads; otherwise the provider reads LOKAL_OFFLINE/HF_HUB_OFFLINE.
    allowRemote: config.offline === true ? false : undefined,
    generateBatchSize: config.generateBatchSize,
    maxBatchTokens: config.maxBatchTokens,
    prefixCacheTokens: config.prefixCacheTokens,
    threads: config.threads,
  });
  const retry = defined({ timeoutMs: config.requestTimeout, totalTimeoutMs: config.requestBudget });
  const openai: OpenAIProviderOptions = defined({ baseUrl: config.baseUrl, concurrency: config.concurrency, allowMixedServers: config.allowMixedServers, retry: Object.keys(retry).length > 0 ? retry : undefined });
  return {
    replay: { onMissing: config.missing },
    transformers,
    // one sequence of the llama.cpp context, whatever LOKAL_GENERATE_BATCH_SIZE says: several decoded together changed
    // greedy answers and Kalahi log-probabilities (by 3.5 nats) on a CI machine (node-llama-cpp 3.21.1)
    llama: defined({ contextSize: config.llamaContext, threads: config.llamaThreads }),
    openai,
    cache: { mode: config.cache ?? 'readwrite', file: config.cacheFile ?? DEFAULT_CACHE_FILE },
  };
}

/** A built model: what tests call (`provider`, cached when configured) and the provider underneath. */
export interface LokalModel {
  kind: string;
  /** The provider table's row of its kind: the traits the run asks about (answersFromFile, runsInProcess, …). */
  row: ProviderRow;
  provider: ModelProvider;
  inner: ModelProvider;
  /** Whether the model takes chat messages (memoised; see isChatModel). */
  chat(): Promise<boolean>;
}

/**
 * The run's model cannot answer (bad path or dtype, not downloadable, server down): one line naming the setting and
 * the cause. It has no stack frames, so Vitest prints the line alone (the cause is already in the message).
 */
export class ModelUnusableError extends Error {
  constructor(
    readonly spec: string,
    /** Whether the model was configured (LOKAL_MODEL, lokal.config.json, options) or is the default one. */
    readonly configured: boolean,
    cause: unknown,
    /** The setting that named it: LOKAL_MODEL, or a benchmark's own (LOKAL_KALAHI_MODEL). */
    variable = 'LOKAL_MODEL',
  ) {
    const reason = (cause instanceof Error ? cause.message : String(cause)).replace(/\s*\n\s*/gu, ' ').trim();
    const setting = configured ? `${variable}=${spec}` : `LOKAL_MODEL is not set and the default model ${spec}`;
    super(`${setting} cannot be used: ${configured ? reason : `${reason.replace(/[.\s]+$/u, '')}. ${waysForward(spec)}`}`);
    this.name = 'ModelUnusableError';
    this.stack = `${this.name}: ${this.message}`;
  }
}

/**
 * What a newcomer without the default model can run instead (appended when no model was configured): every provider,
 * and the page describing them where the reader's copy of the package has it. The tiny-model script is named only in
 * a checkout of the repository, the one place it exists.
 */
function waysForward(defaultSpec: string): string {
  const id = defaultSpec.replace(/^transformers:/u, '');
  const tiny = isCheckout() ? '; npm run make:tiny-model -- <folder> writes a tiny one' : '';
  return (
    'Set LOKAL_MODEL to one of: replay:<predictions .jsonl|.csv> (answers you already have, no model), ' +
    'openai:<model> with OPENAI_BASE_URL=<server>/v1 (any OpenAI-compatible server), ' +
    `transformers:<folder> (a local ONNX model: config.json, tokenizer.json, onnx/model.onnx${tiny}), ` +
    'llama:<file.gguf> or llama:ollama:<name> (a GGUF model, with the optional package node-llama-cpp); ' +
    `or set LOKAL_MODEL_DIR to a folder holding ${id}/ (providers: ${packageFile('docs/models.md')})`
  );
}

/** The model answers, but not what this benchmark's tasks need: one line naming what is missing and the settings that work. */
export class ModelUnsuitedError extends Error {
  constructor(spec: string, variable: string, problem: string) {
    super(`${variable}=${spec}: ${problem}`);
    this.name = 'ModelUnsuitedError';
    this.stack = `${this.name}: ${this.message}`;
  }
}

/** Builds the provider named by `spec`; transformers:/openai: providers are wrapped in the response cache. */
export async function openLokalModel(spec: string, options: LokalModelOptions = {}): Promise<LokalModel> {
  const { row } = knownProvider(spec);
  const { cache, ...providerOptions } = options;
  const inner = await createProvider(spec, providerOptions);
  const provider = !row.cachedByDefault || !cache || cache.mode === 'off' ? inner : withCache(inner, { mode: cache.mode, file: cache.file });
  let chat: Promise<boolean> | undefined;
  return { kind: row.kind, row, provider, inner, chat: () => (chat ??= isChatModel(inner)) };
}

/**
 * A chat template in a local model folder: tokenizer_config.json's `chat_template` (where transformers.js's
 * AutoTokenizer reads it; its processors alone read chat_template.jinja). undefined when the file is unreadable.
 */
export function folderHasChatTemplate(dir: string): boolean | undefined {
  const config = path.join(dir, 'tokenizer_config.json');
  if (!existsSync(config)) return undefined;
  try {
    const template = (JSON.parse(readFileSync(config, 'utf8')) as { chat_template?: unknown }).chat_template;
    return (typeof template === 'string' && template.trim() !== '') || (Array.isArray(template) && template.length > 0);
  } catch {
    return undefined;
  }
}

/**
 * Whether a provider takes chat messages: a provider's own `isChatModel()` when it has one, else `chatTemplate` in
 * describe().settings, else by kind — openai: always (chat completions); transformers: the tokenizer has a chat
 * template (read from a local folder's files, or from the loaded tokenizer for a Hub model); replay: no.
 */
export async function isChatModel(provider: ModelProvider): Promise<boolean> {
  const own = (provider as { isChatModel?: () => boolean | Promise<boolean> }).isChatModel;
  if (typeof own === 'function') return Boolean(await own.call(provider));
  const description = provider.describe();
  if (typeof description.settings.chatTemplate === 'boolean') return description.settings.chatTemplate;
  const row = providerRow(description.provider);
  if (row?.alwaysChat) return true;
  const { TransformersProvider } = description.provider === 'transformers' ? await import('./transformers.ts') : { TransformersProvider: undefined };
  if (TransformersProvider && provider instanceof TransformersProvider) {
    if (provider.source.kind === 'local') {
      const fromFiles = folderHasChatTemplate(provider.source.path);
      if (fromFiles !== undefined) return fromFiles;
    }
    const loaded = await provider.load();
    return Boolean(loaded.tokenizer.chat_template);
  }
  return false;
}
