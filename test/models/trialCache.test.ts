// Trials over openai: the sampling fields sent (and not sent when unset), and the response cache keeping each trial
// apart: a rerun asks nothing, raising k asks only the new trials, no trial is answered from another's entry.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { generateCacheKey, withCache } from '../../src/models/cache.ts';
import { OpenAIProvider } from '../../src/models/openai.ts';
import { trialRequest, type TrialDecoding } from '../../src/models/trialRequest.ts';
import type { GenerateRequest, ModelDescription } from '../../src/models/types.ts';
import { startFakeOpenAIServer } from '../support/fakeOpenAIServer.ts';
import { freePort } from '../support/freePort.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'lokal-trial-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('trial requests', () => {
  test('trial 0 without decoding settings is the request itself; later trials carry their index and seed', () => {
    const request: GenerateRequest = { prompt: 'p', maxNewTokens: 8 };
    expect(trialRequest(request, {}, 'item-1', 0)).toEqual(request);
    expect(trialRequest(request, {}, 'item-1', 2)).toEqual({ ...request, trial: 2 });
    // Seeds as test/core/trialSeed.test.ts gives them (sha256sum of [42,"item-1",t]).
    expect(trialRequest(request, { temperature: 0.7, topP: 0.9, seed: 42 }, 'item-1', 1)).toEqual({ ...request, temperature: 0.7, topP: 0.9, seed: 4238178839, trial: 1 });
    expect(trialRequest(request, { seed: 42 }, 'item-1', 0)).toEqual({ ...request, seed: 155638343 });
  });

  test("a request without trial settings keeps the cache key it had before trials (its canonical JSON hashed by hand)", () => {
    const model: ModelDescription = { provider: 'p', model: 'm', revision: 'main', settings: { dtype: 'q8' } };
    const canonical = '{"kind":"generate","maxNewTokens":10,"model":{"model":"m","provider":"p","revision":"main","settings":{"dtype":"q8"}},"prompt":"hi","stop":["\\n"],"v":1}';
    const request: GenerateRequest = { prompt: 'hi', maxNewTokens: 10, stop: ['\n'] };
    expect(generateCacheKey(model, trialRequest(request, {}, 'x', 0))).toBe(createHash('sha256').update(canonical).digest('hex'));
    const keys = new Set([0, 1, 2].flatMap((t) => [{}, { temperature: 1 }, { temperature: 1, seed: 3 }, { topP: 0.5 }].map((d) => generateCacheKey(model, trialRequest(request, d, 'x', t)))));
    expect(keys.size).toBe(12);
  });
});

describe('trials over a fake OpenAI server', () => {
  /** The server's answer: the seed it was sent, so an answer served for the wrong trial shows. */
  // One port for every server of the file: the server's URL is part of the model's identity in the cache key.
  let port: number | undefined;
  async function run(k: number, decoding: TrialDecoding, file: string, items = ['a', 'b', 'c']) {
    const bodies: Array<Record<string, unknown>> = [];
    port ??= await freePort();
    const server = await startFakeOpenAIServer({
      port,
      answer: (_prompt, body) => `seed ${String(body.seed)} t ${String(body.temperature)}`,
      fault: (_n, body) => void bodies.push(body),
    });
    try {
      const provider = withCache(new OpenAIProvider('toy', { baseUrl: server.url, apiKey: 'sk-trial-test-key', env: {} }), { file, env: {} });
      const requests = items.flatMap((id) => Array.from({ length: k }, (_, t) => trialRequest({ prompt: `question ${id}` }, decoding, id, t)));
      const answers = await provider.generate(requests);
      return { bodies, answers: answers.map((a) => a.text), requests };
    } finally {
      await server.close();
    }
  }

  test('no trial settings: the body sends temperature 0 and neither top_p nor seed, as before', async () => {
    const { bodies } = await run(1, {}, path.join(dir, 'plain.jsonl'));
    expect(bodies).toHaveLength(3);
    for (const body of bodies) {
      expect(body.temperature).toBe(0);
      expect('top_p' in body || 'seed' in body).toBe(false);
    }
  });

  test('sampling settings are sent; a rerun asks nothing; raising k from 4 to 6 asks only trials 5 and 6', async () => {
    const file = path.join(dir, 'sampled.jsonl');
    const decoding = { temperature: 0.8, topP: 0.95, seed: 42 };
    const first = await run(4, decoding, file);
    expect(first.bodies).toHaveLength(12);
    expect(first.bodies.every((b) => b.temperature === 0.8 && b.top_p === 0.95)).toBe(true);
    expect(first.bodies.map((b) => b.seed).sort()).toEqual(first.requests.map((r) => r.seed).sort());
    // Each trial's answer names its own seed: no trial is answered with another's.
    expect(first.answers).toEqual(first.requests.map((r) => `seed ${r.seed} t 0.8`));
    const again = await run(4, decoding, file);
    expect(again.bodies).toHaveLength(0);
    expect(again.answers).toEqual(first.answers);
    const more = await run(6, decoding, file);
    expect(more.bodies).toHaveLength(6);
    const newSeeds = more.requests.filter((r) => (r.trial ?? 0) >= 4).map((r) => r.seed).sort();
    expect(more.bodies.map((b) => b.seed).sort()).toEqual(newSeeds);
    expect(more.answers).toEqual(more.requests.map((r) => `seed ${r.seed} t 0.8`));
  });

  test('greedy trials without a seed are each their own entry too (to measure a non-deterministic server)', async () => {
    const file = path.join(dir, 'greedy.jsonl');
    expect((await run(1, {}, file)).bodies).toHaveLength(3);
    // Trial 0 is the entry of the run with k = 1; trials 2 and 3 are new.
    expect((await run(3, {}, file)).bodies).toHaveLength(6);
    expect((await run(3, {}, file)).bodies).toHaveLength(0);
  });
});
