// The response cache's record of what the model saw: the request itself is stored as a marker, anything else in full;
// entries from before these fields restore to no usage (the item then records null), and malformed fields are refused.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { isStoredUsage, restoredUsage, storedUsage } from '../../src/models/cachedUsage.ts';
import { generateCacheKey, withCache } from '../../src/models/cache.ts';
import type { GenerateRequest, GenerateResult, ModelProvider } from '../../src/models/types.ts';

const root = mkdtempSync(path.join(tmpdir(), 'lokal-cached-usage-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const messages = [{ role: 'user' as const, content: 'Ciao?' }];

describe('cached usage', () => {
  test('the request itself is stored as "request" and comes back as the request; a rendered prompt is kept whole', () => {
    const plain = storedUsage({ prompt: 'Q: 1+1?' }, { text: '2', latencyMs: 1, cached: false, input: { text: 'Q: 1+1?' }, promptTokens: 7, outputTokens: 2 });
    expect(plain).toEqual({ input: 'request', promptTokens: 7, outputTokens: 2 });
    expect(restoredUsage({ prompt: 'Q: 1+1?' }, plain)).toEqual({ input: { text: 'Q: 1+1?' }, promptTokens: 7, outputTokens: 2 });
    const sent = storedUsage({ messages }, { text: 'Sì', latencyMs: 1, cached: false, input: { messages }, promptTokens: null, outputTokens: null });
    expect(sent).toEqual({ input: 'request', promptTokens: null, outputTokens: null });
    expect(restoredUsage({ messages }, sent)).toEqual({ input: { messages }, promptTokens: null, outputTokens: null });
    const rendered = { text: '<|im_start|>user\nCiao?<|im_end|>\n<|im_start|>assistant\n' };
    expect(storedUsage({ messages }, { text: 'Sì', latencyMs: 1, cached: false, input: rendered, promptTokens: 9, outputTokens: 3 })).toEqual({ input: rendered, promptTokens: 9, outputTokens: 3 });
    // a provider that reports nothing (replay) stores nothing, and nothing comes back
    expect(storedUsage({ prompt: 'x' }, { text: 'y', latencyMs: 0, cached: false })).toEqual({});
    expect(restoredUsage({ prompt: 'x' }, {})).toEqual({});
  });

  test('only well-formed usage fields pass', () => {
    expect(isStoredUsage({})).toBe(true);
    expect(isStoredUsage({ input: 'request', promptTokens: 3, outputTokens: null })).toBe(true);
    expect(isStoredUsage({ input: { messages: [] } })).toBe(true);
    expect(isStoredUsage({ input: 'other' })).toBe(false);
    expect(isStoredUsage({ input: { text: 3 } })).toBe(false);
    expect(isStoredUsage({ promptTokens: -1 })).toBe(false);
    expect(isStoredUsage({ outputTokens: 1.5 })).toBe(false);
  });

  test('a cache line written before these fields is still a hit, without usage; a malformed one is skipped and recomputed', async () => {
    let calls = 0;
    const inner: ModelProvider = {
      describe: () => ({ provider: 'toy', model: 'm', settings: {} }),
      generate: async (requests: GenerateRequest[]): Promise<GenerateResult[]> =>
        requests.map((r) => (calls++, { text: 'fresh', latencyMs: 1, cached: false, input: { text: r.prompt! }, promptTokens: 4, outputTokens: 1 })),
      scoreContinuations: async () => [],
    };
    const old: GenerateRequest = { prompt: 'old' };
    const bad: GenerateRequest = { prompt: 'bad' };
    const file = path.join(root, 'cache.jsonl');
    const key = (r: GenerateRequest) => generateCacheKey(inner.describe(), r);
    writeFileSync(
      file,
      `${JSON.stringify({ key: key(old), kind: 'generate', text: 'from before', latencyMs: 5 })}\n` +
        `${JSON.stringify({ key: key(bad), kind: 'generate', text: 'broken', latencyMs: 5, promptTokens: 'many' })}\n`,
    );
    const warnings: string[] = [];
    const [a, b] = await withCache(inner, { file, mode: 'readwrite', warn: (m) => warnings.push(m) }).generate([old, bad]);
    expect(a).toEqual({ text: 'from before', latencyMs: 0, cached: true });
    expect(b).toMatchObject({ text: 'fresh', cached: false, promptTokens: 4 });
    expect(calls).toBe(1);
    expect(warnings).toEqual([expect.stringContaining(':2: skipping a malformed cache line')]);
  });
});
