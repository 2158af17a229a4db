// Several OpenAI-compatible servers behind one provider (OPENAI_BASE_URL lists them, comma-separated): each request
// goes to the least busy healthy server with a free slot (LOKAL_CONCURRENCY per server); a server that fails is left
// out for a backoff and then tried again. Slots go by priority, then arrival.
import { safeUrl } from './http.ts';
import { ProviderError } from './types.ts';

/** One server of the pool: its base URL (no trailing slash), the URL safe to print, and its state. */
export interface PoolServer {
  readonly url: string;
  readonly shown: string;
  inFlight: number;
  /** Consecutive failures; 0 while healthy. */
  failures: number;
  /** performance.now() before which the server is not asked (after a failure). */
  retryAt: number;
  /** The last failure, as printed. */
  lastError?: string;
}

interface Waiter {
  priority: number;
  /** Servers this request already failed on: not asked again by it. */
  skip: ReadonlySet<PoolServer>;
  start: (server: PoolServer) => void;
}

export interface ServerPoolOptions {
  /** Requests in flight at once per server. */
  concurrency: number;
  /** First backoff of a failed server in ms (doubles per consecutive failure). */
  baseDelayMs: number;
  /** Longest backoff in ms. */
  maxDelayMs: number;
  now?: () => number;
}

/**
 * The entries of OPENAI_BASE_URL (or the base URL option): one URL, or several separated by commas. A malformed entry
 * (empty, not http(s), not a URL) is a config error naming the entry and its position.
 */
export function parseServerList(text: string, source: string): string[] {
  const entries = text.split(',').map((entry) => entry.trim());
  if (entries.length === 1) return [text.trim().replace(/\/+$/, '')];
  return entries.map((entry, i) => {
    const at = `${source} entry ${i + 1} of ${entries.length}`;
    if (entry === '') throw new ProviderError('openai', 'config', `${at} is empty (servers are separated by single commas)`);
    let url: URL;
    try {
      url = new URL(entry);
    } catch {
      throw new ProviderError('openai', 'config', `${at} is not a URL: ${JSON.stringify(entry.replace(/\/\/[^/@]*@/u, '//[redacted]@').replace(/[?#].*$/u, ''))}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new ProviderError('openai', 'config', `${at} must be an http:// or https:// URL, got ${JSON.stringify(url.protocol)} (${safeUrl(entry)})`);
    return entry.replace(/\/+$/, '');
  });
}

export class ServerPool {
  readonly servers: PoolServer[];
  private readonly queue: Waiter[] = [];
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    urls: string[],
    private readonly options: ServerPoolOptions,
  ) {
    this.servers = urls.map((url) => ({ url, shown: safeUrl(url), inFlight: 0, failures: 0, retryAt: 0 }));
    this.now = options.now ?? (() => performance.now());
  }

  get active(): number {
    return this.servers.reduce((sum, s) => sum + s.inFlight, 0);
  }

  /** The least busy server that is healthy (or past its backoff), has a free slot and is not in `skip`. */
  private pick(skip: ReadonlySet<PoolServer>): PoolServer | undefined {
    const now = this.now();
    let best: PoolServer | undefined;
    for (const server of this.servers) {
      if (skip.has(server) || server.inFlight >= this.options.concurrency || server.retryAt > now) continue;
      if (!best || server.inFlight < best.inFlight) best = server;
    }
    return best;
  }

  /** A slot on a server, in priority order (lower first, then arrival); resolves when one is free. */
  acquire(priority = Number.POSITIVE_INFINITY, skip: ReadonlySet<PoolServer> = new Set()): Promise<PoolServer> {
    return new Promise((resolve) => {
      const waiter: Waiter = { priority, skip, start: resolve };
      // From the end: most requests arrive with the largest priority so far (a new item), and go last at once.
      let at = this.queue.length;
      while (at > 0 && this.queue[at - 1]!.priority > priority) at--;
      this.queue.splice(at, 0, waiter);
      this.dispatch();
    });
  }

  /** Frees the slot a request held. */
  release(server: PoolServer): void {
    server.inFlight--;
    this.dispatch();
  }

  /** The server answered: healthy again. */
  succeeded(server: PoolServer): void {
    server.failures = 0;
    server.retryAt = 0;
    server.lastError = undefined;
  }

  /** The server failed (connection refused or reset, 5xx, timeout): left out until its backoff ends. */
  failed(server: PoolServer, reason: string): void {
    server.failures++;
    server.lastError = reason;
    server.retryAt = this.now() + Math.min(this.options.maxDelayMs, this.options.baseDelayMs * 2 ** (server.failures - 1));
    this.dispatch();
  }

  /** Whether some server not in `skip` may still be asked (now or after its backoff). */
  hasOther(skip: ReadonlySet<PoolServer>): boolean {
    return this.servers.some((s) => !skip.has(s));
  }

  /** Starts every waiting request that has a server now, in queue order; wakes up when the next backoff ends. */
  private dispatch(): void {
    for (let i = 0; i < this.queue.length; ) {
      const waiter = this.queue[i]!;
      const server = this.pick(waiter.skip);
      if (!server) {
        i++;
        continue;
      }
      this.queue.splice(i, 1);
      server.inFlight++;
      waiter.start(server);
    }
    if (this.queue.length === 0 || this.timer) return;
    const now = this.now();
    const next = Math.min(...this.servers.filter((s) => s.retryAt > now).map((s) => s.retryAt));
    if (!Number.isFinite(next)) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.dispatch();
    }, Math.max(1, Math.ceil(next - now)));
    this.timer.unref?.();
  }
}
