// The downloader behind `lokal data fetch`: the files of DATA_SOURCES into a folder, resumable and verified; what only a
// benchmark knows (its archive's check, where else its data can come from) is passed in as DatasetHooks.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { DataError } from './errors.ts';
import { ioError } from './files.ts';
import { DATA_SOURCES, type DataSource } from './sources.ts';

export interface FetchDataOptions {
  /** Folder to download into (created if missing), e.g. `data`. */
  dir: string;
  /** What to download; default DATA_SOURCES. */
  sources?: readonly DataSource[];
  /** Only the files of one dataset. */
  only?: 'multiloko' | 'kalahi';
  /** The fetch implementation; default globalThis.fetch. */
  fetch?: typeof globalThis.fetch;
  /** Progress and status lines; default: stderr. */
  log?: (line: string) => void;
  /** Give up on a request when no byte has arrived for this long; default 30 000 ms. */
  timeoutMs?: number;
  /** How many times an interrupted transfer is resumed before giving up; default 3. */
  retries?: number;
  /** Password for the structural check of the MultiLoKo archive; default the published one. */
  password?: string;
}

/** What the benchmarks add to the download: the archive's structural check and where else their data can come from. */
export interface DatasetHooks {
  /** Why `file` (a source with `verify: 'multiloko-archive'`) is not a valid archive, or undefined when it is. */
  verifyArchive(file: string, password: string | undefined): Promise<string | undefined>;
  /** The by-hand message's last line for the source's dataset: how to use a copy already on disk. */
  alternative(source: DataSource): string;
}

export interface FetchedFile {
  dataset: DataSource['dataset'];
  path: string;
  bytes: number;
  sha256: string;
  status: 'downloaded' | 'already-present';
}

/** How to put a file in place without the network, for every error that stops a download. */
function howToProvideByHand(source: DataSource, dir: string, hooks: DatasetHooks): string {
  const target = path.join(dir, ...source.file.split('/'));
  const alternative = hooks.alternative(source);
  return [
    'To provide the file by hand:',
    `  download ${source.url}`,
    `  (page: ${source.page})`,
    `  and save it as ${target}, then run \`npx lokal data fetch\` again to verify it;`,
    `  ${alternative}.`,
  ].join('\n');
}

const OFFLINE_CODES = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
]);

function errorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** A transfer that started and broke off: worth resuming. */
class Interrupted extends Error {}

class Timeout extends Error {
  constructor(readonly ms: number) {
    super(`no data for ${ms} ms`);
  }
}

async function sizeOf(file: string): Promise<number | undefined> {
  try {
    const s = await stat(file);
    return s.isFile() ? s.size : undefined;
  } catch {
    return undefined;
  }
}

async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

interface Verdict {
  ok: boolean;
  sha256: string;
  reason?: string;
}

async function verify(file: string, source: DataSource, password: string | undefined, hooks: DatasetHooks): Promise<Verdict> {
  const sha256 = await sha256File(file);
  if (source.sha256 !== undefined && sha256 !== source.sha256.toLowerCase()) {
    return { ok: false, sha256, reason: `SHA-256 mismatch: expected ${source.sha256}, got ${sha256}` };
  }
  if (source.verify === 'multiloko-archive') {
    const reason = await hooks.verifyArchive(file, password);
    if (reason !== undefined) return { ok: false, sha256, reason };
  }
  return { ok: true, sha256 };
}

function formatProgress(done: number, total: number | undefined): string {
  if (total === undefined) return `${done} bytes`;
  const pct = total === 0 ? 100 : Math.floor((done / total) * 100);
  return `${done}/${total} bytes (${pct}%)`;
}

/** Parses `Content-Range: bytes 100-199/200` (also the unsatisfied form with a star). */
function parseContentRange(header: string | null): { start?: number; total?: number } {
  if (!header) return {};
  const m = /^bytes\s+(?:(\d+)-\d+|\*)\/(\d+|\*)$/i.exec(header.trim());
  if (!m) return {};
  return { start: m[1] === undefined ? undefined : Number(m[1]), total: m[2] === '*' ? undefined : Number(m[2]) };
}

interface TransferContext {
  hooks: DatasetHooks;
  source: DataSource;
  dir: string;
  part: string;
  fetchImpl: typeof globalThis.fetch;
  log: (line: string) => void;
  timeoutMs: number;
}

type TransferOutcome = 'complete' | 'range-not-satisfiable';

/** One request, resuming from `.part` when it exists: appends on 206, rewrites on 200. Resolves once the body has been read. */
async function transfer(ctx: TransferContext): Promise<TransferOutcome> {
  const { source, part, log } = ctx;
  const have = (await sizeOf(part)) ?? 0;
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(new Timeout(ctx.timeoutMs)), ctx.timeoutMs);
  };
  arm();
  try {
    let response: Response;
    try {
      response = await ctx.fetchImpl(source.url, {
        headers: have > 0 ? { Range: `bytes=${have}-` } : {},
        signal: controller.signal,
        redirect: 'follow',
      });
    } catch (error) {
      throw networkError(source, ctx.dir, ctx.hooks, controller.signal.reason instanceof Timeout ? controller.signal.reason : error, false);
    }
    if (response.status === 416 && have > 0) {
      await response.body?.cancel();
      return 'range-not-satisfiable';
    }
    let offset: number;
    let total: number | undefined;
    const length = response.headers.get('content-length');
    if (response.status === 206 && have > 0) {
      const range = parseContentRange(response.headers.get('content-range'));
      if (range.start !== have) {
        await response.body?.cancel();
        throw new DataError(source.url, `the server answered a resume request for bytes ${have}- with range ${response.headers.get('content-range')}`, {
          code: 'download',
        });
      }
      offset = have;
      total = range.total ?? (length === null ? undefined : have + Number(length));
    } else if (response.status === 200) {
      offset = 0; // a server that ignores Range sends everything again
      total = length === null ? source.bytes : Number(length);
    } else {
      await response.body?.cancel().catch(() => undefined);
      throw statusError(source, ctx.dir, ctx.hooks, response);
    }
    log(
      offset > 0
        ? `${source.file}: resuming at ${formatProgress(offset, total)} from ${source.url}`
        : `${source.file}: downloading ${source.url}${total === undefined ? '' : ` (${total} bytes)`}`,
    );
    const handle = await open(part, offset > 0 ? 'a' : 'w').catch((error: unknown) => {
      throw ioError(part, 'cannot write the download', error);
    });
    let done = offset;
    let reported = total && total > 0 ? Math.floor((done / total) * 10) : 0;
    let nextByteReport = done + (1 << 20);
    try {
      if (response.body) {
        try {
          for await (const chunk of response.body) {
            arm();
            // A full disk or a lost permission is not a network interruption: it stops the download, naming the file.
            await handle.write(chunk).catch((error: unknown) => {
              throw ioError(part, 'cannot write the download', error);
            });
            done += chunk.byteLength;
            if (total && total > 0) {
              const tenth = Math.floor((done / total) * 10);
              if (tenth > reported && done < total) {
                reported = tenth;
                log(`${source.file}: ${formatProgress(done, total)}`);
              }
            } else if (done >= nextByteReport) {
              nextByteReport = done + (1 << 20);
              log(`${source.file}: ${formatProgress(done, total)}`);
            }
          }
        } catch (error) {
          if (error instanceof DataError) throw error;
          const reason = controller.signal.reason instanceof Timeout ? controller.signal.reason : error;
          throw new Interrupted(`${source.file}: transfer interrupted at ${formatProgress(done, total)} (${describe(reason)})`, {
            cause: reason,
          });
        }
      }
    } finally {
      await handle.close();
    }
    if (total !== undefined && done < total) {
      throw new Interrupted(`${source.file}: the server closed the connection at ${formatProgress(done, total)}`);
    }
    log(`${source.file}: ${formatProgress(done, total ?? done)} received`);
    return 'complete';
  } finally {
    clearTimeout(timer);
  }
}

function describe(error: unknown): string {
  if (error instanceof Timeout) return error.message;
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  return code ? `${code}: ${message}` : message;
}

/** The server answered, but not with the file (404, 500, …). */
function statusError(source: DataSource, dir: string, hooks: DatasetHooks, response: Response): DataError {
  return new DataError(source.url, `download failed: HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}.\n${howToProvideByHand(source, dir, hooks)}`, {
    code: 'download',
  });
}

function networkError(source: DataSource, dir: string, hooks: DatasetHooks, error: unknown, started: boolean): DataError {
  const code = error instanceof Timeout ? 'timeout' : errorCode(error);
  const offline = error instanceof Timeout || (code !== undefined && OFFLINE_CODES.has(code));
  const why = offline
    ? `the server could not be reached (${describe(error)}); you may be offline`
    : `the request failed (${describe(error)})`;
  return new DataError(source.url, `${started ? 'download interrupted' : 'download failed'}: ${why}.\n${howToProvideByHand(source, dir, hooks)}`, {
    code: 'download',
    cause: error,
  });
}

async function download(ctx: TransferContext, retries: number): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      // 'range-not-satisfiable' (416): the partial file is already as long as the resource; verification decides.
      await transfer(ctx);
      return;
    } catch (error) {
      if (!(error instanceof Interrupted)) throw error;
      if (attempt >= retries) {
        const kept = (await sizeOf(ctx.part)) ?? 0;
        throw new DataError(
          ctx.source.url,
          `${error.message}; gave up after ${retries + 1} attempts. The ${kept} bytes received are kept in ${ctx.part}: running the command again resumes from there.\n${howToProvideByHand(ctx.source, ctx.dir, ctx.hooks)}`,
          { code: 'download', cause: error },
        );
      }
      ctx.log(`${error.message}; resuming (attempt ${attempt + 2} of ${retries + 1})`);
    }
  }
}

const defaultLog = (line: string) => process.stderr.write(`${line}\n`);

/** The file already in place and verified, or undefined (absent, or present but failing verification: to download). */
async function presentFile(source: DataSource, options: FetchDataOptions, hooks: DatasetHooks): Promise<FetchedFile | undefined> {
  const log = options.log ?? defaultLog;
  const target = path.join(options.dir, ...source.file.split('/'));
  if ((await sizeOf(target)) === undefined) return undefined;
  const present = await verify(target, source, options.password, hooks);
  if (present.ok) {
    log(`${source.file}: already present and verified`);
    return { dataset: source.dataset, path: target, bytes: (await sizeOf(target))!, sha256: present.sha256, status: 'already-present' };
  }
  log(`${source.file}: present but fails verification (${present.reason}); downloading it again`);
  return undefined;
}

/** Whether the server has the file (a HEAD request): the DataError a download would end with, or undefined. */
async function unavailable(source: DataSource, options: FetchDataOptions, hooks: DatasetHooks): Promise<DataError | undefined> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Timeout(timeoutMs)), timeoutMs);
  try {
    const response = await (options.fetch ?? globalThis.fetch)(source.url, { method: 'HEAD', signal: controller.signal, redirect: 'follow' });
    await response.body?.cancel().catch(() => undefined);
    // A server that does not answer HEAD (405, 501) is left to the download itself.
    return response.ok || response.status === 405 || response.status === 501 ? undefined : statusError(source, options.dir, hooks, response);
  } catch (error) {
    return networkError(source, options.dir, hooks, controller.signal.reason instanceof Timeout ? controller.signal.reason : error, false);
  } finally {
    clearTimeout(timer);
  }
}

/** Downloads one file into place; the folders it had to create are added to `created`. */
async function fetchOne(source: DataSource, options: Required<Pick<FetchDataOptions, 'dir'>> & FetchDataOptions, hooks: DatasetHooks, created: string[]): Promise<FetchedFile> {
  const log = options.log ?? defaultLog;
  const target = path.join(options.dir, ...source.file.split('/'));
  const part = `${target}.part`;
  // The folders this makes, outermost first, so a failed run can take them away again.
  const missing: string[] = [];
  for (let folder = path.dirname(target); (await stat(folder).catch(() => undefined)) === undefined && path.dirname(folder) !== folder; folder = path.dirname(folder)) missing.unshift(folder);
  await mkdir(path.dirname(target), { recursive: true }).catch((error: unknown) => {
    throw ioError(path.dirname(target), 'cannot create the data folder', error);
  });
  created.push(...missing);
  const ctx: TransferContext = {
    hooks,
    source,
    dir: options.dir,
    part,
    fetchImpl: options.fetch ?? globalThis.fetch,
    log,
    timeoutMs: options.timeoutMs ?? 30_000,
  };
  const resumedEarlierRun = ((await sizeOf(part)) ?? 0) > 0;
  await download(ctx, options.retries ?? 3);
  let verdict = await verify(part, source, options.password, hooks);
  if (!verdict.ok && resumedEarlierRun) {
    // A stale partial file (e.g. of an older upload) poisons a resume: try once from scratch.
    log(`${source.file}: ${verdict.reason}; downloading once more from the start`);
    await rm(part, { force: true });
    await download(ctx, options.retries ?? 3);
    verdict = await verify(part, source, options.password, hooks);
  }
  if (!verdict.ok) {
    await rm(part, { force: true });
    throw new DataError(target, `downloaded file failed verification: ${verdict.reason}. It was deleted.\n${howToProvideByHand(source, options.dir, hooks)}`, {
      code: 'checksum',
    });
  }
  // Same folder, so atomic: the final name only ever holds a verified file.
  await rename(part, target).catch((error: unknown) => {
    throw ioError(target, `cannot move the verified download ${part} into place`, error);
  });
  const bytes = (await sizeOf(target))!;
  log(`${source.file}: saved ${bytes} bytes, sha256 ${verdict.sha256}${source.sha256 ? ' (matches the pinned hash)' : ' (structure verified)'}`);
  return { dataset: source.dataset, path: target, bytes, sha256: verdict.sha256, status: 'downloaded' };
}

/**
 * Downloads every source (or those of `only`) into `dir`; files already present and valid are kept. Every file still
 * needed is asked of its server first: when any is unavailable, all of them are named in one error and nothing is
 * downloaded or created. A download that fails leaves no folder it created empty (a kept `.part` still resumes).
 */
export async function downloadData(options: FetchDataOptions, hooks: DatasetHooks): Promise<FetchedFile[]> {
  const sources = (options.sources ?? DATA_SOURCES).filter((s) => options.only === undefined || s.dataset === options.only);
  const present = new Map<DataSource, FetchedFile>();
  for (const source of sources) {
    const kept = await presentFile(source, options, hooks);
    if (kept) present.set(source, kept);
  }
  const needed = sources.filter((s) => !present.has(s));
  const problems = (await Promise.all(needed.map((s) => unavailable(s, options, hooks)))).filter((e): e is DataError => e !== undefined);
  if (problems.length === 1) throw problems[0]!;
  if (problems.length > 1) {
    const detail = `${problems.length} of the ${needed.length} files to download are not available, so none was downloaded and nothing was written:`;
    throw new DataError(options.dir, [detail, ...problems.map((p) => p.message)].join('\n\n'), { code: 'download' });
  }
  const created: string[] = [];
  const results: FetchedFile[] = [];
  try {
    for (const source of sources) results.push(present.get(source) ?? (await fetchOne(source, options, hooks, created)));
  } catch (error) {
    // Deepest first; a folder holding a file (a kept .part, a verified download) stays.
    for (const folder of created.reverse()) await rmdir(folder).catch(() => undefined);
    throw error;
  }
  return results;
}
