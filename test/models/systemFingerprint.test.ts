// The OpenAI server's `system_fingerprint` in the model's identity: absent until a response carries one, then each
// distinct value in the order seen, outside the settings that key the response cache.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, test } from 'vitest';
import { generateCacheKey } from '../../src/models/cache.ts';
import { modelIdentity } from '../../src/models/identity.ts';
import { OpenAIProvider } from '../../src/models/openai.ts';

// Answers every chat request; the n-th response carries the n-th fingerprint of this list (null: none).
const fingerprints = [null, 'fp_44709d6fcb', 'fp_44709d6fcb', 'fp_b28b39ffa8'];
let served = 0;
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const fingerprint = fingerprints[Math.min(served++, fingerprints.length - 1)];
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: 'Roma' }, finish_reason: 'stop' }], ...(fingerprint ? { system_fingerprint: fingerprint } : {}) }));
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('system_fingerprint', () => {
  test('recorded in describe() and the fingerprint identity where the server gives one; the cache key unchanged', async () => {
    const provider = new OpenAIProvider('gpt-test', { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, env: {}, concurrency: 1 });
    const request = { messages: [{ role: 'user' as const, content: 'Capital of Italy?' }], maxNewTokens: 4 };
    const before = provider.describe();
    await provider.generate([request]);
    // The first response carried none.
    expect(provider.describe().systemFingerprint).toBeUndefined();
    expect(modelIdentity(provider.describe(), undefined, '/').system_fingerprint).toBeUndefined();
    await provider.generate([request]);
    await provider.generate([request]);
    expect(provider.describe().systemFingerprint).toBe('fp_44709d6fcb');
    await provider.generate([request]);
    expect(provider.describe().systemFingerprint).toBe('fp_44709d6fcb,fp_b28b39ffa8');
    expect(modelIdentity(provider.describe(), undefined, '/')).toMatchObject({ provider: 'openai', model: 'gpt-test', system_fingerprint: 'fp_44709d6fcb,fp_b28b39ffa8' });
    // A fingerprint seen does not change which cached answers a request finds.
    expect(generateCacheKey(provider.describe(), request)).toBe(generateCacheKey(before, request));
  });
});
