// node-llama-cpp is an optional peer dependency: imported only when a llama: model is asked for, and a missing
// install is one line saying how to add it.
import { ProviderError } from './types.ts';

/** The version the llama: provider is built and tested against (package.json peerDependencies). */
export const NODE_LLAMA_CPP_VERSION = '3.21.1';

export type NodeLlamaCpp = typeof import('node-llama-cpp');

/** Imports node-llama-cpp, or throws a ProviderError naming the install command when it is not installed. */
export async function importNodeLlamaCpp(load: () => Promise<NodeLlamaCpp> = () => import('node-llama-cpp')): Promise<NodeLlamaCpp> {
  try {
    return await load();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw error;
    throw new ProviderError(
      'llama',
      'not-found',
      `llama: models need the optional package node-llama-cpp, which is not installed: ` +
        `NODE_LLAMA_CPP_SKIP_DOWNLOAD=true npm install --save-dev node-llama-cpp@${NODE_LLAMA_CPP_VERSION}`,
      { cause: error },
    );
  }
}
