// One entry point for every provider: `createProvider('replay:<file>' | 'transformers:<id|path>' | 'llama:<.gguf|ollama:name>' | 'openai:<model>')`.
import type { LlamaProviderOptions } from './llama.ts';
import type { OpenAIProviderOptions } from './openai.ts';
import { loadOptionalPeer, TRANSFORMERS_PEER } from './optionalPeer.ts';
import { ReplayProvider, type ReplayOptions } from './replay.ts';
import type { TransformersProviderOptions } from './transformers.ts';
import { ProviderError, type ModelProvider } from './types.ts';

export * from './types.ts';
export { LLAMA_PEER, MissingPeerError, TRANSFORMERS_PEER, loadOptionalPeer, peerInstallCommand, type OptionalPeer } from './optionalPeer.ts';
export { ReplayProvider, replayKey, type ReplayOptions, type ReplayResult } from './replay.ts';

export interface CreateProviderOptions {
  replay?: ReplayOptions;
  /** Options of the other providers, passed through unchanged. */
  [provider: string]: unknown;
}

export const PROVIDER_FORMS = [
  'replay:<predictions .jsonl|.csv>',
  'transformers:<model id or path>',
  'llama:<path to .gguf | ollama:name[:tag]>',
  'openai:<model>',
] as const;

/** Splits `kind:rest` at the first colon; the rest may contain colons (Windows paths, model tags). */
export function parseProviderSpec(spec: string): { kind: string; target: string } {
  const trimmed = spec.trim();
  const colon = trimmed.indexOf(':');
  if (colon <= 0 || colon === trimmed.length - 1) {
    throw new ProviderError('lokal', 'config', `model ${JSON.stringify(spec)} is not a provider string; expected one of ${PROVIDER_FORMS.join(', ')}`);
  }
  return { kind: trimmed.slice(0, colon), target: trimmed.slice(colon + 1) };
}

export async function createProvider(spec: string, options: CreateProviderOptions = {}): Promise<ModelProvider> {
  const { kind, target } = parseProviderSpec(spec);
  switch (kind) {
    case 'replay':
      return ReplayProvider.fromFile(target, options.replay).catch((error: unknown) => {
        if (error instanceof ProviderError) throw error;
        throw new ProviderError('replay', 'not-found', (error as Error).message, { cause: error });
      });
    // Loaded on demand: a replay run never pays for transformers.js and onnxruntime, nor needs them installed.
    case 'transformers': {
      const { TransformersProvider } = await loadOptionalPeer(TRANSFORMERS_PEER, () => import('./transformers.ts'));
      return new TransformersProvider(target, options.transformers as TransformersProviderOptions | undefined);
    }
    // node-llama-cpp is an optional peer: imported when the model loads, with an install hint when missing.
    case 'llama': {
      const { LlamaProvider } = await import('./llama.ts');
      return new LlamaProvider(target, options.llama as LlamaProviderOptions | undefined);
    }
    case 'openai': {
      const { OpenAIProvider } = await import('./openai.ts');
      return new OpenAIProvider(target, options.openai as OpenAIProviderOptions | undefined);
    }
    default:
      throw new ProviderError('lokal', 'config', `unknown provider ${JSON.stringify(kind)} in ${JSON.stringify(spec)}; expected one of ${PROVIDER_FORMS.join(', ')}`);
  }
}
