// Whether the run's model can answer at all, checked once before any item asks it: a transformers model is loaded
// (tokenizer and weights), an OpenAI-compatible server must accept TCP connections. A replay file is read when the
// provider is built, so it needs no probe.
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { safeUrl } from './http.ts';
import { ProviderError, type ModelProvider } from './types.ts';

/** Connection failures that a server being started (or a network blip) can cause: retried until the wait is spent. */
const CONNECTION_FAILURES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET']);

export interface ServerProbeOptions {
  /** Longest wait for a server that refuses connections, in ms (default 3 s): then the run stops. */
  refusedWaitMs?: number;
  /** Time limit of one connection attempt, in ms (default 5 s); a timeout is left to the requests' own limits. */
  connectTimeoutMs?: number;
  /** Opens one TCP connection: undefined when it connected, else the error code ('ETIMEDOUT' for a timeout). */
  connect?: (host: string, port: number, timeoutMs: number) => Promise<string | undefined>;
  /** Waits between attempts (tests pass a fake). */
  wait?: (ms: number) => Promise<unknown>;
  now?: () => number;
}

/** One TCP connection to host:port, closed at once: what fetch does first for every request. */
export function tcpConnect(host: string, port: number, timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (code: string | undefined) => {
      socket.destroy();
      resolve(code);
    };
    socket.setTimeout(timeoutMs, () => done('ETIMEDOUT'));
    socket.once('connect', () => done(undefined));
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
  });
}

/**
 * Connects to the server of `baseUrl` until it accepts, for at most `refusedWaitMs` (backoff 250 ms doubling to 1 s);
 * a server that still refuses then is a network ProviderError. Without this, each item retried six times (~15 s).
 */
export async function probeServer(baseUrl: string, options: ServerProbeOptions = {}): Promise<void> {
  const { refusedWaitMs = 3000, connectTimeoutMs = 5000, connect = tcpConnect, wait = sleep, now = () => performance.now() } = options;
  const url = new URL(baseUrl);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[(.*)\]$/u, '$1');
  const started = now();
  let attempts = 0;
  for (let delay = 250; ; delay = Math.min(delay * 2, 1000)) {
    attempts++;
    const code = await connect(host, port, connectTimeoutMs);
    if (code === undefined || !CONNECTION_FAILURES.has(code)) return;
    const waited = now() - started;
    if (waited + delay > refusedWaitMs) {
      const what = code === 'ECONNREFUSED' ? 'nothing accepts connections at' : code === 'ENOTFOUND' || code === 'EAI_AGAIN' ? 'cannot resolve the host of' : 'cannot reach';
      throw new ProviderError(
        'openai',
        'network',
        `${what} ${safeUrl(baseUrl)} (${code}; ${attempts} attempt${attempts === 1 ? '' : 's'} over ${(waited / 1000).toFixed(1)} s): start the server or set OPENAI_BASE_URL`,
      );
    }
    await wait(delay);
  }
}

/** The provider loaded (transformers:/llama: `load()`) or its server reachable (openai: `baseUrl`); other kinds as they are. */
export async function probeProvider(kind: string, provider: ModelProvider, options: ServerProbeOptions = {}): Promise<void> {
  const inner = provider as ModelProvider & { load?: () => Promise<unknown>; baseUrl?: unknown };
  if ((kind === 'transformers' || kind === 'llama') && typeof inner.load === 'function') await inner.load();
  else if (kind === 'openai' && typeof inner.baseUrl === 'string') await probeServer(inner.baseUrl, options);
}
