// JSON POST with a per-attempt timeout and retries (exponential backoff with jitter, Retry-After honoured) on
// 408/409/429/5xx, timeouts and dropped connections. Error messages never contain the secret (API key).
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
  /** Longest Retry-After wait accepted, in ms (default 120 s); longer values are capped. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 5,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  timeoutMs: 120_000,
  maxRetryAfterMs: 120_000,
};

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
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Number(ms);
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff with "equal jitter": half the step fixed, half random. */
export function backoffMs(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
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

export interface PostOptions {
  provider: string;
  headers: Record<string, string>;
  policy: RetryPolicy;
  /** Removed from every message (the API key). */
  secret?: string;
  random?: () => number;
  /** Called before each retry (for logs and tests); the message is already redacted. */
  onRetry?: (info: { attempt: number; delayMs: number; reason: string }) => void;
}

export interface PostResult {
  json: unknown;
  attempts: number;
}

export async function postJson(url: string, body: unknown, options: PostOptions): Promise<PostResult> {
  const { provider, policy, secret } = options;
  const where = safeUrl(url);
  const payload = JSON.stringify(body);
  let lastReason = '';
  let lastKind: 'timeout' | 'network' | 'http' = 'network';
  let lastStatus: { status: number; serverMessage: string } | undefined;
  for (let attempt = 0; ; attempt++) {
    let delay: number | undefined;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...options.headers },
        body: payload,
        signal: AbortSignal.timeout(policy.timeoutMs),
      });
      const text = await response.text();
      if (response.ok) {
        try {
          return { json: JSON.parse(text), attempts: attempt + 1 };
        } catch {
          throw new ProviderError(provider, 'invalid-response', `POST ${where}: the response is not JSON: ${JSON.stringify(redact(text.slice(0, 200), secret))}`);
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
      if (isTimeout(error)) {
        lastKind = 'timeout';
        lastReason = `no complete response within ${policy.timeoutMs} ms`;
      } else {
        lastKind = 'network';
        const code = errorCode(error);
        lastReason = redact(`${error instanceof Error ? error.message : String(error)}${code ? ` (${code})` : ''}`, secret);
      }
      lastStatus = undefined;
    }
    if (attempt >= policy.maxRetries) break;
    delay ??= backoffMs(attempt, policy, options.random);
    options.onRetry?.({ attempt: attempt + 1, delayMs: delay, reason: lastReason });
    await sleep(delay);
  }
  const message = `POST ${where} failed after ${policy.maxRetries + 1} attempts: ${lastReason}`;
  if (lastKind === 'http' && lastStatus) throw new HttpStatusError(provider, lastStatus.status, lastStatus.serverMessage, message);
  throw new ProviderError(provider, lastKind, message);
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
