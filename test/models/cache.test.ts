import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { CACHE_HEADER, generateCacheKey, parseCacheMode, scoreCacheKey, withCache } from '../../src/models/cache.ts';
import { startFakeOpenAIServer, toyAnswer } from '../support/fakeOpenAIServer.ts';
import type { ContinuationRequest, GenerateRequest, ModelDescription, ModelProvider } from '../../src/models/types.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'lokal-cache-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let fileCounter = 0;
const freshFile = () => path.join(dir, `cache-${fileCounter++}.jsonl`);

/** A provider that answers from its name and the request, counting calls. */
class CountingProvider implements ModelProvider {
  generateCalls = 0;
  scoreCalls = 0;
  constructor(private readonly model: string, private readonly settings: Record<string, unknown> = {}) {}
  describe(): ModelDescription {
    return { provider: 'stub', model: this.model, revision: 'r1', settings: this.settings };
  }
  async generate(requests: GenerateRequest[]) {
    this.generateCalls += requests.length;
    return requests.map((r) => ({ text: `${this.model}:${r.prompt ?? r.messages?.at(-1)?.content}`, latencyMs: 5, cached: false }));
  }
  async scoreContinuations(requests: ContinuationRequest[]) {
    this.scoreCalls += requests.length;
    return requests.map((r) => ({ logprob: -[...r.continuation].length / 3, tokenCount: [...r.continuation].length, latencyMs: 7, cached: false }));
  }
}

describe('cache keys', () => {
  const base: ModelDescription = { provider: 'p', model: 'm', revision: 'main', settings: { dtype: 'q8' } };
  test('include provider, model, revision, settings and every request field that changes the answer', () => {
    const req: GenerateRequest = { prompt: 'hi', maxNewTokens: 10, stop: ['\n'] };
    const k = generateCacheKey(base, req);
    expect(generateCacheKey({ ...base, model: 'other' }, req)).not.toBe(k);
    expect(generateCacheKey({ ...base, provider: 'q' }, req)).not.toBe(k);
    expect(generateCacheKey({ ...base, revision: 'v2' }, req)).not.toBe(k);
    expect(generateCacheKey({ ...base, settings: { dtype: 'fp32' } }, req)).not.toBe(k);
    expect(generateCacheKey(base, { ...req, prompt: 'hi ' })).not.toBe(k);
    expect(generateCacheKey(base, { ...req, maxNewTokens: 11 })).not.toBe(k);
    expect(generateCacheKey(base, { ...req, stop: [] })).not.toBe(k);
    expect(generateCacheKey(base, { ...req, maxLength: 10 })).not.toBe(k);
    expect(generateCacheKey(base, { messages: [{ role: 'user', content: 'hi' }], maxNewTokens: 10, stop: ['\n'] })).not.toBe(k);
    // the default budget (64 new tokens) is the same request whether spelled out or not; key order is irrelevant
    expect(generateCacheKey(base, { prompt: 'x' })).toBe(generateCacheKey(base, { maxNewTokens: 64, prompt: 'x' }));
    expect(generateCacheKey({ settings: { dtype: 'q8' }, revision: 'main', model: 'm', provider: 'p' }, req)).toBe(k);
    const s = scoreCacheKey(base, { prompt: 'a', continuation: 'b' });
    expect(scoreCacheKey(base, { prompt: 'a', continuation: 'b ' })).not.toBe(s);
    expect(scoreCacheKey(base, { prompt: 'ab', continuation: '' })).not.toBe(scoreCacheKey(base, { prompt: 'a', continuation: 'b' }));
  });

  test('LOKAL_CACHE values', () => {
    expect(parseCacheMode(undefined)).toBe('readwrite');
    expect(parseCacheMode('READ')).toBe('read');
    expect(() => parseCacheMode('yes')).toThrow(/LOKAL_CACHE must be one of off\|read\|write\|readwrite, got "yes"/);
  });
});

describe('withCache', () => {
  test('hits are marked cached with latency 0; a different model misses', async () => {
    const file = freshFile();
    const a = new CountingProvider('model-a');
    const cached = withCache(a, { file, env: {} });
    const first = await cached.generate([{ prompt: 'q1' }, { prompt: 'q2' }, { prompt: 'q1' }]);
    expect(first.map((r) => [r.text, r.cached, r.latencyMs])).toEqual([
      ['model-a:q1', false, 5],
      ['model-a:q2', false, 5],
      ['model-a:q1', false, 5],
    ]);
    expect(a.generateCalls).toBe(2); // duplicate request asked once
    const again = withCache(new CountingProvider('model-a'), { file, env: {} });
    const second = await again.generate([{ prompt: 'q2' }, { prompt: 'q1' }]);
    expect(second.map((r) => [r.text, r.cached, r.latencyMs])).toEqual([
      ['model-a:q2', true, 0],
      ['model-a:q1', true, 0],
    ]);
    const b = new CountingProvider('model-b');
    const third = await withCache(b, { file, env: {} }).generate([{ prompt: 'q1' }]);
    expect(third[0]).toMatchObject({ text: 'model-b:q1', cached: false });
    expect(b.generateCalls).toBe(1);

    const s = new CountingProvider('model-a');
    const scored = withCache(s, { file, env: {} });
    await scored.scoreContinuations([{ prompt: 'p', continuation: 'abc' }]);
    const hit = await withCache(s, { file, env: {} }).scoreContinuations([{ prompt: 'p', continuation: 'abc' }, { prompt: 'p', continuation: 'de' }]);
    expect(hit[0]).toEqual({ logprob: -1, tokenCount: 3, latencyMs: 0, cached: true });
    expect(hit[1]).toMatchObject({ tokenCount: 2, cached: false });
    expect(s.scoreCalls).toBe(2);
  });

  test('modes: off never touches the file, read never writes, write never reads', async () => {
    const file = freshFile();
    const p = new CountingProvider('m');
    await withCache(p, { file, mode: 'off', env: {} }).generate([{ prompt: 'x' }]);
    expect(() => readFileSync(file)).toThrow();
    await withCache(p, { file, mode: 'read', env: {} }).generate([{ prompt: 'x' }]);
    expect(() => readFileSync(file)).toThrow();
    await withCache(p, { file, mode: 'write', env: {} }).generate([{ prompt: 'x' }]);
    await withCache(p, { file, mode: 'write', env: {} }).generate([{ prompt: 'x' }]);
    expect(p.generateCalls).toBe(4);
    // The cache header, then one line per write.
    expect(readFileSync(file, 'utf8').trim().split('\n')).toEqual([CACHE_HEADER, expect.any(String), expect.any(String)]);
    const r = await withCache(p, { file, env: { LOKAL_CACHE: 'read' } }).generate([{ prompt: 'x' }]);
    expect(r[0]!.cached).toBe(true);
    expect(p.generateCalls).toBe(4);
  });

  test('a torn last line is skipped with a warning, cut off, and later lines start cleanly', async () => {
    const file = freshFile();
    const p = new CountingProvider('m');
    await withCache(p, { file, env: {} }).generate([{ prompt: 'a' }, { prompt: 'b' }]);
    appendFileSync(file, '{"key":"0123","kind":"gener');
    const warnings: string[] = [];
    const cached = withCache(p, { file, env: {}, warn: (m) => warnings.push(m) });
    const out = await cached.generate([{ prompt: 'a' }, { prompt: 'c' }]);
    expect(out.map((r) => r.cached)).toEqual([true, false]);
    expect(warnings).toEqual([`${file}:4: skipping a torn last line (an interrupted write); it will be recomputed`]);
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines.at(-1)).toBe('');
    for (const line of lines.slice(0, -1)) expect(() => JSON.parse(line)).not.toThrow();
    expect(lines).toHaveLength(5);
    expect(lines[0]).toBe(CACHE_HEADER);
    // a malformed line in the middle is skipped too, never a crash
    writeFileSync(file, readFileSync(file, 'utf8').replace(`${CACHE_HEADER}\n`, `${CACHE_HEADER}\nnot json\n`));
    const later: string[] = [];
    const again = await withCache(p, { file, env: {}, warn: (m) => later.push(m) }).generate([{ prompt: 'c' }]);
    expect(again[0]!.cached).toBe(true);
    expect(later).toEqual([`${file}:2: skipping a malformed cache line (not a cache entry)`]);
  });

  test('the API key never reaches the cache file', async () => {
    const key = 'sk-cache-test-SECRET-42';
    const server = await startFakeOpenAIServer({ apiKey: key });
    try {
      const { OpenAIProvider } = await import('../../src/models/openai.ts');
      const file = freshFile();
      const provider = withCache(new OpenAIProvider('toy', { baseUrl: server.url, apiKey: key, env: {} }), { file, env: {} });
      await provider.generate([{ prompt: 'k' }]);
      await provider.scoreContinuations([{ prompt: 'k', continuation: 'v' }]);
      const text = readFileSync(file, 'utf8');
      expect(text.trim().split('\n')).toHaveLength(3); // the header and two entries
      expect(text).not.toContain(key);
    } finally {
      await server.close();
    }
  });
});

describe('resume after SIGKILL', () => {
  const child = fileURLToPath(new URL('./cacheResumeChild.ts', import.meta.url));
  const run = (env: Record<string, string>) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', child], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (c) => (stdout += c));
    proc.stderr.on('data', (c) => (stderr += c));
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })));
    return { proc, exited, output: () => ({ stdout, stderr }) };
  };

  test('a run killed half-way and restarted makes zero repeated model calls', async () => {
    const n = 12;
    const killAfter = 5;
    let holding = true;
    let heldArrived: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (heldArrived = resolve));
    const server = await startFakeOpenAIServer({
      // the first run's request number killAfter+1 hangs until the process is killed
      fault: (count) => {
        if (holding && count === killAfter + 1) {
          heldArrived();
          return { kind: 'delay', ms: 60_000 };
        }
        return undefined;
      },
    });
    try {
      const file = freshFile();
      const env = { LOKAL_TEST_SERVER: server.url, LOKAL_TEST_CACHE: file, LOKAL_TEST_N: String(n) };
      const first = run(env);
      await held;
      await new Promise((r) => setTimeout(r, 300));
      first.proc.kill('SIGKILL');
      expect((await first.exited).signal).toBe('SIGKILL');
      expect(server.stats.answered).toBe(killAfter);
      expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(1 + killAfter); // the header and the answers

      holding = false;
      const requestsBefore = server.stats.requests;
      const second = run(env);
      const status = await second.exited;
      expect(status.code, second.output().stderr).toBe(0);
      const results = JSON.parse(second.output().stdout) as Array<{ text: string; cached: boolean }>;
      expect(results.map((r) => r.text)).toEqual(Array.from({ length: n }, (_, i) => toyAnswer(`item ${i}`)));
      expect(results.map((r) => r.cached)).toEqual(Array.from({ length: n }, (_, i) => i < killAfter));
      expect(server.stats.requests - requestsBefore).toBe(n - killAfter);
      expect(server.stats.answered).toBe(n);
      expect([...server.stats.answeredBySignature.values()].every((count) => count === 1)).toBe(true);
    } finally {
      await server.close();
    }
  }, 30_000);
});
