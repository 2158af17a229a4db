// JSON POST with a per-attempt timeout, a total time budget and retries (exponential backoff with jitter, Retry-After
// honoured) on 408/409/429/5xx, timeouts, dropped connections and malformed replies. Neither error messages nor
// replies contain the secret (API key).
import { setTimeout as sleep } from 'node:timers/promises';
import { ProviderError } from './types.ts';

export interface RetryPolicy {
  /** Retries after the first attempt (default 5). */
  maxRetries: number;
  /** First backoff step in ms (default 500); doubles each retry. */
  baseDelayMs: number;
  /** Cap of one backoff step in ms (default 30 s). */
  maxDelayMs: number;
  /** Per-attempt timeout in ms, body included (default 120 s). */
  timeoutMs: number;
  /** Total time of one request in ms, every attempt and wait included (default 5 min): no retry starts past it. */
  totalTimeoutMs: number;
  /** Longest Retry-After wait accepted, in ms (default 120 s); longer values are capped. */
  maxRetryAfterMs: number;
  /** Largest reply body read, in bytes (default 64 MiB); a longer one fails the attempt. */
  maxResponseBytes: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 5,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  timeoutMs: 120_000,
  totalTimeoutMs: 300_000,
  maxRetryAfterMs: 120_000,
  maxResponseBytes: 64 * 2 ** 20,
};

/** Checks the policy's numbers once, at construction, so a bad setting is a config error and not a hang. */
export function checkRetryPolicy(policy: RetryPolicy, provider: string): RetryPolicy {
  for (const [name, value] of Object.entries(policy)) {
    const ok = typeof value === 'number' && (name === 'maxRetries' ? Number.isInteger(value) && value >= 0 : value > 0 && value <= 2 ** 31 - 1);
    if (!ok) throw new ProviderError(provider, 'config', `retry.${name} must be a ${name === 'maxRetries' ? 'non-negative integer' : 'positive number of milliseconds (or bytes) below 2^31'}, got ${String(value)}`);
  }
  return policy;
}

/** A final non-retryable HTTP status (or a retryable one after the last retry). */
export class HttpStatusError extends ProviderError {
  constructor(
    provider: string,
    readonly status: number,
    readonly serverMessage: string,
    message: string,
  ) {
    super(provider, 'http', message);
    this.name = 'HttpStatusError';
  }
}

export function redact(text: string, secret: string | undefined): string {
  if (!secret) return text;
  return text.split(secret).join('[redacted]');
}

/**
 * A parsed reply with the secret replaced in every string, keys included: whatever field of it is recorded (the answer,
 * `system_fingerprint`, a probe's reply) never holds the key, whichever field the server echoed it into.
 */
export function redactJson(value: unknown, secret: string | undefined): unknown {
  if (!secret) return value;
  if (typeof value === 'string') return redact(value, secret);
  if (Array.isArray(value)) return value.map((v) => redactJson(v, secret));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [redact(k, secret), redactJson(v, secret)]));
}

/** A URL safe to print: no user info, no query string. */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    u.search = '';
    u.hash = '';
    return u.toString();
  } catch {
    return '(invalid URL)';
  }
}

const RETRYABLE_STATUS = (status: number) => status === 408 || status === 409 || status === 429 || status >= 500;

/** Retry-After (seconds or HTTP date) or OpenAI's retry-after-ms, in ms; undefined when absent or unparsable. */
function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Number(ms);
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff with "equal jitter": half the step fixed, half random. */
function backoffMs(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return step / 2 + random() * (step / 2);
}

function errorCode(error: unknown): string | undefined {
  let e: unknown = error;
  for (let depth = 0; depth < 4 && e && typeof e === 'object'; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

interface PostOptions<T = unknown> {
  provider: string;
  headers: Record<string, string>;
  policy: RetryPolicy;
  /** Removed from every message (the API key). */
  secret?: string;
  random?: () => number;
  /** Called before each retry (for logs and tests); the message is already redacted. */
  onRetry?: (info: { attempt: number; delayMs: number; reason: string }) => void;
  /**
   * Checks and converts a 200 reply. A ProviderError of kind 'invalid-response' from it (e.g. `content: null`, no
   * `choices`) fails that attempt like a 5xx: retried, and never returned.
   */
  check?: (json: unknown) => T;
  /**
   * Not retried here: a refused or dropped connection, a timeout or a 5xx ends the request after that attempt, so a
   * pool of servers (serverPool.ts) can send it to another server at once.
   */
  failFast?: boolean;
  /** Stops the request at once (a pool moving it off a dropped server): the signal's reason is thrown as it is. */
  signal?: AbortSignal;
}

interface PostResult<T = unknown> {
  json: T;
  attempts: number;
}

/** A reply that arrived but cannot be used: retried like a server error. */
class UnusableReply extends Error {}

/** The body as text, refusing more than `max` bytes (a server streaming without end costs at most that). */
async function readBody(response: Response, max: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => undefined);
      throw new UnusableReply(`the reply is larger than ${max} bytes (retry.maxResponseBytes)`);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

const withoutPrefix = (message: string) => message.replace(/^\[[^\]]*\] /, '');

/** Aborted when either is (AbortSignal.any needs Node 20.3; the package supports every Node 20). */
function eitherSignal(a: AbortSignal, b: AbortSignal): AbortSignal {
  const both = new AbortController();
  for (const signal of [a, b]) {
    if (signal.aborted) both.abort(signal.reason);
    else signal.addEventListener('abort', () => both.abort(signal.reason), { once: true });
  }
  return both.signal;
}

export async function postJson<T = unknown>(url: string, body: unknown, options: PostOptions<T>): Promise<PostResult<T>> {
  const { provider, policy, secret } = options;
  const where = safeUrl(url);
  const payload = JSON.stringify(body);
  const deadline = performance.now() + policy.totalTimeoutMs;
  let lastReason = '';
  let lastKind: 'timeout' | 'network' | 'http' | 'invalid-response' = 'network';
  let lastStatus: { status: number; serverMessage: string } | undefined;
  let attempts = 0;
  let budgetSpent = false;
  for (let attempt = 0; ; attempt++) {
    let delay: number | undefined;
    // Each attempt ends by its own timeout or by the total budget, whichever comes first.
    const attemptMs = Math.max(1, Math.min(policy.timeoutMs, Math.ceil(deadline - performance.now())));
    attempts++;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...options.headers },
        body: payload,
        signal: options.signal ? eitherSignal(AbortSignal.timeout(attemptMs), options.signal) : AbortSignal.timeout(attemptMs),
      });
      const text = await readBody(response, policy.maxResponseBytes);
      if (response.ok) {
        let json: unknown;
        try {
          json = redactJson(JSON.parse(text), secret);
        } catch {
          throw new UnusableReply(`the response is not JSON: ${JSON.stringify(redact(text.slice(0, 200), secret))}`);
        }
        try {
          return { json: options.check ? options.check(json) : (json as T), attempts };
        } catch (error) {
          if (error instanceof ProviderError && error.kind === 'invalid-response') throw new UnusableReply(redact(withoutPrefix(error.message), secret));
          throw error;
        }
      }
      const serverMessage = redact(extractServerMessage(text), secret);
      lastStatus = { status: response.status, serverMessage };
      lastKind = 'http';
      lastReason = `HTTP ${response.status}${serverMessage ? `: ${serverMessage}` : ''}`;
      if (!RETRYABLE_STATUS(response.status)) {
        throw new HttpStatusError(provider, response.status, serverMessage, `POST ${where} failed with ${lastReason}`);
      }
      const hinted = retryAfterMs(response.headers);
      if (hinted !== undefined) delay = Math.min(hinted, policy.maxRetryAfterMs);
    } catch (error) {
      if (error instanceof ProviderError) throw error;
      if (options.signal?.aborted) throw options.signal.reason;
      if (error instanceof UnusableReply) {
        lastKind = 'invalid-response';
        lastReason = error.message;
      } else if (isTimeout(error)) {
        lastKind = 'timeout';
        lastReason = `no complete response within ${attemptMs} ms`;
      } else {
        lastKind = 'network';
        const code = errorCode(error);
        lastReason = redact(`${error instanceof Error ? error.message : String(error)}${code ? ` (${code})` : ''}`, secret);
      }
      lastStatus = undefined;
    }
    if (attempt >= policy.maxRetries) break;
    if (options.failFast && isServerFailureKind(lastKind, lastStatus?.status)) break;
    delay ??= backoffMs(attempt, policy, options.random);
    if (performance.now() + delay >= deadline) {
      budgetSpent = true;
      break;
    }
    options.onRetry?.({ attempt: attempt + 1, delayMs: delay, reason: lastReason });
    await sleep(delay, undefined, options.signal ? { signal: options.signal } : undefined).catch((error: unknown) => {
      throw options.signal?.aborted ? options.signal.reason : error;
    });
  }
  const budget = budgetSpent ? ` (retry.totalTimeoutMs: the ${policy.totalTimeoutMs} ms budget of the request is spent)` : '';
  const message = `POST ${where} failed after ${attempts} attempt${attempts === 1 ? '' : 's'}${budget}: ${lastReason}`;
  if (lastKind === 'http' && lastStatus) throw new HttpStatusError(provider, lastStatus.status, lastStatus.serverMessage, message);
  throw new ProviderError(provider, lastKind, message);
}

/** 5xx but 501: Not Implemented says what the server lacks (a feature), not that it is down. */
const serverDown = (status: number) => status >= 500 && status !== 501;

function isServerFailureKind(kind: string, status: number | undefined): boolean {
  return kind === 'network' || kind === 'timeout' || (kind === 'http' && status !== undefined && serverDown(status));
}

/** A request's failure that says the server is down or broken (what `failFast` does not retry). */
export function isServerFailure(error: unknown): boolean {
  if (error instanceof HttpStatusError) return serverDown(error.status);
  return error instanceof ProviderError && (error.kind === 'network' || error.kind === 'timeout');
}

/** The `error.message` of an OpenAI-style error body, else the start of the body. */
function extractServerMessage(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown; detail?: unknown };
    const msg =
      typeof parsed.error === 'object' && parsed.error && typeof parsed.error.message === 'string'
        ? parsed.error.message
        : typeof parsed.error === 'string'
          ? parsed.error
          : typeof parsed.message === 'string'
            ? parsed.message
            : typeof parsed.detail === 'string'
              ? parsed.detail
              : undefined;
    if (msg !== undefined) return msg.slice(0, 300);
  } catch {
    // not JSON: fall through
  }
  return text.trim().slice(0, 300);
}
