// A fake model provider that records every request it gets and answers as the test says: for tests of what reaches a
// model (request shapes, signals), not of what a model answers.
import type { ContinuationRequest, ContinuationResult, GenerateRequest, GenerateResult, ModelProvider } from '../../src/models/types.ts';

export interface RecordingProvider {
  provider: ModelProvider;
  generated: GenerateRequest[];
  scored: ContinuationRequest[];
}

export function recordingProvider(answer: { generate: (request: GenerateRequest) => GenerateResult; score: (request: ContinuationRequest) => ContinuationResult }): RecordingProvider {
  const generated: GenerateRequest[] = [];
  const scored: ContinuationRequest[] = [];
  const provider: ModelProvider = {
    describe: () => ({ provider: 'recording', model: 'fake', settings: {} }),
    generate: async (requests) => {
      generated.push(...requests);
      return requests.map(answer.generate);
    },
    scoreContinuations: async (requests) => {
      scored.push(...requests);
      return requests.map(answer.score);
    },
  };
  return { provider, generated, scored };
}
