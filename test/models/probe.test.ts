// The model probe: a bounded wait for a server that refuses connections (fake clock and connections), a real refused
// port, the one-line error, and a pool that keeps a failed probe so every suite gets the same error at once.
import net from 'node:net';
import { describe, expect, test } from 'vitest';
import { probeServer, tcpConnect } from '../../src/models/probe.ts';
import { ModelUnusableError } from '../../src/models/open.ts';
import { ProviderError } from '../../src/models/types.ts';
import { ModelPool } from '../../src/vitest/fixtures.ts';

/** Connections answering from a script, on a clock that only the waits move. */
function scripted(codes: Array<string | undefined>) {
  let clock = 0;
  const calls: Array<{ host: string; port: number; at: number }> = [];
  const waits: number[] = [];
  return {
    calls,
    waits,
    options: {
      connect: async (host: string, port: number) => {
        calls.push({ host, port, at: clock });
        return codes.length > 1 ? codes.shift() : codes[0];
      },
      wait: async (ms: number) => {
        waits.push(ms);
        clock += ms;
      },
      now: () => clock,
    },
  };
}

describe('probeServer', () => {
  test('a server that keeps refusing: stops once the next wait would pass the bound, naming the URL and the tries', async () => {
    const fake = scripted(['ECONNREFUSED']);
    const error = await probeServer('http://user:secret@localhost:8000/v1?x=1', { ...fake.options, refusedWaitMs: 3000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    // Backoff 250, 500, 1000, 1000 ms (2750 ms in all); the next 1000 would pass 3000: five attempts.
    expect(fake.waits).toEqual([250, 500, 1000, 1000]);
    expect(fake.calls.map((c) => c.at)).toEqual([0, 250, 750, 1750, 2750]);
    expect(fake.calls[0]).toMatchObject({ host: 'localhost', port: 8000 });
    expect((error as Error).message).toBe(
      '[openai] nothing accepts connections at http://localhost:8000/v1 (ECONNREFUSED; 5 attempts over 2.8 s): start the server or set OPENAI_BASE_URL',
    );
  });

  test('a server that starts while we wait, a slow one and default ports', async () => {
    const starting = scripted(['ECONNREFUSED', 'ECONNREFUSED', undefined]);
    await expect(probeServer('http://127.0.0.1:9/v1', starting.options)).resolves.toBeUndefined();
    expect(starting.calls).toHaveLength(3);
    // A timeout is not a refusal: the requests' own time limits deal with it.
    const slow = scripted(['ETIMEDOUT']);
    await expect(probeServer('https://api.example.com/v1', slow.options)).resolves.toBeUndefined();
    expect(slow.calls).toEqual([{ host: 'api.example.com', port: 443, at: 0 }]);
    const plain = scripted([undefined]);
    await probeServer('http://[::1]/v1', plain.options);
    expect(plain.calls[0]).toMatchObject({ host: '::1', port: 80 });
  });

  test('an unknown host is named as such', async () => {
    const fake = scripted(['ENOTFOUND']);
    await expect(probeServer('http://no-such-host.invalid:8080/v1', { ...fake.options, refusedWaitMs: 100 })).rejects.toThrow(
      /cannot resolve the host of http:\/\/no-such-host\.invalid:8080\/v1 \(ENOTFOUND; 1 attempt over 0\.0 s\)/u,
    );
  });

  test('tcpConnect: a listening port connects, a released one is refused', async () => {
    const server = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    expect(await tcpConnect('127.0.0.1', port, 2000)).toBeUndefined();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(await tcpConnect('127.0.0.1', port, 2000)).toBe('ECONNREFUSED');
  });
});

describe('ModelUnusableError', () => {
  test('one line naming the setting and the cause, without stack frames', () => {
    const configured = new ModelUnusableError('openai:m', true, new ProviderError('openai', 'network', 'nothing accepts\n  connections'));
    expect(configured.message).toBe('LOKAL_MODEL=openai:m cannot be used: [openai] nothing accepts connections');
    expect(configured.stack).toBe(`ModelUnusableError: ${configured.message}`);
    const fallback = new ModelUnusableError('transformers:owner/name', false, 'offline');
    expect(fallback.message).toBe(
      'LOKAL_MODEL is not set and the default model transformers:owner/name cannot be used: offline. Set LOKAL_MODEL to one of: ' +
        'replay:<predictions .jsonl|.csv> (answers you already have, no model), openai:<model> with OPENAI_BASE_URL=<server>/v1 ' +
        '(any OpenAI-compatible server), transformers:<folder> (a local ONNX model: config.json, tokenizer.json, onnx/model.onnx; ' +
        'npm run make:tiny-model -- <folder> writes a tiny one), llama:<file.gguf> or llama:ollama:<name> (a GGUF model, with the ' +
        'optional package node-llama-cpp); or set LOKAL_MODEL_DIR to a folder holding owner/name/ (providers: docs/models.md)',
    );
  });
});

describe('ModelPool.usable', () => {
  test('keeps a failed probe: a second suite gets the same error without trying again', async () => {
    const pool = new ModelPool();
    const first = await pool.usable('transformers:/no/such/folder').catch((e: unknown) => e);
    const second = await pool.usable('transformers:/no/such/folder').catch((e: unknown) => e);
    expect(first).toBeInstanceOf(ProviderError);
    expect(second).toBe(first);
    await pool.close();
  });
});
