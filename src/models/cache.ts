// On-disk response cache: one JSONL line per answered request, appended as answers arrive, keyed by a hash of
// provider, model, revision, settings and the exact request. A run killed half-way resumes without repeated calls.
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, truncateSync } from 'node:fs';
import path from 'node:path';
import {
  ProviderError,
  type ContinuationRequest,
  type ContinuationResult,
  type GenerateRequest,
  type GenerateResult,
  type ModelDescription,
  type ModelProvider,
  DEFAULT_MAX_NEW_TOKENS,
} from './types.ts';

export const CACHE_MODES = ['off', 'read', 'write', 'readwrite'] as const;
export type CacheMode = (typeof CACHE_MODES)[number];
export const DEFAULT_CACHE_FILE = '.lokal-cache/responses.jsonl';
const CACHE_FORMAT = 1;

export interface CacheOptions {
  /** Default: LOKAL_CACHE, else 'readwrite'. */
  mode?: CacheMode;
  /** JSONL file; default: LOKAL_CACHE_FILE, else .lokal-cache/responses.jsonl (relative to the working directory). */
  file?: string;
  /** Continuation requests per underlying call (answers are written when a chunk returns); default 16. */
  scoreChunkSize?: number;
  /** Receives warnings (torn or malformed lines); default console.warn. */
  warn?: (message: string) => void;
  env?: Record<string, string | undefined>;
}

export interface CacheStats {
  hits: number;
  misses: number;
  written: number;
}

type Entry =
  | { key: string; kind: 'generate'; text: string; latencyMs: number }
  | { key: string; kind: 'score'; logprob: number; tokenCount: number; latencyMs: number };

export function parseCacheMode(value: string | undefined, source = 'LOKAL_CACHE'): CacheMode {
  if (value === undefined || value.trim() === '') return 'readwrite';
  const mode = value.trim().toLowerCase();
  if (!(CACHE_MODES as readonly string[]).includes(mode))
    throw new ProviderError('cache', 'config', `${source} must be one of ${CACHE_MODES.join('|')}, got ${JSON.stringify(value)}`);
  return mode as CacheMode;
}

/** Deterministic JSON (sorted keys) so equal requests always hash alike. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function modelIdentity(d: ModelDescription) {
  return { provider: d.provider, model: d.model, revision: d.revision ?? null, settings: d.settings };
}

/** Cache key of a generation: model identity + prompt/messages + the effective length budget + stop strings. */
export function generateCacheKey(model: ModelDescription, req: GenerateRequest): string {
  const budget = req.maxLength !== undefined ? { maxLength: req.maxLength } : { maxNewTokens: req.maxNewTokens ?? DEFAULT_MAX_NEW_TOKENS };
  const body = { v: CACHE_FORMAT, kind: 'generate', model: modelIdentity(model), prompt: req.prompt, messages: req.messages, ...budget, stop: req.stop ?? [] };
  return createHash('sha256').update(canonical(body)).digest('hex');
}

export function scoreCacheKey(model: ModelDescription, req: ContinuationRequest): string {
  const body = { v: CACHE_FORMAT, kind: 'score', model: modelIdentity(model), prompt: req.prompt, messages: req.messages, continuation: req.continuation };
  return createHash('sha256').update(canonical(body)).digest('hex');
}

function isEntry(value: unknown): value is Entry {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  if (typeof v.key !== 'string' || typeof v.latencyMs !== 'number') return false;
  if (v.kind === 'generate') return typeof v.text === 'string';
  if (v.kind === 'score') return typeof v.logprob === 'number' && typeof v.tokenCount === 'number';
  return false;
}

/**
 * Reads a cache file; a torn (unterminated, unparsable) last line is skipped with a warning, as are malformed lines.
 * `tornAt` is the byte offset where a torn last line starts.
 */
export function readCacheFile(file: string, warn: (message: string) => void): { entries: Map<string, Entry>; tornAt?: number } {
  const entries = new Map<string, Entry>();
  if (!existsSync(file)) return { entries };
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n');
  const endsWithNewline = text.endsWith('\n');
  let offset = 0;
  let tornAt: number | undefined;
  lines.forEach((line, i) => {
    const start = offset;
    offset += Buffer.byteLength(line) + 1;
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      value = undefined;
    }
    if (isEntry(value)) {
      entries.set(value.key, value);
      return;
    }
    if (i === lines.length - 1 && !endsWithNewline) {
      tornAt = start;
      warn(`${file}:${i + 1}: skipping a torn last line (an interrupted write); it will be recomputed`);
    } else warn(`${file}:${i + 1}: skipping a malformed cache line (not a cache entry)`);
  });
  return { entries, tornAt };
}

export interface CachedProvider extends ModelProvider {
  readonly stats: CacheStats;
  readonly mode: CacheMode;
  readonly file: string;
}

/** Wraps a provider with the response cache. Hits come back with cached: true and latencyMs 0. */
export function withCache(provider: ModelProvider, options: CacheOptions = {}): CachedProvider {
  const vars = options.env ?? process.env;
  const mode = options.mode ?? parseCacheMode(vars.LOKAL_CACHE);
  const file = path.resolve(options.file ?? vars.LOKAL_CACHE_FILE ?? DEFAULT_CACHE_FILE);
  const warn = options.warn ?? ((m: string) => console.warn(`[lokal cache] ${m}`));
  const chunkSize = options.scoreChunkSize ?? 16;
  const stats: CacheStats = { hits: 0, misses: 0, written: 0 };
  const reads = mode === 'read' || mode === 'readwrite';
  const writes = mode === 'write' || mode === 'readwrite';
  let entries: Map<string, Entry> | undefined;
  let needsNewline = false;

  const load = () => {
    if (!entries) {
      const read = readCacheFile(file, reads ? warn : () => undefined);
      entries = reads ? read.entries : new Map();
      // A torn last line is cut off before appending, so new entries start on a line of their own.
      if (writes && read.tornAt !== undefined) truncateSync(file, read.tornAt);
      const bytes = existsSync(file) ? readFileSync(file) : Buffer.alloc(0);
      needsNewline = bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a;
    }
    return entries;
  };
  const append = (entry: Entry) => {
    if (!writes) return;
    mkdirSync(path.dirname(file), { recursive: true });
    appendFileSync(file, `${needsNewline ? '\n' : ''}${JSON.stringify(entry)}\n`);
    needsNewline = false;
    stats.written++;
    if (reads) entries!.set(entry.key, entry);
  };

  async function generate(requests: GenerateRequest[]): Promise<GenerateResult[]> {
    if (mode === 'off') return provider.generate(requests);
    const known = load();
    const description = provider.describe();
    const keys = requests.map((r) => generateCacheKey(description, r));
    const pending = new Map<string, Promise<GenerateResult>>();
    return Promise.all(
      requests.map((req, i) => {
        const key = keys[i]!;
        const hit = reads ? known.get(key) : undefined;
        if (hit && hit.kind === 'generate') {
          stats.hits++;
          return Promise.resolve({ text: hit.text, latencyMs: 0, cached: true });
        }
        // One request per call, so each answer is on disk as soon as it arrives.
        let promise = pending.get(key);
        if (!promise) {
          stats.misses++;
          promise = provider.generate([req]).then(([result]) => {
            append({ key, kind: 'generate', text: result!.text, latencyMs: result!.latencyMs });
            return result!;
          });
          pending.set(key, promise);
        }
        return promise;
      }),
    );
  }

  async function scoreContinuations(requests: ContinuationRequest[]): Promise<ContinuationResult[]> {
    if (mode === 'off') return provider.scoreContinuations(requests);
    const known = load();
    const description = provider.describe();
    const results = new Array<ContinuationResult | undefined>(requests.length);
    const missing = new Map<string, { req: ContinuationRequest; indexes: number[] }>();
    requests.forEach((req, i) => {
      const key = scoreCacheKey(description, req);
      const hit = reads ? known.get(key) : undefined;
      if (hit && hit.kind === 'score') {
        stats.hits++;
        results[i] = { logprob: hit.logprob, tokenCount: hit.tokenCount, latencyMs: 0, cached: true };
      } else {
        const slot = missing.get(key);
        if (slot) slot.indexes.push(i);
        else {
          stats.misses++;
          missing.set(key, { req, indexes: [i] });
        }
      }
    });
    const todo = [...missing.entries()];
    const chunks: Array<typeof todo> = [];
    for (let i = 0; i < todo.length; i += chunkSize) chunks.push(todo.slice(i, i + chunkSize));
    await Promise.all(
      chunks.map(async (chunk) => {
        const answers = await provider.scoreContinuations(chunk.map(([, v]) => v.req));
        chunk.forEach(([key, { indexes }], j) => {
          const a = answers[j]!;
          append({ key, kind: 'score', logprob: a.logprob, tokenCount: a.tokenCount, latencyMs: a.latencyMs });
          for (const i of indexes) results[i] = a;
        });
      }),
    );
    return results as ContinuationResult[];
  }

  return {
    stats,
    mode,
    file,
    describe: () => provider.describe(),
    generate,
    scoreContinuations,
    close: provider.close ? () => provider.close!() : undefined,
  };
}
