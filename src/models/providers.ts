// The provider table: one row per kind of provider string (`replay:`, `transformers:`, `llama:`, `openai:`), with its form, its loader and what it is.
import { PROVIDER_KINDS, type ProviderKind } from '../core/modelList.ts';
import type { LlamaProviderOptions } from './llama.ts';
import type { OpenAIProviderOptions } from './openai.ts';
import { LLAMA_PEER, loadOptionalPeer, TRANSFORMERS_PEER, type OptionalPeer } from './optionalPeer.ts';
import type { ReplayOptions } from './replay.ts';
import type { TransformersProviderOptions } from './transformers.ts';
import { ProviderError, type ModelProvider } from './types.ts';

export type { ProviderKind } from '../core/modelList.ts';

export interface CreateProviderOptions {
  replay?: ReplayOptions;
  /** Options of the other providers, passed through unchanged. */
  [provider: string]: unknown;
}

/** What a kind of provider is: each trait answers one question the rest of the package asks of a model. */
export interface ProviderTraits {
  /** Are its answers read from a predictions file? Then no prompt is rendered, nothing is cached or counted, and it has no scores. */
  answersFromFile: boolean;
  /** Does the model run in the test worker's memory? Then the run keeps one worker, so it loads once; probing it loads it. */
  runsInProcess: boolean;
  /** Does it answer from a server? Then probing reaches the server, whose answers say what it can do (it may take no plain prompt). */
  needsServer: boolean;
  /** Is it wrapped in the response cache (unless LOKAL_CACHE=off)? */
  cachedByDefault: boolean;
  /** Does it always take chat messages (chat completions), with no chat template to look at? */
  alwaysChat: boolean;
  /** The optional packages it needs installed in the user's project, if any. */
  peer?: OptionalPeer;
}

export interface ProviderRow extends ProviderTraits {
  kind: ProviderKind;
  /** The provider string's form, as the error for a bad one lists it. */
  form: string;
  /** Builds the provider from the target (the spec after `kind:`), importing its module only now: optional peers stay optional. */
  load(target: string, options: CreateProviderOptions): Promise<ModelProvider>;
  /**
   * The folder of the model's Hugging Face tokenizer files when they are on disk (nothing downloaded), else why not:
   * `lokal plan` counts prompt tokens with it. Absent for kinds whose tokenizer lokal cannot read.
   */
  tokenizerFolder?(target: string, env: Readonly<Record<string, string | undefined>>): Promise<{ folder: string } | { missing: string }>;
}

/** The table; a new provider is its module and one row here (and its kind in PROVIDER_KINDS, which types the table). */
const ROWS: { [K in ProviderKind]: ProviderRow & { kind: K } } = {
  replay: {
    kind: 'replay',
    form: 'replay:<predictions .jsonl|.csv>',
    answersFromFile: true,
    runsInProcess: false,
    needsServer: false,
    cachedByDefault: false,
    alwaysChat: false,
    async load(target, options) {
      const { ReplayProvider } = await import('./replay.ts');
      return ReplayProvider.fromFile(target, options.replay).catch((error: unknown) => {
        if (error instanceof ProviderError) throw error;
        throw new ProviderError('replay', 'not-found', (error as Error).message, { cause: error });
      });
    },
  },
  transformers: {
    kind: 'transformers',
    form: 'transformers:<model id or path>',
    answersFromFile: false,
    runsInProcess: true,
    needsServer: false,
    cachedByDefault: true,
    alwaysChat: false,
    peer: TRANSFORMERS_PEER,
    // A replay run never pays for transformers.js and onnxruntime, nor needs them installed.
    async load(target, options) {
      const { TransformersProvider } = await loadOptionalPeer(TRANSFORMERS_PEER, () => import('./transformers.ts'));
      return new TransformersProvider(target, options.transformers as TransformersProviderOptions | undefined);
    },
    async tokenizerFolder(target, env) {
      const { localTokenizerFolder } = await loadOptionalPeer(TRANSFORMERS_PEER, () => import('./transformers.ts'));
      return localTokenizerFolder(target, env);
    },
  },
  llama: {
    kind: 'llama',
    form: 'llama:<path to .gguf | ollama:name[:tag]>',
    answersFromFile: false,
    runsInProcess: true,
    needsServer: false,
    cachedByDefault: true,
    alwaysChat: false,
    peer: LLAMA_PEER,
    // node-llama-cpp is imported when the model loads, with an install hint when missing (nodeLlamaCpp.ts).
    async load(target, options) {
      const { LlamaProvider } = await import('./llama.ts');
      return new LlamaProvider(target, options.llama as LlamaProviderOptions | undefined);
    },
  },
  openai: {
    kind: 'openai',
    form: 'openai:<model>',
    answersFromFile: false,
    runsInProcess: false,
    needsServer: true,
    cachedByDefault: true,
    alwaysChat: true,
    async load(target, options) {
      const { OpenAIProvider } = await import('./openai.ts');
      return new OpenAIProvider(target, options.openai as OpenAIProviderOptions | undefined);
    },
  },
};

/** Every row, in the order the forms are listed to users. */
export const PROVIDERS: readonly ProviderRow[] = PROVIDER_KINDS.map((kind) => ROWS[kind]);

const forms = () => PROVIDERS.map((row) => row.form).join(', ');

/** The row of a kind (`replay`), or undefined for a kind no provider has. */
export function providerRow(kind: string): ProviderRow | undefined {
  return Object.hasOwn(ROWS, kind) ? ROWS[kind as ProviderKind] : undefined;
}

/** Splits `kind:rest` at the first colon; the rest may contain colons (Windows paths, model tags). */
export function parseProviderSpec(spec: string): { kind: string; target: string } {
  const trimmed = spec.trim();
  const colon = trimmed.indexOf(':');
  if (colon <= 0 || colon === trimmed.length - 1) {
    throw new ProviderError('lokal', 'config', `model ${JSON.stringify(spec)} is not a provider string; expected one of ${forms()}`);
  }
  return { kind: trimmed.slice(0, colon), target: trimmed.slice(colon + 1) };
}

/** The row of a provider string, read from its prefix as written (`replay:runs/a.jsonl`); undefined for any other string. */
export function specRow(spec: string): ProviderRow | undefined {
  return PROVIDERS.find((row) => spec.startsWith(`${row.kind}:`));
}

/** The predictions file a provider string answers from (`replay:<file>` → `<file>`, as written), else undefined. */
export function answerFile(spec: string): string | undefined {
  const row = specRow(spec);
  return row?.answersFromFile ? spec.slice(row.kind.length + 1) : undefined;
}

/** The row of a spec that names a known kind, or the error users see for an unknown one. */
export function knownProvider(spec: string): { row: ProviderRow; target: string } {
  const { kind, target } = parseProviderSpec(spec);
  const row = providerRow(kind);
  if (!row) throw new ProviderError('lokal', 'config', `unknown provider ${JSON.stringify(kind)} in ${JSON.stringify(spec)}; expected one of ${forms()}`);
  return { row, target };
}
