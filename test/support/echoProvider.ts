// A model that answers `echo:<prompt>` and scores every continuation 0, counting its calls: for tests of the response
// cache, where what matters is whether the model was asked.
import type { ContinuationRequest, GenerateRequest, ModelDescription, ModelProvider } from '../../src/models/types.ts';

export class EchoProvider implements ModelProvider {
  calls = 0;
  describe(): ModelDescription {
    return { provider: 'stub', model: 'echo', settings: {} };
  }
  async generate(requests: GenerateRequest[]) {
    this.calls += requests.length;
    return requests.map((r) => ({ text: `echo:${r.prompt}`, latencyMs: 1, cached: false }));
  }
  async scoreContinuations(requests: ContinuationRequest[]) {
    return requests.map(() => ({ logprob: 0, tokenCount: 0, latencyMs: 0, cached: false }));
  }
}
