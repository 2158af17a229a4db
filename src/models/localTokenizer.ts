// A transformers.js tokenizer loaded from a folder on disk (tokenizer.json, tokenizer_config.json) with downloads off,
// for counting prompt tokens without a model (`lokal plan`); a missing or broken one is one line naming the folder.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { PromptTokenizer } from './promptTokens.ts';

/** A tokenizer folder that cannot be used: the message names the folder and what is wrong. */
export class TokenizerFolderError extends Error {
  override name = 'TokenizerFolderError';
}

/** The tokenizer of `folder`, read from its files only (AutoTokenizer with local_files_only; nothing is downloaded). */
export async function loadLocalTokenizer(folder: string): Promise<PromptTokenizer> {
  const where = path.resolve(folder);
  if (!existsSync(where) || !statSync(where).isDirectory()) throw new TokenizerFolderError(`tokenizer folder ${where} does not exist`);
  if (!existsSync(path.join(where, 'tokenizer.json'))) throw new TokenizerFolderError(`tokenizer folder ${where} has no tokenizer.json (a Hugging Face tokenizer folder holds tokenizer.json and tokenizer_config.json)`);
  let transformers: typeof import('@huggingface/transformers');
  try {
    transformers = await import('@huggingface/transformers');
  } catch {
    throw new TokenizerFolderError(`reading the tokenizer in ${where} needs the package @huggingface/transformers: npm install @huggingface/transformers`);
  }
  const { AutoTokenizer, env } = transformers;
  const allowRemote = env.allowRemoteModels;
  const allowLocal = env.allowLocalModels;
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  try {
    return (await AutoTokenizer.from_pretrained(where, { local_files_only: true })) as unknown as PromptTokenizer;
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    throw new TokenizerFolderError(`tokenizer folder ${where} could not be read: ${reason}`);
  } finally {
    env.allowRemoteModels = allowRemote;
    env.allowLocalModels = allowLocal;
  }
}
