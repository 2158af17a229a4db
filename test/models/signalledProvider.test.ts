// signalledProvider: an item's requests carry its stop signal, and none is made once it has aborted.
import { describe, expect, test } from 'vitest';
import { signalledModel, signalledProvider } from '../../src/models/signalledProvider.ts';
import type { LokalModel } from '../../src/models/open.ts';
import { providerRow } from '../../src/models/providers.ts';
import { recordingProvider } from '../support/recordingProvider.ts';

/** A provider that records the requests it gets. */
const recording = () =>
  recordingProvider({
    generate: () => ({ text: 'ok', latencyMs: 0, cached: false }),
    score: () => ({ logprob: -1, tokenCount: 1, latencyMs: 0, cached: false }),
  });

describe('signalledProvider', () => {
  test('each request goes on with the signal and its own fields; after the abort nothing reaches the provider', async () => {
    const { provider, generated, scored } = recording();
    const stop = new AbortController();
    const signalled = signalledProvider(provider, stop.signal);
    expect(signalled.describe()).toEqual(provider.describe());
    await signalled.generate([{ prompt: 'p', maxNewTokens: 3, itemKey: 'k' }]);
    await signalled.scoreContinuations([{ prompt: 'p', continuation: ' c' }]);
    expect(generated).toEqual([{ prompt: 'p', maxNewTokens: 3, itemKey: 'k', signal: stop.signal }]);
    expect(scored).toEqual([{ prompt: 'p', continuation: ' c', signal: stop.signal }]);
    const reason = new Error('cancelled');
    stop.abort(reason);
    await expect(signalled.generate([{ prompt: 'later' }])).rejects.toBe(reason);
    await expect(signalled.scoreContinuations([{ prompt: 'later', continuation: ' c' }])).rejects.toBe(reason);
    expect([generated.length, scored.length]).toEqual([1, 1]);
  });

  test('a replay model is returned as it is; another model gets the signalled provider', () => {
    const { provider } = recording();
    const signal = new AbortController().signal;
    const replay: LokalModel = { kind: 'replay', row: providerRow('replay')!, provider, inner: provider, chat: async () => false };
    expect(signalledModel(replay, signal)).toBe(replay);
    const served: LokalModel = { ...replay, kind: 'openai', row: providerRow('openai')! };
    const wrapped = signalledModel(served, signal);
    expect(wrapped.provider).not.toBe(provider);
    expect(wrapped.inner).toBe(provider);
  });
});
