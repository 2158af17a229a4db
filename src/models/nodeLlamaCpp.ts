// node-llama-cpp is an optional peer dependency: imported only when a llama: model is asked for, and a missing
// install is one line saying how to add it (src/models/optionalPeer.ts).
import { LLAMA_PEER, loadOptionalPeer, MissingPeerError } from './optionalPeer.ts';
import { ProviderError } from './types.ts';

export type NodeLlamaCpp = typeof import('node-llama-cpp');

/** Imports node-llama-cpp, or throws a ProviderError naming the install command when it is not installed. */
export async function importNodeLlamaCpp(load: () => Promise<NodeLlamaCpp> = () => import('node-llama-cpp')): Promise<NodeLlamaCpp> {
  try {
    return await loadOptionalPeer(LLAMA_PEER, load);
  } catch (error) {
    if (!(error instanceof MissingPeerError)) throw error;
    throw new ProviderError('llama', 'not-found', error.message, { cause: error });
  }
}
