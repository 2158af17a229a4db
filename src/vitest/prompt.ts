// The request an item test sends. For now the bare question; the official MultiLoKo prompts plug in here.
import type { MultiLoKoItem, MultiLoKoSubset } from '../data/index.ts';
import type { GenerateRequest } from '../models/types.ts';

export type ItemPrompt = Pick<GenerateRequest, 'prompt' | 'messages'>;

export function renderItemPrompt(item: MultiLoKoItem, subset: Pick<MultiLoKoSubset, 'file'>): ItemPrompt {
  if (item.question === undefined || item.question.trim() === '') {
    throw new Error(`${subset.file}: item ${JSON.stringify(item.id)} has no "question" to ask`);
  }
  return { prompt: item.question };
}
