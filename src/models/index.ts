// One entry point for every provider: `createProvider('replay:<file>' | 'transformers:<id|path>' | 'llama:<.gguf|ollama:name>' | 'openai:<model>')`.
import { knownProvider, type CreateProviderOptions } from './providers.ts';
import type { ModelProvider } from './types.ts';

export * from './types.ts';
export { LLAMA_PEER, MissingPeerError, TRANSFORMERS_PEER, loadOptionalPeer, peerInstallCommand, type OptionalPeer } from './optionalPeer.ts';
export { ReplayProvider, replayKey, type ReplayOptions, type ReplayResult } from './replay.ts';
export { PROVIDERS, answerFile, parseProviderSpec, providerRow, specRow, type CreateProviderOptions, type ProviderKind, type ProviderRow, type ProviderTraits } from './providers.ts';

/** The provider of a spec, built by its row of the provider table (providers.ts). */
export async function createProvider(spec: string, options: CreateProviderOptions = {}): Promise<ModelProvider> {
  const { row, target } = knownProvider(spec);
  return row.load(target, options);
}
