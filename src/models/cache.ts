// On-disk response cache: one JSONL line per answered request, appended as answers arrive, keyed by a hash of
// provider, model, revision, settings (a pool's server list left out) and the exact request. A run killed half-way
// resumes without repeated calls.
import { createHash } from 'node:crypto';
import { appendFileSync, closeSync, constants, fstatSync, mkdirSync, openSync, readSync, truncateSync } from 'node:fs';
import path from 'node:path';
import { DataError } from '../data/errors.ts';
import { ioError } from '../data/files.ts';
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
import { isStoredUsage, restoredUsage, storedUsage, type StoredUsage } from './cachedUsage.ts';

const CACHE_MODES = ['off', 'read', 'write', 'readwrite'] as const;
export type CacheMode = (typeof CACHE_MODES)[number];
export const DEFAULT_CACHE_FILE = '.lokal-cache/responses.jsonl';
const CACHE_FORMAT = 1;

interface CacheOptions {
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

interface CacheStats {
  hits: number;
  misses: number;
  written: number;
}

type Entry =
  | ({ key: string; kind: 'generate'; text: string; latencyMs: number } & StoredUsage)
  | ({ key: string; kind: 'score'; logprob: number; tokenCount: number; latencyMs: number } & StoredUsage);

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

/** Cache key of a generation: model identity + prompt/messages + the effective length budget + stop strings + trial. */
export function generateCacheKey(model: ModelDescription, req: GenerateRequest): string {
  const budget = req.maxLength !== undefined ? { maxLength: req.maxLength } : { maxNewTokens: req.maxNewTokens ?? DEFAULT_MAX_NEW_TOKENS };
  // The decoding settings and the trial join the key only when set (canonical drops undefined): old keys stay valid.
  const trial = { temperature: req.temperature, topP: req.topP, seed: req.seed, trial: req.trial };
  const body = { v: CACHE_FORMAT, kind: 'generate', model: modelIdentity(model), prompt: req.prompt, messages: req.messages, ...budget, stop: req.stop ?? [], ...trial };
  return createHash('sha256').update(canonical(body)).digest('hex');
}

export function scoreCacheKey(model: ModelDescription, req: ContinuationRequest): string {
  const body = { v: CACHE_FORMAT, kind: 'score', model: modelIdentity(model), prompt: req.prompt, messages: req.messages, continuation: req.continuation };
  return createHash('sha256').update(canonical(body)).digest('hex');
}

/** The description without the server it is asked at: what a pool's answers are keyed by (any server of the model). */
function anyServer(d: ModelDescription): ModelDescription {
  const { baseUrl: _baseUrl, ...settings } = d.settings;
  return { provider: d.provider, model: d.model, ...(d.revision !== undefined ? { revision: d.revision } : {}), settings };
}

/**
 * The descriptions an answer may be stored under, the one written first. A pool (several servers of one model) writes
 * under the model without its servers, so adding or removing a replica keeps every answer, and reads what one of its
 * servers wrote alone (and a pool's entries from before, which named the list). One server writes the key it always
 * had (its URL in it) and reads a pool's entries too. Other providers: their own description.
 */
function cacheDescriptions(d: ModelDescription): ModelDescription[] {
  if (d.servers !== undefined && d.servers.length > 1) return [anyServer(d), ...d.servers.map((url) => ({ ...d, settings: { ...d.settings, baseUrl: url } })), d];
  if (typeof d.settings.baseUrl === 'string') return [d, anyServer(d)];
  return [d];
}

function isEntry(value: unknown): value is Entry {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  if (typeof v.key !== 'string' || typeof v.latencyMs !== 'number') return false;
  if (!isStoredUsage(v)) return false;
  if (v.kind === 'generate') return typeof v.text === 'string';
  if (v.kind === 'score') return typeof v.logprob === 'number' && typeof v.tokenCount === 'number';
  return false;
}

/**
 * The first line of every cache file this package creates: a file is appended to (and a torn last line cut) only when
 * it starts with this line or, for caches written before it existed, with a cache entry.
 */
export const CACHE_HEADER = '{"lokal_response_cache":1}';

/** How much of a file's first line is read to tell whether it is a cache (an entry holds a whole reply). */
const SIGNATURE_BYTES = 1 << 22;

/**
 * Why `file` is not a response cache (it exists and its first line is neither the header nor a cache entry), or
 * undefined: a missing or empty file, or a prefix of the header (a first write cut short), is a cache yet to be written.
 */
export function cacheSignatureProblem(file: string): string | undefined {
  const fd = openCache(file);
  if (fd === undefined) return undefined;
  let head: Buffer;
  try {
    const size = fstatSync(fd).size;
    head = Buffer.alloc(Math.min(size, SIGNATURE_BYTES));
    let read = 0;
    while (read < head.length) {
      const n = readSync(fd, head, read, head.length - read, read);
      if (n === 0) break;
      read += n;
    }
    head = head.subarray(0, read);
  } catch (error) {
    throw ioError(file, 'cannot read the response cache', error);
  } finally {
    closeSync(fd);
  }
  if (head.length === 0 || `${CACHE_HEADER}\n`.startsWith(head.toString('utf8'))) return undefined;
  const newline = head.indexOf(0x0a);
  const first = head.subarray(0, newline === -1 ? head.length : newline).toString('utf8').trim();
  if (first === CACHE_HEADER) return undefined;
  try {
    if (isEntry(JSON.parse(first))) return undefined;
  } catch {
    // not JSON: not a cache
  }
  return 'is not a response cache (its first line is neither the cache header nor a cache entry), so it is neither read nor appended to; set LOKAL_CACHE_FILE to a cache file or a new path';
}

const CHUNK_BYTES = 1 << 20;
/** A longer line cannot be a cache entry we wrote (and would not fit in a string): skipped unread. */
const MAX_LINE_BYTES = 2 ** 28;

/** Opens the cache for reading if it is a regular file; undefined when it does not exist yet. */
function openCache(file: string): number | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw ioError(file, 'cannot read the response cache', error);
  }
  const stats = fstatSync(fd);
  if (!stats.isFile()) {
    closeSync(fd);
    throw new DataError(file, `the response cache must be a regular file, but this is ${stats.isDirectory() ? 'a folder' : 'a device, FIFO or socket'} (set LOKAL_CACHE_FILE to a file, or LOKAL_CACHE=off)`, {
      code: stats.isDirectory() ? 'io' : 'not-regular-file',
    });
  }
  return fd;
}

/**
 * Reads a cache file chunk by chunk (any size: no string ever holds the whole file); a torn (unterminated,
 * unparsable) last line is skipped with a warning, as are malformed lines. `tornAt` is the byte offset where a torn
 * last line starts: offsets count the file's bytes, so invalid UTF-8 before it cannot shift them.
 */
export function readCacheFile(file: string, warn: (message: string) => void): { entries: Map<string, Entry>; tornAt?: number } {
  const entries = new Map<string, Entry>();
  const fd = openCache(file);
  if (fd === undefined) return { entries };
  let tornAt: number | undefined;
  let lineNo = 0;
  let pieces: Buffer[] = [];
  let lineBytes = 0;
  let lineStart = 0;
  const finishLine = (terminated: boolean): void => {
    lineNo++;
    const bytes = lineBytes;
    const text = bytes > MAX_LINE_BYTES ? undefined : (pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces)).toString('utf8');
    pieces = [];
    lineBytes = 0;
    if (text !== undefined && (text.trim() === '' || text === CACHE_HEADER)) return;
    let value: unknown;
    try {
      value = text === undefined ? undefined : JSON.parse(text);
    } catch {
      value = undefined;
    }
    if (isEntry(value)) {
      entries.set(value.key, value);
      return;
    }
    if (!terminated) {
      tornAt = lineStart;
      warn(`${file}:${lineNo}: skipping a torn last line (an interrupted write); it will be recomputed`);
    } else warn(`${file}:${lineNo}: skipping a malformed cache line (not a cache entry)`);
  };
  try {
    let offset = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
      let read: number;
      try {
        read = readSync(fd, chunk, 0, CHUNK_BYTES, null);
      } catch (error) {
        throw ioError(file, 'cannot read the response cache', error);
      }
      if (read === 0) break;
      const data = chunk.subarray(0, read);
      let from = 0;
      while (from < read) {
        const newline = data.indexOf(0x0a, from);
        const end = newline === -1 ? read : newline;
        if (end > from) {
          lineBytes += end - from;
          if (lineBytes <= MAX_LINE_BYTES) pieces.push(data.subarray(from, end));
          else pieces = [];
        }
        if (newline === -1) break;
        finishLine(true);
        lineStart = offset + newline + 1;
        from = newline + 1;
      }
      offset += read;
    }
    if (lineBytes > 0) finishLine(false);
  } finally {
    closeSync(fd);
  }
  return tornAt === undefined ? { entries } : { entries, tornAt };
}

/** Whether the file's last byte is something other than a newline (then an append starts with one). */
function endsWithoutNewline(file: string): boolean {
  const fd = openCache(file);
  if (fd === undefined) return false;
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return false;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] !== 0x0a;
  } finally {
    closeSync(fd);
  }
}

/** Whether the cache file is absent or holds nothing (its first write starts with the header). */
function fileIsEmpty(file: string): boolean {
  const fd = openCache(file);
  if (fd === undefined) return true;
  try {
    return fstatSync(fd).size === 0;
  } finally {
    closeSync(fd);
  }
}

/** The entry under `key`, else under the first of the other keys the same answer may have been stored under. */
function lookup(entries: Map<string, Entry>, key: string, older: string[]): Entry | undefined {
  const own = entries.get(key);
  if (own !== undefined) return own;
  for (const other of older) {
    const entry = entries.get(other);
    if (entry !== undefined) return entry;
  }
  return undefined;
}

interface CachedProvider extends ModelProvider {
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
  let needsHeader = false;

  const load = () => {
    if (!entries) {
      // Only a cache is read, repaired or appended to: a predictions or results file named here stays as it is.
      const problem = cacheSignatureProblem(file);
      if (problem) throw new DataError(file, problem, { code: 'invalid-record' });
      const read = readCacheFile(file, reads ? warn : () => undefined);
      entries = reads ? read.entries : new Map();
      // A torn last line is cut off before appending, so new entries start on a line of their own.
      if (writes && read.tornAt !== undefined) {
        try {
          truncateSync(file, read.tornAt);
        } catch (error) {
          throw ioError(file, 'cannot repair the response cache', error);
        }
      }
      needsNewline = endsWithoutNewline(file);
      needsHeader = fileIsEmpty(file);
    }
    return entries;
  };
  const append = (entry: Entry) => {
    if (!writes) return;
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      appendFileSync(file, `${needsHeader ? `${CACHE_HEADER}\n` : needsNewline ? '\n' : ''}${JSON.stringify(entry)}\n`);
    } catch (error) {
      throw ioError(file, 'cannot write the response cache', error);
    }
    needsNewline = false;
    needsHeader = false;
    stats.written++;
    if (reads) entries!.set(entry.key, entry);
  };

  async function generate(requests: GenerateRequest[]): Promise<GenerateResult[]> {
    if (mode === 'off') return provider.generate(requests);
    const known = load();
    const descriptions = cacheDescriptions(provider.describe());
    const pending = new Map<string, Promise<GenerateResult>>();
    return Promise.all(
      requests.map((req) => {
        const [key, ...older] = descriptions.map((d) => generateCacheKey(d, req)) as [string, ...string[]];
        const hit = reads ? lookup(known, key, older) : undefined;
        if (hit && hit.kind === 'generate') {
          stats.hits++;
          return Promise.resolve({ text: hit.text, latencyMs: 0, cached: true, ...restoredUsage(req, hit) });
        }
        // One request per call, so each answer is on disk as soon as it arrives.
        let promise = pending.get(key);
        if (!promise) {
          stats.misses++;
          promise = provider.generate([req]).then(([result]) => {
            append({ key, kind: 'generate', text: result!.text, latencyMs: result!.latencyMs, ...storedUsage(req, result!) });
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
    const descriptions = cacheDescriptions(provider.describe());
    const results = new Array<ContinuationResult | undefined>(requests.length);
    const missing = new Map<string, { req: ContinuationRequest; indexes: number[] }>();
    requests.forEach((req, i) => {
      const [key, ...older] = descriptions.map((d) => scoreCacheKey(d, req)) as [string, ...string[]];
      const hit = reads ? lookup(known, key, older) : undefined;
      if (hit && hit.kind === 'score') {
        stats.hits++;
        results[i] = { logprob: hit.logprob, tokenCount: hit.tokenCount, latencyMs: 0, cached: true, ...restoredUsage(req, hit) };
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
        chunk.forEach(([key, { req, indexes }], j) => {
          const a = answers[j]!;
          append({ key, kind: 'score', logprob: a.logprob, tokenCount: a.tokenCount, latencyMs: a.latencyMs, ...storedUsage(req, a) });
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
