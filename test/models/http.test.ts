// A hostile or broken OpenAI-compatible server costs at most the configured time: a server that never answers or
// trickles its body ends within retry.totalTimeoutMs; an unusable reply (content null, no choices) is retried and
// never cached; a base URL with a query string or credentials is refused when the provider is made.
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { withCache } from '../../src/models/cache.ts';
import { OpenAIProvider, type OpenAIProviderOptions } from '../../src/models/openai.ts';
import { ProviderError } from '../../src/models/types.ts';

type Handler = (req: IncomingMessage, res: ServerResponse, n: number) => void;

const servers: Server[] = [];
const sockets = new Set<import('node:net').Socket>();
afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});
const dir = mkdtempSync(path.join(tmpdir(), 'lokal-http-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A server answering request n (1-based) with `handler`; returns its base URL and the request count. */
async function serve(handler: Handler): Promise<{ url: string; requests: () => number }> {
  let n = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => handler(req, res, ++n));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests: () => n };
}

const chat = (content: unknown) => ({ choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage: { prompt_tokens: 3 } });
const json = (res: ServerResponse, body: unknown) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

function provider(url: string, retry: OpenAIProviderOptions['retry']): OpenAIProvider {
  return new OpenAIProvider('m', { baseUrl: url, env: {}, retry: { baseDelayMs: 20, maxDelayMs: 50, ...retry } });
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

const ask = (p: OpenAIProvider | ReturnType<typeof withCache>, content = 'hi') => p.generate([{ messages: [{ role: 'user', content }], maxNewTokens: 8 }]);

describe('time is bounded by retry.totalTimeoutMs', () => {
  test('a server that never answers', { timeout: 20_000 }, async () => {
    const { url, requests } = await serve(() => undefined);
    const started = performance.now();
    const error = await failure(ask(provider(url, { timeoutMs: 300, totalTimeoutMs: 1_000, maxRetries: 50 })));
    const elapsed = performance.now() - started;
    expect(elapsed).toBeLessThan(2_500);
    expect(error.kind).toBe('timeout');
    expect(error.message).toMatch(/failed after \d+ attempts \(retry\.totalTimeoutMs: the 1000 ms budget of the request is spent\): no complete response within \d+ ms/);
    expect(requests()).toBeLessThanOrEqual(4);
  });

  test('a server that trickles its body one byte at a time', { timeout: 20_000 }, async () => {
    const timers: NodeJS.Timeout[] = [];
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{');
      const timer = setInterval(() => res.write(' '), 50);
      timers.push(timer);
      res.on('close', () => clearInterval(timer));
    });
    const started = performance.now();
    const error = await failure(ask(provider(url, { timeoutMs: 400, totalTimeoutMs: 1_200, maxRetries: 50 })));
    timers.forEach(clearInterval);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(error.kind).toBe('timeout');
  });

  test('a body larger than retry.maxResponseBytes fails the attempt', async () => {
    const { url } = await serve((_req, res) => json(res, chat('x'.repeat(200_000))));
    const error = await failure(ask(provider(url, { maxResponseBytes: 100_000, maxRetries: 1 })));
    expect(error.kind).toBe('invalid-response');
    expect(error.message).toContain('the reply is larger than 100000 bytes (retry.maxResponseBytes)');
  });

  test('the settings are checked when the provider is made', () => {
    expect(() => provider('http://127.0.0.1:1/v1', { totalTimeoutMs: 0 })).toThrow(/retry\.totalTimeoutMs must be a positive number/);
    expect(() => provider('http://127.0.0.1:1/v1', { timeoutMs: Number.NaN })).toThrow(/retry\.timeoutMs/);
  });
});

describe('an unusable reply is an error for its item: retried, never cached', () => {
  test('content: null, then a real answer: the retry answers', async () => {
    const { url, requests } = await serve((_req, res, n) => json(res, chat(n === 1 ? null : 'Roma')));
    const [result] = await ask(provider(url, { maxRetries: 2 }));
    expect(result!.text).toBe('Roma');
    expect(requests()).toBe(2);
  });

  test('content: null or no choices every time: a clear error, and the cache stays empty', async () => {
    for (const body of [chat(null), { usage: { prompt_tokens: 1 } }, { choices: [] }, chat(undefined)]) {
      const { url, requests } = await serve((_req, res) => json(res, body));
      const file = path.join(dir, `cache-${Math.random().toString(36).slice(2)}.jsonl`);
      const cached = withCache(provider(url, { maxRetries: 2 }), { file, mode: 'readwrite', env: {} });
      const error = await failure(ask(cached));
      expect(error.kind).toBe('invalid-response');
      expect(error.message).toMatch(/failed after 3 attempts: request 0: POST \/chat\/completions: unexpected response: choices/);
      expect(requests()).toBe(3);
      expect(existsSync(file) ? readFileSync(file, 'utf8') : '').toBe('');
    }
  });

  test('a reply that is not JSON is retried too', async () => {
    const { url, requests } = await serve((_req, res, n) => {
      if (n === 1) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"choices": [');
      } else json(res, chat('ok'));
    });
    expect((await ask(provider(url, { maxRetries: 1 })))[0]!.text).toBe('ok');
    expect(requests()).toBe(2);
  });
});

describe('base URLs', () => {
  test('a query string, a fragment or credentials are refused at construction, the secret never shown', () => {
    const make = (baseUrl: string) => () => new OpenAIProvider('m', { baseUrl, env: {} });
    expect(make('http://localhost:8000/v1?api-version=2024')).toThrow(
      '[openai] the base URL must not contain a query string or fragment (http://localhost:8000/v1 has one): endpoint paths are appended to it',
    );
    expect(make('http://localhost:8000/v1#x')).toThrow(/must not contain a query string or fragment/);
    let error: unknown;
    try {
      make('https://alice:hunter2@example.com/v1')();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).kind).toBe('config');
    expect((error as Error).message).toBe(
      '[openai] the base URL must not contain credentials (user:password@ in https://example.com/v1): give the key in OPENAI_API_KEY',
    );
    expect(() => new OpenAIProvider('m', { env: { OPENAI_BASE_URL: 'ftp://example.com/v1' } })).toThrow(/OPENAI_BASE_URL must be an http:\/\/ or https:\/\/ URL/);
    expect(() => new OpenAIProvider('m', { env: { OPENAI_BASE_URL: 'http://a:b@[bad' } })).toThrow('[openai] OPENAI_BASE_URL is not a URL: "http://[redacted]@[bad"');
    expect(() => new OpenAIProvider('m', { baseUrl: 'http://localhost:8000/v1/', env: {} })).not.toThrow();
  });
});
