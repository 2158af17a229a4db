// An item's requests carry its test's abort signal: after Ctrl-C (or the item's timeout) it asks the model nothing more.
import type { LokalModel } from './open.ts';
import type { ModelProvider } from './types.ts';

/** The provider with `signal` on every request; a call made once it has aborted throws its reason without asking. */
export function signalledProvider(provider: ModelProvider, signal: AbortSignal): ModelProvider {
  return {
    describe: () => provider.describe(),
    generate: async (requests) => {
      signal.throwIfAborted();
      return provider.generate(requests.map((request) => ({ ...request, signal })));
    },
    scoreContinuations: async (requests) => {
      signal.throwIfAborted();
      return provider.scoreContinuations(requests.map((request) => ({ ...request, signal })));
    },
  };
}

/** The model with its provider signalled; a replay model is returned as it is (it asks nothing). */
export function signalledModel(model: LokalModel, signal: AbortSignal): LokalModel {
  if (model.row.answersFromFile) return model;
  return { ...model, provider: signalledProvider(model.provider, signal) };
}
