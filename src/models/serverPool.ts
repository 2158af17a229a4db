// Several OpenAI-compatible servers behind one provider (OPENAI_BASE_URL lists them, comma-separated): each request
// goes to the least busy healthy server with a free slot (LOKAL_CONCURRENCY per server). A server that fails is
// dropped: its requests in flight are moved, it is probed again after a backoff and taken back when it answers.
import { safeUrl } from './http.ts';
import { ProviderError } from './types.ts';

/** One server of the pool: its base URL (no trailing slash), the URL safe to print, and its state. */
export interface PoolServer {
  readonly url: string;
  readonly shown: string;
  inFlight: number;
  /** Consecutive failures (of requests and of probes); 0 once a request succeeds. */
  failures: number;
  /** Dropped: asked nothing until a probe finds it answering. */
  down: boolean;
  /** performance.now() of the next probe while down. */
  retryAt: number;
  /** The last failure, as printed. */
  lastError?: string;
  /** The requests in flight on it, aborted (and so moved) when it is dropped. */
  readonly calls: Set<AbortController>;
}

/** A slot on a server: the request's signal is aborted, with a ServerDropped reason, when the server is dropped. */
export interface Lease {
  readonly server: PoolServer;
  readonly signal: AbortSignal;
}

/** Why a request in flight was stopped: its server was dropped (another request found it failing). */
export class ServerDropped extends Error {
  constructor(readonly server: PoolServer) {
    super(`${server.shown} was dropped from the pool (${server.lastError ?? 'failed'})`);
    this.name = 'ServerDropped';
  }
}

interface Waiter {
  priority: number;
  start: (lease: Lease) => void;
  fail: (error: Error) => void;
}

interface ServerPoolOptions {
  /** Requests in flight at once per server. */
  concurrency: number;
  /** First backoff of a dropped server in ms (doubles per consecutive failure). */
  baseDelayMs: number;
  /** Longest backoff in ms. */
  maxDelayMs: number;
  /** Whether a dropped server answers again: undefined when it does, else why not. */
  probe: (server: PoolServer) => Promise<string | undefined>;
  /** Where the line saying a server was dropped, or is back, goes (default console.warn). */
  log?: (line: string) => void;
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
  private readonly log: (line: string) => void;

  constructor(
    urls: string[],
    private readonly options: ServerPoolOptions,
  ) {
    this.servers = urls.map((url) => ({ url, shown: safeUrl(url), inFlight: 0, failures: 0, down: false, retryAt: 0, calls: new Set() }));
    this.now = options.now ?? (() => performance.now());
    this.log = options.log ?? ((line) => console.warn(line));
  }

  get active(): number {
    return this.servers.reduce((sum, s) => sum + s.inFlight, 0);
  }

  /** The one error of a pool whose every server is down: each server and its last failure. */
  allDownError(): ProviderError {
    return new ProviderError('openai', 'network', `every server of the pool is down: ${this.servers.map((s) => `${s.shown}: ${s.lastError ?? 'down'}`).join('; ')}`);
  }

  /** The least busy healthy server with a free slot. */
  private pick(): PoolServer | undefined {
    let best: PoolServer | undefined;
    for (const server of this.servers) {
      if (server.down || server.inFlight >= this.options.concurrency) continue;
      if (!best || server.inFlight < best.inFlight) best = server;
    }
    return best;
  }

  /**
   * A slot on a healthy server, in priority order (lower first, then arrival); resolves when one is free, and rejects
   * with allDownError() while every server is down (a request does not wait for servers that may never come back).
   */
  acquire(priority = Number.POSITIVE_INFINITY): Promise<Lease> {
    return new Promise((resolve, reject) => {
      if (this.servers.every((s) => s.down)) return reject(this.allDownError());
      const waiter: Waiter = { priority, start: resolve, fail: reject };
      // From the end: most requests arrive with the largest priority so far (a new item), and go last at once.
      let at = this.queue.length;
      while (at > 0 && this.queue[at - 1]!.priority > priority) at--;
      this.queue.splice(at, 0, waiter);
      this.dispatch();
    });
  }

  /** Frees the slot a request held. */
  release(lease: Lease): void {
    const { server } = lease;
    server.inFlight--;
    for (const call of server.calls) if (call.signal === lease.signal) server.calls.delete(call);
    this.dispatch();
  }

  /** The server answered a request: its failures are forgotten (the next drop starts at the first backoff). */
  succeeded(server: PoolServer): void {
    server.failures = 0;
  }

  /**
   * The server failed (connection refused or reset, 5xx, timeout): dropped, with one line saying so; its requests in
   * flight are stopped (they move to other servers), and it is probed after a backoff doubling per failure.
   */
  failed(server: PoolServer, reason: string): void {
    server.lastError = reason;
    if (server.down) return;
    server.down = true;
    server.failures++;
    const delay = this.backoff(server);
    this.log(`lokal: server ${server.shown} dropped from the pool (${reason}); its requests go to the other servers, and it is asked again in ${formatSeconds(delay)}`);
    for (const call of server.calls) call.abort(new ServerDropped(server));
    this.scheduleProbe(server, delay);
    if (this.servers.every((s) => s.down)) {
      const error = this.allDownError();
      for (const waiter of this.queue.splice(0)) waiter.fail(error);
    }
  }

  private backoff(server: PoolServer): number {
    return Math.min(this.options.maxDelayMs, this.options.baseDelayMs * 2 ** (server.failures - 1));
  }

  private scheduleProbe(server: PoolServer, delay: number): void {
    server.retryAt = this.now() + delay;
    const timer = setTimeout(() => void this.reprobe(server), Math.max(1, Math.ceil(delay)));
    // A run does not wait for the probe of a server it no longer needs.
    timer.unref?.();
  }

  private async reprobe(server: PoolServer): Promise<void> {
    let problem: string | undefined;
    try {
      problem = await this.options.probe(server);
    } catch (error) {
      problem = (error as Error).message;
    }
    if (problem !== undefined) {
      server.lastError = problem;
      server.failures++;
      this.scheduleProbe(server, this.backoff(server));
      return;
    }
    server.down = false;
    server.retryAt = 0;
    this.log(`lokal: server ${server.shown} is back in the pool (it answers again)`);
    this.dispatch();
  }

  /** Starts every waiting request that has a server now, in queue order. */
  private dispatch(): void {
    for (let i = 0; i < this.queue.length; ) {
      const server = this.pick();
      if (!server) return;
      const waiter = this.queue.splice(i, 1)[0]!;
      server.inFlight++;
      const call = new AbortController();
      server.calls.add(call);
      waiter.start({ server, signal: call.signal });
    }
  }
}

const formatSeconds = (ms: number) => `${Number((ms / 1000).toFixed(2))} s`;
