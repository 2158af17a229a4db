// Several OpenAI-compatible servers behind one provider (OPENAI_BASE_URL lists them): real HTTP servers on 127.0.0.1.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest';
import { startFakeOpenAIServer, toyAnswer, type Fault, type FakeServer, type FakeServerOptions } from '../support/fakeOpenAIServer.ts';
import { freePort } from '../support/freePort.ts';
import { OpenAIProvider, type OpenAIProviderOptions } from '../../src/models/openai.ts';
import { probeProvider } from '../../src/models/probe.ts';
import { CACHE_HEADER, withCache } from '../../src/models/cache.ts';
import { DEFAULT_MAX_NEW_TOKENS, ProviderError } from '../../src/models/types.ts';
import { ServerDropped, ServerPool, type Lease, type PoolServer } from '../../src/models/serverPool.ts';
import { KALAHI_SETTINGS } from '../../src/benchmarks/kalahi/settings.ts';
import { MULTILOKO_SETTINGS } from '../../src/benchmarks/multiloko/settings.ts';
import { resolveSettingsTree } from '../../src/core/settings.ts';

const FAST_RETRY = { baseDelayMs: 5, maxDelayMs: 20, timeoutMs: 5_000 };
const tmp = mkdtempSync(path.join(os.tmpdir(), 'lokal-pool-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function serve(options: FakeServerOptions = {}): Promise<FakeServer> {
  const server = await startFakeOpenAIServer(options);
  servers.push(server);
  return server;
}

const pool = (urls: string[], options: OpenAIProviderOptions = {}) =>
  new OpenAIProvider('toy-model', { baseUrl: urls.join(','), env: {}, retry: FAST_RETRY, ...options });

const prompts = (n: number, tag = 'q') => Array.from({ length: n }, (_, i) => ({ prompt: `${tag} ${i}`, maxNewTokens: 40, itemKey: `${tag}/${i}` }));

function countBy(values: Array<string | undefined>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[String(v)] = (out[String(v)] ?? 0) + 1;
  return out;
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ProviderError);
    return error as ProviderError;
  }
  throw new Error('expected a ProviderError');
}

describe('ServerPool slots', () => {
  const flush = () => new Promise((resolve) => setImmediate(resolve));
  const answering = async () => undefined;

  test('one server: waiting requests start by priority, then arrival; at most `concurrency` at once', async () => {
    const p = new ServerPool(['http://127.0.0.1:1/v1'], { concurrency: 2, baseDelayMs: 5, maxDelayMs: 20, probe: answering });
    const started: string[] = [];
    const held = new Map<string, Lease>();
    const ask = (name: string, priority?: number) => void p.acquire(priority).then((lease) => (started.push(name), held.set(name, lease)));
    ask('a', 0);
    ask('b', 1);
    ask('plain 1');
    ask('c', 2);
    ask('a again', 0);
    ask('b again', 1);
    ask('plain 2');
    await flush();
    expect(started).toEqual(['a', 'b']);
    for (const name of ['a', 'b', 'a again', 'b again', 'c', 'plain 1', 'plain 2']) {
      p.release(held.get(name)!);
      await flush();
      expect(p.active).toBeLessThanOrEqual(2);
    }
    expect(started).toEqual(['a', 'b', 'a again', 'b again', 'c', 'plain 1', 'plain 2']);
    expect(p.active).toBe(0);
  });

  test('a dropped server: its requests in flight are stopped, it is probed after a backoff doubling per failure, then taken back', async () => {
    const lines: string[] = [];
    const probes: number[] = [];
    let answer: string | undefined = 'GET /models: fetch failed';
    const started = performance.now();
    const p = new ServerPool(['http://127.0.0.1:1/v1', 'http://127.0.0.1:2/v1'], {
      concurrency: 2,
      baseDelayMs: 40,
      maxDelayMs: 100,
      log: (line) => lines.push(line),
      probe: async () => (probes.push(performance.now() - started), answer),
    });
    const [a, b] = p.servers as [PoolServer, PoolServer];
    const leases = [await p.acquire(), await p.acquire(), await p.acquire()];
    expect(leases.map((l) => l.server)).toEqual([a, b, a]);
    p.failed(a, 'HTTP 503');
    // Both of a's requests in flight are stopped, with the reason that names the server; b's goes on.
    expect(leases.map((l) => l.signal.aborted)).toEqual([true, false, true]);
    expect(leases[0]!.signal.reason).toBeInstanceOf(ServerDropped);
    expect((leases[0]!.signal.reason as Error).message).toBe('http://127.0.0.1:1/v1 was dropped from the pool (HTTP 503)');
    // A second failure reported while it is down (another request in flight on it) changes nothing and prints nothing.
    p.failed(a, 'HTTP 502');
    expect(lines).toEqual(['lokal: server http://127.0.0.1:1/v1 dropped from the pool (HTTP 503); its requests go to the other servers, and it is asked again in 0.04 s']);
    for (const lease of leases) p.release(lease);
    expect([(await p.acquire()).server, (await p.acquire()).server]).toEqual([b, b]);
    // Probes at 40 ms (fails), then 80 ms later (fails), then 100 ms later (the cap) it answers.
    await vi.waitFor(() => expect(probes).toHaveLength(2), { timeout: 2_000, interval: 5 });
    expect(a.down).toBe(true);
    answer = undefined;
    await vi.waitFor(() => expect(lines).toHaveLength(2), { timeout: 2_000, interval: 5 });
    expect(probes).toHaveLength(3);
    expect(probes[0]).toBeGreaterThanOrEqual(39);
    expect(probes[1]! - probes[0]!).toBeGreaterThanOrEqual(79);
    expect(probes[2]! - probes[1]!).toBeGreaterThanOrEqual(99);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('lokal: server http://127.0.0.1:1/v1 is back in the pool (it answers again)');
    expect([a.down, a.failures]).toEqual([false, 3]);
    // b holds two requests: the next goes to a, now back.
    expect((await p.acquire()).server).toBe(a);
    p.succeeded(a);
    expect(a.failures).toBe(0);
  });

  test('every server down: requests waiting and new ones fail at once, naming each server and its error', async () => {
    const p = new ServerPool(['http://127.0.0.1:1/v1', 'http://127.0.0.1:2/v1'], { concurrency: 1, baseDelayMs: 60_000, maxDelayMs: 60_000, log: () => undefined, probe: answering });
    const [a, b] = p.servers as [PoolServer, PoolServer];
    await p.acquire();
    await p.acquire();
    const waiting = p.acquire().then(
      () => 'started',
      (error: Error) => error.message,
    );
    p.failed(a, 'HTTP 500');
    await flush();
    p.failed(b, 'fetch failed (ECONNREFUSED)');
    const message = '[openai] every server of the pool is down: http://127.0.0.1:1/v1: HTTP 500; http://127.0.0.1:2/v1: fetch failed (ECONNREFUSED)';
    expect(await waiting).toBe(message);
    await expect(p.acquire()).rejects.toThrow(message);
    expect([a.down, b.down]).toEqual([true, true]);
  });
});

describe('a pool of servers', () => {
  test('requests land on both servers, and each result names the server that answered it', async () => {
    const a = await serve({ latencyMs: 20 });
    const b = await serve({ latencyMs: 20 });
    const provider = pool([a.url, b.url], { concurrency: 3 });
    const results = await provider.generate(prompts(24));
    results.forEach((r, i) => expect(r.text).toBe(toyAnswer(`q ${i}`)));
    const counts = countBy(results.map((r) => r.server));
    expect(counts).toEqual({ [a.url]: a.stats.answered, [b.url]: b.stats.answered });
    expect(a.stats.answered).toBeGreaterThan(0);
    expect(b.stats.answered).toBeGreaterThan(0);
    expect(a.stats.answered + b.stats.answered).toBe(24);
    // LOKAL_CONCURRENCY counts per server.
    expect(a.stats.maxInFlight).toBeLessThanOrEqual(3);
    expect(b.stats.maxInFlight).toBeLessThanOrEqual(3);
    expect(provider.describe().settings.baseUrl).toBe(`${a.url},${b.url}`);
  });

  test('the least busy server gets the request: a slow server answers fewer', async () => {
    const slow = await serve({ latencyMs: 250 });
    const fast = await serve({ latencyMs: 5 });
    const results = await pool([slow.url, fast.url], { concurrency: 2 }).generate(prompts(40));
    expect(results.every((r, i) => r.text === toyAnswer(`q ${i}`))).toBe(true);
    expect(slow.stats.answered + fast.stats.answered).toBe(40);
    expect(fast.stats.answered).toBeGreaterThan(3 * slow.stats.answered);
  });

  test('a server killed midway: every item is still answered, by the server its record names', async () => {
    let a: FakeServer;
    let closing: Promise<void> | undefined;
    a = await serve({
      latencyMs: 30,
      // After its 6th request the server goes away, with requests in flight.
      fault: (n) => {
        if (n === 6) closing = a.close();
        return undefined;
      },
    });
    const b = await serve({ latencyMs: 30 });
    const retries: string[] = [];
    const provider = pool([a.url, b.url], { concurrency: 4, onRetry: (info) => retries.push(info.reason) });
    const results = await provider.generate(prompts(30));
    await closing;
    results.forEach((r, i) => expect(r.text).toBe(toyAnswer(`q ${i}`)));
    const counts = countBy(results.map((r) => r.server));
    expect(Object.keys(counts).sort()).toEqual([a.url, b.url].sort());
    expect(counts[b.url]).toBe(b.stats.answered);
    expect(counts[a.url]).toBeLessThanOrEqual(a.stats.answered);
    expect(counts[a.url]! + counts[b.url]!).toBe(30);
    expect(retries.some((reason) => reason.includes(a.url) && reason.endsWith('(asking another server)'))).toBe(true);
  });

  test('a server answering 503 is left out for a backoff: its requests go to the other server at once', async () => {
    const broken = await serve({ fault: () => ({ kind: 'status', status: 503 }) });
    const b = await serve({ latencyMs: 10 });
    const provider = pool([broken.url, b.url], { concurrency: 2, retry: { ...FAST_RETRY, baseDelayMs: 60_000, maxDelayMs: 60_000 } });
    const results = await provider.generate(prompts(20));
    expect(results.every((r, i) => r.server === b.url && r.text === toyAnswer(`q ${i}`))).toBe(true);
    // Asked once per slot before the first failure marked it: not once per request, and never retried in place.
    expect(broken.stats.requests).toBeLessThanOrEqual(2);
    expect(provider.pool.servers[0]!.lastError).toMatch(/HTTP 503: injected 503$/u);
  });

  test('a server that stops answering (a timeout) is left out: its requests are answered by the other', async () => {
    const hung = await serve({ latencyMs: 3_000 });
    const b = await serve({ latencyMs: 5 });
    const started = performance.now();
    const provider = pool([hung.url, b.url], { concurrency: 2, retry: { ...FAST_RETRY, timeoutMs: 200, baseDelayMs: 60_000, maxDelayMs: 60_000 } });
    const results = await provider.generate(prompts(10));
    expect(results.every((r, i) => r.server === b.url && r.text === toyAnswer(`q ${i}`))).toBe(true);
    expect(hung.stats.requests).toBeLessThanOrEqual(2);
    expect(provider.pool.servers[0]!.lastError).toMatch(/no complete response within \d+ ms$/u);
    expect(performance.now() - started).toBeLessThan(2_500);
  });

  test('a dropped server\'s requests in flight move at once: they do not wait for their own timeout', async () => {
    // The first request fails fast with a 503; the other, in flight on the same server, would hang for 5 s.
    const failing = await serve({ fault: (n) => (n === 1 ? { kind: 'status', status: 503 } : { kind: 'delay', ms: 5_000 }) });
    const b = await serve({ latencyMs: 5 });
    const lines: string[] = [];
    const provider = pool([failing.url, b.url], { concurrency: 2, log: (line) => lines.push(line), retry: { ...FAST_RETRY, timeoutMs: 10_000, baseDelayMs: 60_000, maxDelayMs: 60_000 } });
    const started = performance.now();
    // Four at once, two on each server (least busy first): the failing server holds the fast 503 and the hanging one.
    const results = await provider.generate(prompts(4));
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(results.every((r, i) => r.server === b.url && r.text === toyAnswer(`q ${i}`))).toBe(true);
    expect(failing.stats.requests).toBe(2);
    expect(lines).toEqual([`lokal: server ${failing.url} dropped from the pool (POST ${failing.url}/completions failed after 1 attempt: HTTP 503: injected 503); its requests go to the other servers, and it is asked again in 60 s`]);
  });

  test('an answer about the request itself (HTTP 400) is not moved: the item fails with it, and no server is dropped', async () => {
    const refuses = (_n: number, body: Record<string, unknown>): Fault | undefined =>
      body.prompt === 'q 0' ? { kind: 'status', status: 400, body: JSON.stringify({ error: { message: 'prompt too long' } }) } : undefined;
    const a = await serve({ fault: refuses });
    const b = await serve({ fault: refuses });
    const lines: string[] = [];
    const provider = pool([a.url, b.url], { log: (line) => lines.push(line) });
    const error = await failure(provider.generate(prompts(1)));
    expect(error.message).toMatch(/failed with HTTP 400: prompt too long$/u);
    expect(a.stats.requests + b.stats.requests).toBe(1);
    expect(provider.pool.servers.map((s) => s.down)).toEqual([false, false]);
    expect(lines).toEqual([]);
  });

  test('every server failing a request: it fails once, naming each server\'s error, after one attempt on each', async () => {
    const a = await serve({ fault: () => ({ kind: 'status', status: 502 }) });
    const b = await serve({ fault: () => ({ kind: 'status', status: 500 }) });
    const provider = pool([a.url, b.url], { log: () => undefined, retry: { ...FAST_RETRY, baseDelayMs: 60_000, maxDelayMs: 60_000 } });
    const error = await failure(provider.generate(prompts(1)));
    expect(error.message).toBe(
      `[openai] request 0 (q/0): every server of the pool failed: POST ${a.url}/completions failed after 1 attempt: HTTP 502: injected 502; POST ${b.url}/completions failed after 1 attempt: HTTP 500: injected 500`,
    );
    expect([a.stats.requests, b.stats.requests]).toEqual([1, 1]);
    // Both are down now: the next request fails at once with each server's last error, asking neither.
    const next = await failure(provider.generate(prompts(2)));
    expect(next.message).toMatch(/^\[openai\] request \d \(q\/\d\): every server of the pool is down: /u);
    expect(next.message).toContain(`${a.url}: POST ${a.url}/completions failed after 1 attempt: HTTP 502: injected 502`);
    expect([a.stats.requests, b.stats.requests]).toEqual([1, 1]);
  });

  test('501 Not Implemented is what the server lacks, not a failure of the server: scoring is unsupported, as on one server', async () => {
    const noEcho = (_n: number, body: Record<string, unknown>): Fault | undefined =>
      body.echo ? { kind: 'status', status: 501, body: JSON.stringify({ error: { message: 'echo is not implemented' } }) } : undefined;
    const a = await serve({ fault: noEcho });
    const b = await serve({ fault: noEcho });
    const provider = pool([a.url, b.url], { retry: { ...FAST_RETRY, maxRetries: 0 } });
    const error = await failure(provider.scoreContinuations([{ prompt: 'p ', continuation: 'x' }]));
    expect(error.kind).toBe('unsupported');
    expect(error.message).toContain('HTTP 501: echo is not implemented');
    expect(provider.pool.servers.every((s) => s.failures === 0)).toBe(true);
    expect((await provider.generate(prompts(2))).every((r) => r.server !== undefined)).toBe(true);
  });

  test('a cache hit is served whichever server gave the answer, and records no server', async () => {
    const a = await serve();
    const b = await serve();
    const file = path.join(tmp, 'pool-cache.jsonl');
    const first = await withCache(pool([a.url, b.url], { concurrency: 2 }), { file, env: {} }).generate(prompts(12));
    expect(new Set(first.map((r) => r.server))).toEqual(new Set([a.url, b.url]));
    const asked = a.stats.requests + b.stats.requests;
    // The answers of the server now gone are served from the cache as well as the others'.
    await a.close();
    const again = await withCache(pool([a.url, b.url], { concurrency: 2 }), { file, env: {} }).generate(prompts(12));
    expect(again.map((r) => r.text)).toEqual(first.map((r) => r.text));
    expect(again.every((r) => r.cached && r.server === undefined)).toBe(true);
    expect(a.stats.requests + b.stats.requests).toBe(asked);
  });

  test('the cache key names the model, not the pool: another list of servers, or one of them alone, asks nothing', async () => {
    const [a, b, c] = [await serve(), await serve(), await serve()];
    const file = path.join(tmp, 'pool-lists.jsonl');
    const cached = (urls: string[]) => withCache(pool(urls, { concurrency: 2 }), { file, env: {} });
    const first = await cached([a.url, b.url]).generate(prompts(8));
    const scored = await cached([a.url, b.url]).scoreContinuations([{ prompt: 'p ', continuation: 'ok' }]);
    const asked = () => a.stats.requests + b.stats.requests + c.stats.requests;
    const before = asked();
    for (const urls of [[a.url, c.url], [c.url, b.url, a.url], [c.url]]) {
      const again = cached(urls);
      expect((await again.generate(prompts(8))).map((r) => r.text)).toEqual(first.map((r) => r.text));
      expect((await again.scoreContinuations([{ prompt: 'p ', continuation: 'ok' }]))[0]!.logprob).toBe(scored[0]!.logprob);
      expect(again.stats).toEqual({ hits: 9, misses: 0, written: 0 });
    }
    expect(asked()).toBe(before);
    // Another model is another key, whatever the servers.
    const other = withCache(new OpenAIProvider('other-model', { baseUrl: `${a.url},${b.url}`, env: {}, retry: FAST_RETRY }), { file, env: {} });
    await other.generate(prompts(1));
    expect(other.stats).toMatchObject({ hits: 0, misses: 1 });
  });

  test("a single server's cache file stays valid: its key is unchanged, and a pool holding that server reads it", async () => {
    const [a, b] = [await serve(), await serve()];
    const file = path.join(tmp, 'single-server.jsonl');
    // The key as one server has always written it: sha256 of the sorted JSON of the model (its URL in the settings) and the request.
    const body = `{"kind":"generate","maxNewTokens":40,"model":{"model":"toy-model","provider":"openai","revision":null,"settings":{"baseUrl":"${a.url}","defaultMaxNewTokens":${DEFAULT_MAX_NEW_TOKENS},"temperature":0}},"prompt":"q 0","stop":[],"v":1}`;
    const key = createHash('sha256').update(body).digest('hex');
    writeFileSync(file, `${CACHE_HEADER}\n${JSON.stringify({ key, kind: 'generate', text: 'from the old cache', latencyMs: 3 })}\n`);
    const alone = withCache(pool([a.url]), { file, env: {}, mode: 'read' });
    expect((await alone.generate(prompts(1)))[0]!.text).toBe('from the old cache');
    const pooled = withCache(pool([b.url, a.url]), { file, env: {} });
    expect((await pooled.generate(prompts(1)))[0]!.text).toBe('from the old cache');
    expect(a.stats.requests + b.stats.requests).toBe(0);
    // Another single server wrote nothing this one can use.
    const elsewhere = withCache(pool([b.url]), { file, env: {}, mode: 'read' });
    expect((await elsewhere.generate(prompts(1)))[0]!.text).toBe(toyAnswer('q 0'));
    expect(b.stats.requests).toBe(1);
  });

  test('scoring requests spread too, and name their server', async () => {
    const a = await serve();
    const b = await serve();
    const results = await pool([a.url, b.url], { concurrency: 1 }).scoreContinuations(
      Array.from({ length: 8 }, (_, i) => ({ prompt: `p${i} `, continuation: 'ok', itemKey: `s/${i}` })),
    );
    expect(results.every((r) => r.tokenCount === 2 && (r.server === a.url || r.server === b.url))).toBe(true);
    expect(a.stats.answered).toBeGreaterThan(0);
    expect(b.stats.answered).toBeGreaterThan(0);
  });

  test('one server: results carry no server field (the fingerprint names it)', async () => {
    const a = await serve();
    const [result] = await pool([a.url]).generate(prompts(1));
    expect(result!.server).toBeUndefined();
  });
});

describe('the pool at the start of a run', () => {
  test('servers serving different model ids are refused in one line naming each, unless allowed', async () => {
    const a = await serve({ models: ['toy-model'] });
    const b = await serve({ models: ['other-model', 'third-model'] });
    const error = await failure(probeProvider('openai', pool([a.url, b.url])));
    expect(error.kind).toBe('config');
    expect(error.message).toBe(
      `[openai] the servers of OPENAI_BASE_URL serve different models: ${a.url} serves toy-model; ${b.url} serves other-model, third-model: give servers of one model, or set LOKAL_ALLOW_MIXED_SERVERS=1`,
    );
    expect(error.message).not.toContain('\n');
    const allowed = await probeProvider('openai', new OpenAIProvider('toy-model', { baseUrl: `${a.url},${b.url}`, env: { LOKAL_ALLOW_MIXED_SERVERS: '1' } }));
    expect(allowed).toEqual([
      { server: a.url, serves: 'toy-model' },
      { server: b.url, serves: 'other-model, third-model' },
    ]);
  });

  test('servers that all list the model asked for pass, whatever else they list; one without GET /models is not compared', async () => {
    const a = await serve({ models: ['toy-model'] });
    const b = await serve({ models: ['llama', 'toy-model'] });
    const c = await serve({ models: null });
    const checks = await probeProvider('openai', pool([a.url, b.url, c.url]));
    expect(checks).toEqual([
      { server: a.url, serves: 'toy-model' },
      { server: b.url, serves: 'toy-model' },
      { server: c.url, unlisted: 'GET /models: HTTP 404' },
    ]);
  });

  test('a server down at the start is left out; the run goes on with the others', async () => {
    const down = `http://127.0.0.1:${await freePort()}/v1`;
    const b = await serve();
    const provider = pool([down, b.url], { concurrency: 2 });
    const checks = await probeProvider('openai', provider, { refusedWaitMs: 200 });
    expect(checks![0]!.down).toMatch(/^nothing accepts connections at http:\/\/127\.0\.0\.1:\d+\/v1 \(ECONNREFUSED/);
    const results = await provider.generate(prompts(6));
    expect(results.every((r) => r.server === b.url)).toBe(true);
  });

  test('all servers down: one error naming each server', async () => {
    const urls = [`http://127.0.0.1:${await freePort()}/v1`, `http://127.0.0.1:${await freePort()}/v1`];
    const error = await failure(probeProvider('openai', pool(urls), { refusedWaitMs: 200 }));
    expect(error.kind).toBe('network');
    expect(error.message).toMatch(/^\[openai\] every server of OPENAI_BASE_URL is down: nothing accepts connections at /);
    for (const url of urls) expect(error.message).toContain(`nothing accepts connections at ${url} (ECONNREFUSED`);
    expect(error.message).not.toContain('\n');
    // Without the probe, a request fails once it has failed on every server, each named.
    const request = await failure(pool(urls).generate(prompts(1)));
    expect(request.message).toMatch(/every server of the pool failed/);
    for (const url of urls) expect(request.message).toContain(url);
  });
});

describe('a malformed list', () => {
  test('an empty, non-http or unparsable entry is one line naming it and its position', () => {
    const error = (baseUrl: string) => {
      try {
        new OpenAIProvider('m', { env: { OPENAI_BASE_URL: baseUrl } });
      } catch (e) {
        expect(e).toBeInstanceOf(ProviderError);
        return (e as Error).message;
      }
      throw new Error('expected a config error');
    };
    expect(error('http://127.0.0.1:1/v1,,http://127.0.0.1:2/v1')).toBe('[openai] OPENAI_BASE_URL entry 2 of 3 is empty (servers are separated by single commas)');
    expect(error('http://127.0.0.1:1/v1, ftp://files.example/v1')).toBe('[openai] OPENAI_BASE_URL entry 2 of 2 must be an http:// or https:// URL, got "ftp:" (ftp://files.example/v1)');
    expect(error('localhost 8000, http://127.0.0.1:2/v1')).toBe('[openai] OPENAI_BASE_URL entry 1 of 2 is not a URL: "localhost 8000"');
    expect(error('http://127.0.0.1:1/v1,http://user:pw@127.0.0.1:2/v1')).toMatch(/^\[openai\] OPENAI_BASE_URL entry 2 of 2 must not contain credentials/);
    expect(error('http://127.0.0.1:1/v1,http://user:pw@127.0.0.1:2/v1')).not.toContain('pw');
  });

  test('the settings name the entry too', () => {
    const resolve = (value: string) => () => resolveSettingsTree([MULTILOKO_SETTINGS, KALAHI_SETTINGS], {}, { cwd: tmp, env: { OPENAI_BASE_URL: value } });
    expect(resolve('http://127.0.0.1:1/v1,,http://127.0.0.1:2/v1')).toThrow(/^OPENAI_BASE_URL: entry 2 of 3 is empty \(servers are separated by single commas\)/);
    expect(resolve('http://127.0.0.1:1/v1,mailto:x@example.com')).toThrow(/^OPENAI_BASE_URL: entry 2 of 2 must be an http:\/\/ or https:\/\/ URL, got "mailto:x@example.com"/);
    expect(resolve('a,,b')).toThrow(/^OPENAI_BASE_URL: entry 1 of 3 is not a URL: "a" \(got "a,,b"\)$/);
    expect(resolve('http://u:pw@127.0.0.1:1/v1?token=t0k,,http://127.0.0.1:2/v1')).toThrow(
      /^OPENAI_BASE_URL: entry 2 of 3 is empty \(servers are separated by single commas\) \(got "http:\/\/\[redacted\]@127\.0\.0\.1:1\/v1,,http:\/\/127\.0\.0\.1:2\/v1"\)$/,
    );
    expect(resolve('http://127.0.0.1:1/v1,http://127.0.0.1:2/v1')).not.toThrow();
  });
});
