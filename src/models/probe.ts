// Whether the run's model can answer at all, checked once before any item asks it: a transformers model is loaded
// (tokenizer and weights), an OpenAI-compatible server must accept TCP connections. A replay file is read when the
// provider is built, so it needs no probe.
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { safeUrl } from './http.ts';
import { providerRow } from './providers.ts';
import type { PoolServer, ServerPool } from './serverPool.ts';
import { ProviderError, type ModelProvider } from './types.ts';

/** Connection failures that a server being started (or a network blip) can cause: retried until the wait is spent. */
const CONNECTION_FAILURES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET']);

interface ServerProbeOptions {
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

/** What probeServers needs of the OpenAI-compatible provider (openai.ts). */
interface ServerPoolProvider {
  model: string;
  pool: ServerPool;
  allowMixedServers: boolean;
  servedModels(server: PoolServer): Promise<{ ok: true; ids: string[] } | { ok: false; reason: string }>;
}

/** One server of the pool as probed: why it is down, or what it serves (the model asked for, else every id it lists). */
interface ServerCheck {
  server: string;
  down?: string;
  serves?: string;
  /** Why the server's model ids are unknown (GET /models failed). */
  unlisted?: string;
}

const reasonOf = (error: unknown) => (error as Error).message.replace(/^\[[^\]]*\] /u, '').replace(/: start the server or set OPENAI_BASE_URL$/u, '');

/**
 * Every server of the pool reached (probeServer each, at once): one down is left out for its backoff, all down is one
 * network error naming each; servers serving different models are one config error naming each server and its model,
 * unless LOKAL_ALLOW_MIXED_SERVERS=1 (a pool's answers may not depend on which server gave them: docs/models.md).
 */
async function probeServers(provider: ServerPoolProvider, options: ServerProbeOptions = {}): Promise<ServerCheck[]> {
  const servers = provider.pool.servers;
  if (servers.length === 1) {
    await probeServer(servers[0]!.url, options);
    return [{ server: servers[0]!.shown }];
  }
  const reached = await Promise.allSettled(servers.map((server) => probeServer(server.url, options)));
  const checks: ServerCheck[] = servers.map((server, i) => {
    const result = reached[i]!;
    return result.status === 'rejected' ? { server: server.shown, down: reasonOf(result.reason) } : { server: server.shown };
  });
  if (checks.every((check) => check.down !== undefined))
    throw new ProviderError('openai', 'network', `every server of OPENAI_BASE_URL is down: ${checks.map((check) => check.down).join('; ')}: start one or fix OPENAI_BASE_URL`);
  servers.forEach((server, i) => {
    if (checks[i]!.down !== undefined) provider.pool.failed(server, checks[i]!.down!);
  });
  await Promise.all(
    servers.map(async (server, i) => {
      if (checks[i]!.down !== undefined) return;
      const listed = await provider.servedModels(server);
      if (!listed.ok) checks[i]!.unlisted = listed.reason;
      else checks[i]!.serves = listed.ids.includes(provider.model) ? provider.model : listed.ids.join(', ');
    }),
  );
  const known = checks.filter((check) => check.serves !== undefined);
  if (!provider.allowMixedServers && new Set(known.map((check) => check.serves)).size > 1)
    throw new ProviderError(
      'openai',
      'config',
      `the servers of OPENAI_BASE_URL serve different models: ${known.map((check) => `${check.server} serves ${check.serves}`).join('; ')}: give servers of one model, or set LOKAL_ALLOW_MIXED_SERVERS=1`,
    );
  return checks;
}

/** The provider loaded (transformers:/llama: `load()`) or its servers reachable (openai: every one of its pool); other kinds as they are. */
export async function probeProvider(kind: string, provider: ModelProvider, options: ServerProbeOptions = {}): Promise<ServerCheck[] | undefined> {
  const inner = provider as ModelProvider & { load?: () => Promise<unknown>; baseUrl?: unknown; pool?: unknown };
  const row = providerRow(kind);
  if (row?.runsInProcess && typeof inner.load === 'function') await inner.load();
  else if (row?.needsServer && inner.pool !== undefined) return probeServers(inner as unknown as ServerPoolProvider, options);
  else if (row?.needsServer && typeof inner.baseUrl === 'string') await probeServer(inner.baseUrl, options);
  return undefined;
}
