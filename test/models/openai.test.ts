import { afterEach, describe, expect, test } from 'vitest';
import { startFakeOpenAIServer, toyAnswer, toyLogprob, toyRenderChat, type FakeServer, type FakeServerOptions } from '../support/fakeOpenAIServer.ts';
import { OpenAIProvider, type OpenAIProviderOptions } from '../../src/models/openai.ts';
import { ProviderError } from '../../src/models/types.ts';

const KEY = 'sk-test-7f3a9c-SECRET';
const FAST_RETRY = { baseDelayMs: 5, maxDelayMs: 20, timeoutMs: 5_000 };

let servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function setup(server: FakeServerOptions = {}, provider: OpenAIProviderOptions = {}) {
  const s = await startFakeOpenAIServer({ apiKey: KEY, ...server });
  servers.push(s);
  const p = new OpenAIProvider('toy-model', { baseUrl: s.url, apiKey: KEY, env: {}, retry: FAST_RETRY, ...provider });
  return { server: s, provider: p };
}

/** Expected sum of toy logprobs over code points [from, to) of `text` (by the toy model's definition). */
function toySum(text: string, from: number): { logprob: number; tokenCount: number } {
  const cps = [...text];
  let logprob = 0;
  for (let i = from; i < cps.length; i++) logprob += toyLogprob(cps[i]!.codePointAt(0)!, i);
  return { logprob, tokenCount: cps.length - from };
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

describe('openai provider: answers', () => {
  test('chat and prompt generation, stop strings cut, max tokens honoured', async () => {
    const { provider } = await setup();
    const messages = [{ role: 'user' as const, content: 'Wie heißt die Hauptstadt? 😀' }];
    const [chat, plain, stopped, short] = await provider.generate([
      { messages, maxNewTokens: 100 },
      { prompt: 'Q: capital of Italy?\nA:', maxNewTokens: 100 },
      { prompt: 'abc: xyz', maxNewTokens: 100, stop: ['zy', 'nothing'] },
      { prompt: 'abc', maxNewTokens: 4 },
    ]);
    expect(chat!.text).toBe(toyAnswer(toyRenderChat(messages, true)));
    expect(plain!.text).toBe(toyAnswer('Q: capital of Italy?\nA:'));
    // toyAnswer('abc: xyz') = 'echo(8): zyx :cba' → cut before 'zy'
    expect(stopped!.text).toBe('echo(8): ');
    expect(short!.text).toBe('echo');
    for (const r of [chat, plain, stopped, short]) {
      expect(r!.cached).toBe(false);
      expect(r!.latencyMs).toBeGreaterThan(0);
    }
  });

  test('maxLength counts the prompt tokens (HF max_length): keeps maxLength - prompt tokens new tokens', async () => {
    const { provider } = await setup();
    const messages = [{ role: 'user' as const, content: 'hello' }];
    const promptTokens = [...toyRenderChat(messages, true)].length; // 30 code points = 30 toy tokens
    const [a, b, c] = await provider.generate([
      { messages, maxLength: promptTokens + 5 },
      { prompt: 'hello there', maxLength: 11 + 3 },
      { prompt: 'hello there', maxLength: 4 }, // budget below the prompt: one token, as HF generates
    ]);
    expect(a!.text).toBe([...toyAnswer(toyRenderChat(messages, true))].slice(0, 5).join(''));
    expect(b!.text).toBe('ech');
    expect(c!.text).toBe('e');
  });

  test('describe() names model and settings, never the key', async () => {
    const { provider } = await setup();
    const d = provider.describe();
    expect(d.provider).toBe('openai');
    expect(d.model).toBe('toy-model');
    expect(JSON.stringify(d)).not.toContain(KEY);
  });
});

describe('openai provider: continuation scoring', () => {
  test('prompt scoring with echo + logprobs sums the continuation tokens only', async () => {
    const { provider } = await setup();
    const [r1, r2, r3] = await provider.scoreContinuations([
      { prompt: 'Die Antwort ist', continuation: ' Berlin' },
      { prompt: 'Emoji: ', continuation: '😀 und ß' },
      { prompt: 'x', continuation: '' },
    ]);
    const e1 = toySum('Die Antwort ist Berlin', [...'Die Antwort ist'].length);
    const e2 = toySum('Emoji: 😀 und ß', [...'Emoji: '].length);
    expect(r1!.tokenCount).toBe(7);
    expect(r1!.logprob).toBeCloseTo(e1.logprob, 12);
    expect(r2!.tokenCount).toBe(7); // code points, not UTF-16 units
    expect(r2!.logprob).toBeCloseTo(e2.logprob, 12);
    expect(r3).toMatchObject({ logprob: 0, tokenCount: 0 });
  });

  test("chat scoring with vLLM's prompt_logprobs: F tokens after |P| (docs/metrics.md#per-answer-score)", async () => {
    const { provider, server } = await setup();
    const messages = [{ role: 'user' as const, content: 'Ano ang kabisera?' }];
    const replies = ['Maynila.', 'Cebu.', 'Hindi ko alam.'];
    const results = await provider.scoreContinuations(replies.map((continuation) => ({ messages, continuation })));
    const p = [...toyRenderChat(messages, true)].length;
    results.forEach((r, i) => {
      const f = toyRenderChat([...messages, { role: 'assistant', content: replies[i]! }], false);
      const expected = toySum(f, p);
      // scored span: the reply plus the end-of-turn suffix '</assistant>'
      expect(r.tokenCount).toBe([...replies[i]!].length + '</assistant>'.length);
      expect(r.logprob).toBeCloseTo(expected.logprob, 12);
    });
    // P is requested once for the three replies
    expect(server.stats.requests).toBe(4);
  });

  test('servers that cannot score give a clear unsupported error', async () => {
    const { provider } = await setup({ promptLogprobs: false, echo: false });
    const chat = await failure(provider.scoreContinuations([{ messages: [{ role: 'user', content: 'q' }], continuation: 'a' }]));
    expect(chat.kind).toBe('unsupported');
    expect(chat.message).toMatch(/prompt_logprobs/);
    const plain = await failure(provider.scoreContinuations([{ prompt: 'q', continuation: 'a' }]));
    expect(plain.kind).toBe('unsupported');
    expect(plain.message).toMatch(/echo/);
  });
});

describe('openai provider: retries, timeouts, concurrency', () => {
  test('429 with Retry-After (seconds) is honoured, then answered', async () => {
    const { provider, server } = await setup({
      fault: (n) => (n === 1 ? { kind: 'status', status: 429, headers: { 'retry-after': '1' } } : undefined),
    });
    const started = Date.now();
    const [r] = await provider.generate([{ prompt: 'abc', maxNewTokens: 100 }]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(r!.text).toBe(toyAnswer('abc'));
    expect(server.stats.requests).toBe(2);
  });

  test('500s, 503 with retry-after-ms and dropped connections are retried with backoff', async () => {
    const retries: string[] = [];
    const { provider, server } = await setup(
      {
        fault: (n) =>
          n === 1 ? { kind: 'status', status: 500 } : n === 2 ? { kind: 'drop' } : n === 3 ? { kind: 'status', status: 503, headers: { 'retry-after-ms': '30' } } : undefined,
      },
      { concurrency: 1, onRetry: (i) => retries.push(i.reason) },
    );
    const [r] = await provider.generate([{ prompt: 'retry me', maxNewTokens: 100 }]);
    expect(r!.text).toBe(toyAnswer('retry me'));
    expect(server.stats.requests).toBe(4);
    expect(retries).toHaveLength(3);
    expect(retries[0]).toMatch(/HTTP 500/);
    expect(retries[2]).toMatch(/HTTP 503/);
  });

  test('gives up after maxRetries with the kind of the last failure; 4xx is not retried', async () => {
    const { provider, server } = await setup({ fault: () => ({ kind: 'status', status: 502 }) }, { retry: { ...FAST_RETRY, maxRetries: 2 } });
    const e = await failure(provider.generate([{ prompt: 'x' }]));
    expect(e.kind).toBe('http');
    expect(e.message).toMatch(/after 3 attempts: HTTP 502/);
    expect(server.stats.requests).toBe(3);

    const bad = await setup({ fault: () => ({ kind: 'status', status: 400, body: '{"error":{"message":"bad request"}}' }) });
    const e400 = await failure(bad.provider.generate([{ prompt: 'x' }]));
    expect(e400.kind).toBe('http');
    expect(bad.server.stats.requests).toBe(1);
  });

  test('request timeout', async () => {
    const { provider } = await setup({ latencyMs: 400 }, { retry: { ...FAST_RETRY, timeoutMs: 100, maxRetries: 1 } });
    const e = await failure(provider.generate([{ prompt: 'slow' }]));
    expect(e.kind).toBe('timeout');
    expect(e.message).toMatch(/within 100 ms/);
  });

  test('in-flight requests never exceed the concurrency limit, and the limit is used', async () => {
    const { provider, server } = await setup({ latencyMs: 25 }, { concurrency: 5 });
    const prompts = Array.from({ length: 40 }, (_, i) => `prompt ${i}`);
    const results = await provider.generate(prompts.map((prompt) => ({ prompt, maxNewTokens: 100 })));
    expect(results.map((r) => r.text)).toEqual(prompts.map(toyAnswer));
    expect(server.stats.maxInFlight).toBe(5);
    // chat scoring makes two requests per item: still within the limit
    await provider.scoreContinuations(prompts.map((p, i) => ({ messages: [{ role: 'user', content: p }], continuation: `r${i}` })));
    expect(server.stats.maxInFlight).toBe(5);
  });
});

describe('openai provider: a request of an aborted item', () => {
  test('waiting for a free slot when its signal aborts: not sent, rejected with the reason; the one in flight answers', async () => {
    const { provider, server } = await setup({ latencyMs: 200 }, { concurrency: 1 });
    const stop = new AbortController();
    const first = provider.generate([{ prompt: 'first', signal: stop.signal }]);
    const waiting = provider.scoreContinuations([{ prompt: 'second', continuation: ' x', signal: stop.signal }]);
    const other = provider.generate([{ prompt: 'another item' }]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const reason = new Error('the run was cancelled (keyboard-input)');
    stop.abort(reason);
    expect((await first).map((r) => r.text)).toEqual([toyAnswer('first')]);
    await expect(waiting).rejects.toBe(reason);
    // Another item's request, queued behind both, is still sent.
    expect((await other).map((r) => r.text)).toEqual([toyAnswer('another item')]);
    expect(server.stats.requests).toBe(2);
  });
});

describe('openai provider: the order of waiting requests', () => {
  test("an item's next request goes before the first requests of items that began after it", async () => {
    const order: string[] = [];
    const { provider } = await setup({ latencyMs: 30, fault: (_n, body) => void order.push(String(body.prompt)) }, { concurrency: 1 });
    // Item A asks twice in a row (as Kalahi asks its multiple choice, then generation); B, C and D begin meanwhile.
    const itemA = (async () => {
      await provider.generate([{ prompt: 'A1', itemKey: 'A' }]);
      await provider.generate([{ prompt: 'A2', itemKey: 'A' }]);
    })();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const others = provider.generate(['B', 'C', 'D'].map((key) => ({ prompt: `${key}1`, itemKey: key })));
    await Promise.all([itemA, others]);
    // The slot A1 frees goes to B1 at once (A2 is not asked yet); A2 then waits only for items that began before A.
    // First come, first served would give A1, B1, C1, D1, A2: item A would finish last.
    expect(order).toEqual(['A1', 'B1', 'A2', 'C1', 'D1']);
  });
});

describe('openai provider: the API key never leaks', () => {
  test('not in errors when the server echoes it back, nor in retry reasons', async () => {
    const reasons: string[] = [];
    const s = await startFakeOpenAIServer({ apiKey: 'the-right-key' });
    servers.push(s);
    const provider = new OpenAIProvider('toy-model', { baseUrl: s.url, apiKey: KEY, env: {}, retry: FAST_RETRY, onRetry: (i) => reasons.push(i.reason) });
    const e = await failure(provider.generate([{ prompt: 'x' }]));
    expect(e.message).toMatch(/HTTP 401/);
    expect(e.message).toContain('[redacted]');
    expect(e.message).not.toContain(KEY);
    expect(String(e.stack)).not.toContain(KEY);

    const echoing = await setup({
      fault: (n) => (n <= 2 ? { kind: 'status', status: 500, body: JSON.stringify({ error: { message: `upstream saw ${KEY}` } }) } : undefined),
    }, { onRetry: (i) => reasons.push(i.reason) });
    await echoing.provider.generate([{ prompt: 'x' }]);
    expect(reasons.length).toBeGreaterThan(0);
    for (const r of reasons) expect(r).not.toContain(KEY);
  });

  test('key from OPENAI_API_KEY, base URL from OPENAI_BASE_URL; key not in describe() or config errors', async () => {
    const s = await startFakeOpenAIServer({ apiKey: KEY });
    servers.push(s);
    const provider = new OpenAIProvider('toy-model', { env: { OPENAI_BASE_URL: s.url, OPENAI_API_KEY: KEY }, retry: FAST_RETRY });
    const [r] = await provider.generate([{ prompt: 'env', maxNewTokens: 100 }]);
    expect(r!.text).toBe(toyAnswer('env'));
    expect(JSON.stringify(provider.describe())).not.toContain(KEY);
    try {
      new OpenAIProvider('m', { env: { OPENAI_BASE_URL: `not a url ${KEY}`, OPENAI_API_KEY: KEY } });
      throw new Error('expected a config error');
    } catch (error) {
      expect((error as ProviderError).kind).toBe('config');
      expect((error as Error).message).not.toContain(KEY);
    }
  });
});
