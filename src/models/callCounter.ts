// How one item's requests were answered: by the model or from the response cache (the progress line and its "asked
// the model / from the cache" counts read it from the item test's meta).
import type { LokalModel } from './open.ts';
import type { ModelProvider } from './types.ts';

/** Requests of one item: answered by the model, and from the response cache. */
export interface CallCounts {
  model: number;
  cached: number;
}

/** The provider with every answer counted into `counts` (by its `cached` flag); nothing else changes. */
export function countingProvider(provider: ModelProvider, counts: CallCounts): ModelProvider {
  const count = <T extends { cached: boolean }>(results: T[]): T[] => {
    for (const result of results) {
      if (result.cached) counts.cached++;
      else counts.model++;
    }
    return results;
  };
  return {
    describe: () => provider.describe(),
    generate: async (requests) => count(await provider.generate(requests)),
    scoreContinuations: async (requests) => count(await provider.scoreContinuations(requests)),
  };
}

/** The model with its provider counted; a replay model is returned as it is (it neither asks a model nor caches). */
export function countingModel(model: LokalModel, counts: CallCounts): LokalModel {
  if (model.row.answersFromFile) return model;
  return { ...model, provider: countingProvider(model.provider, counts) };
}
