// Counting an item's requests by origin: behind the response cache, a first request asks the model and the same
// request again is a cache hit; scoring requests count one each; a replay model is left as it is.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { withCache } from '../../src/models/cache.ts';
import { countingModel, countingProvider, type CallCounts } from '../../src/models/callCounter.ts';
import type { LokalModel } from '../../src/models/open.ts';
import { providerRow } from '../../src/models/providers.ts';
import type { ModelProvider } from '../../src/models/types.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-calls-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const echo: ModelProvider = {
  describe: () => ({ provider: 'echo', model: 'echo', settings: {} }),
  generate: async (requests) => requests.map((r) => ({ text: String(r.prompt), latencyMs: 1, cached: false })),
  scoreContinuations: async (requests) => requests.map((r) => ({ logprob: -r.continuation.length, tokenCount: 1, latencyMs: 1, cached: false })),
};

test('model answers and cache hits are counted apart; answers pass through unchanged', async () => {
  const cached = withCache(echo, { mode: 'readwrite', file: path.join(dir, 'cache.jsonl') });
  const counts: CallCounts = { model: 0, cached: 0 };
  const provider = countingProvider(cached, counts);
  expect(await provider.generate([{ prompt: 'a' }])).toEqual([{ text: 'a', latencyMs: 1, cached: false }]);
  expect(counts).toEqual({ model: 1, cached: 0 });
  expect(await provider.generate([{ prompt: 'a' }, { prompt: 'b' }])).toEqual([
    { text: 'a', latencyMs: 0, cached: true },
    { text: 'b', latencyMs: 1, cached: false },
  ]);
  expect(counts).toEqual({ model: 2, cached: 1 });
  await provider.scoreContinuations([{ prompt: 'p', continuation: 'xy' }, { prompt: 'p', continuation: 'z' }]);
  await provider.scoreContinuations([{ prompt: 'p', continuation: 'xy' }]);
  expect(counts).toEqual({ model: 4, cached: 2 });
  expect(provider.describe()).toEqual(echo.describe());
});

test('a replay model is not wrapped', () => {
  const counts: CallCounts = { model: 0, cached: 0 };
  const replay: LokalModel = { kind: 'replay', row: providerRow('replay')!, provider: echo, inner: echo, chat: async () => false };
  expect(countingModel(replay, counts)).toBe(replay);
  const local: LokalModel = { ...replay, kind: 'transformers', row: providerRow('transformers')! };
  const counted = countingModel(local, counts);
  expect(counted.provider).not.toBe(echo);
  expect(counted.inner).toBe(echo);
});
