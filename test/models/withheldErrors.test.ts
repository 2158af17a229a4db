// Provider errors under redaction (src/models/withheldErrors.ts): the HTTP status and kind, never the server's message,
// which may quote the prompt; the full message goes to `show` first; other errors pass as they are.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { OpenAIProvider } from '../../src/models/openai.ts';
import { ProviderError, type ModelProvider } from '../../src/models/types.ts';
import { withheldError, withheldErrorsProvider } from '../../src/models/withheldErrors.ts';
import { startFakeOpenAIServer, type FakeServer } from '../support/fakeOpenAIServer.ts';

const PROMPT = 'Qual è la capitale segreta di Zorvexa?';
let server: FakeServer;
beforeAll(async () => {
  server = await startFakeOpenAIServer({
    fault: (_, body) => ({ kind: 'status', status: 400, body: JSON.stringify({ error: { message: `Invalid request. Your prompt was: ${JSON.stringify(body.messages ?? body.prompt)}` } }) }),
  });
});
afterAll(() => server?.close());

describe('withheld provider errors', () => {
  test('a 400 quoting the prompt: the item sees HTTP 400 and the kind; show gets the whole message', async () => {
    const shown: string[] = [];
    const provider = withheldErrorsProvider(new OpenAIProvider('toy', { baseUrl: server.url, env: {}, retry: { maxRetries: 0 } }), (m) => shown.push(m));
    const failure = await provider.generate([{ messages: [{ role: 'user', content: PROMPT }] }]).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ProviderError);
    expect((failure as Error).message).toBe("[openai] HTTP 400, http error (its message is withheld: redaction is on, LOKAL_REDACT, and a server's message may quote the prompt)");
    expect(JSON.stringify({ ...(failure as object), message: (failure as Error).message, stack: (failure as Error).stack })).not.toContain('Zorvexa');
    expect((failure as Error).cause).toBeUndefined();
    expect(shown).toHaveLength(1);
    expect(shown[0]).toContain(`Your prompt was: [{"role":"user","content":"${PROMPT}"}]`);
  });

  test('a server that cannot score (unsupported, made from its HTTP status) keeps the status; other kinds their kind', async () => {
    const provider = withheldErrorsProvider(new OpenAIProvider('toy', { baseUrl: server.url, env: {}, retry: { maxRetries: 0 } }));
    const failure = await provider.scoreContinuations([{ prompt: PROMPT, continuation: ' Roma' }]).catch((e: unknown) => e);
    expect((failure as ProviderError).kind).toBe('unsupported');
    expect((failure as Error).message).toMatch(/^\[openai\] HTTP 400, unsupported error \(its message is withheld/u);
    expect((failure as Error).message).not.toContain('Zorvexa');
    expect(withheldError(new ProviderError('openai', 'invalid-response', `the response is not JSON: "${PROMPT}"`)).message).toMatch(/^\[openai\] invalid-response error \(its message/u);
  });

  test('errors that are not a provider\'s (a cancelled item) pass as they are', async () => {
    const abort = new DOMException('the run was cancelled', 'AbortError');
    const failing: ModelProvider = { describe: () => ({ provider: 'x', model: 'y', settings: {} }), generate: () => Promise.reject(abort), scoreContinuations: () => Promise.reject(abort) };
    await expect(withheldErrorsProvider(failing).generate([])).rejects.toBe(abort);
  });
});
