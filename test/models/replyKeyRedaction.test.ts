// A server that echoes the API key into any field of its reply, not only the answer: `system_fingerprint` (recorded in
// the model's identity, hence multiloko.json, kalahi.json and the report), a capability probe's reply, the usage block.
// Every string of a parsed reply goes through the key redaction before any of it is kept.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, test } from 'vitest';
import { redactJson } from '../../src/models/http.ts';
import { modelIdentity } from '../../src/models/identity.ts';
import { OpenAIProvider } from '../../src/models/openai.ts';

const KEY = 'sk-fingerprint-SECRET-0815';

// Every reply quotes the bearer token it was sent in its fingerprint and in an extra field, as a debug proxy might.
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const token = (req.headers.authorization ?? '').replace(/^Bearer /u, '');
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: 'Roma' }, finish_reason: 'stop' }], system_fingerprint: `fp_${token}`, debug: { [token]: `sent ${token}` } }));
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;

describe('the API key in a reply field', () => {
  test('a system_fingerprint holding the key is recorded with [redacted] in its place, in describe() and the identity', async () => {
    const provider = new OpenAIProvider('gpt-test', { baseUrl, apiKey: KEY, env: {}, concurrency: 1 });
    const [answer] = await provider.generate([{ messages: [{ role: 'user', content: 'Capital of Italy?' }], maxNewTokens: 4 }]);
    expect(answer!.text).toBe('Roma');
    expect(provider.describe().systemFingerprint).toBe('fp_[redacted]');
    const identity = JSON.stringify(modelIdentity(provider.describe(), undefined, '/'));
    expect(identity).toContain('fp_[redacted]');
    expect(identity).not.toContain(KEY);
  });

  test("a capability probe's reply has the key replaced in every string and key", async () => {
    const provider = new OpenAIProvider('gpt-test', { baseUrl, apiKey: KEY, env: {}, concurrency: 1 });
    const reply = await provider.probe('/chat/completions', { messages: [{ role: 'user', content: 'hi' }], max_tokens: 1 });
    expect(reply.ok).toBe(true);
    expect(JSON.stringify(reply)).not.toContain(KEY);
    expect((reply as { json: { debug: unknown } }).json.debug).toEqual({ '[redacted]': 'sent [redacted]' });
  });

  test('redactJson: strings at any depth, keys too; numbers, booleans and null as they are; nothing to do without a key', () => {
    const value = { a: [`x${KEY}y`, 1, true, null, { [KEY]: [KEY] }], b: 2.5 };
    expect(redactJson(value, KEY)).toEqual({ a: ['x[redacted]y', 1, true, null, { '[redacted]': ['[redacted]'] }], b: 2.5 });
    expect(redactJson(value, undefined)).toBe(value);
    expect(redactJson(value, '')).toBe(value);
  });
});
