// The API key is redacted from anything written, not only from error messages: a server that echoes the request's
// Authorization header into its reply (chat and completions) yields text with `[redacted]` in its place, so neither
// the response cache file nor the answer handed to scoring holds the key.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { withCache } from '../../src/models/cache.ts';
import { OpenAIProvider } from '../../src/models/openai.ts';

const KEY = 'sk-echo-SECRET-4711';
const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-key-echo-'));
let server: Server;
let url: string;

beforeAll(async () => {
  // Every reply quotes the Authorization header it was sent, as a misconfigured proxy or debug server does.
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const echoed = `you sent: ${req.headers.authorization ?? ''}`;
      const body = req.url?.endsWith('/chat/completions')
        ? { choices: [{ message: { role: 'assistant', content: echoed }, finish_reason: 'stop' }] }
        : { choices: [{ text: echoed, finish_reason: 'stop' }] };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

test('an echoed key is redacted in the answers and never written to the cache', async () => {
  const file = path.join(dir, 'responses.jsonl');
  const provider = withCache(new OpenAIProvider('echo-model', { baseUrl: url, apiKey: KEY, env: {} }), { file, env: {} });
  const [chat, plain] = [...(await provider.generate([{ messages: [{ role: 'user', content: 'hi' }] }])), ...(await provider.generate([{ prompt: 'hi' }]))];
  expect(chat!.text).toBe('you sent: Bearer [redacted]');
  expect(plain!.text).toBe('you sent: Bearer [redacted]');
  const cache = readFileSync(file, 'utf8');
  expect(cache).toContain('you sent: Bearer [redacted]');
  expect(cache).not.toContain(KEY);
});
