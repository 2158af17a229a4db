// Reading input files safely: regular files only (a FIFO or /dev/zero is refused before a byte is read), a size
// limit with a clear error, strict UTF-8, and big files line by line so no string ever holds the whole file.
// node:fs/promises, not node:fs: the ESM facade of node:fs loads Node's whole streams stack at start-up.
import type { Stats } from 'node:fs';
import { constants, open, type FileHandle } from 'node:fs/promises';
import { DataError } from './errors.ts';

const MiB = 2 ** 20;

/** Largest file read whole (dataset JSONL, Kalahi CSV, the encrypted archive): far above any published file. */
export const DEFAULT_MAX_FILE_BYTES = 256 * MiB;
/** Largest file read line by line (predictions, replies): its rows are kept in memory, so 2 GiB bounds them too. */
export const DEFAULT_MAX_STREAM_BYTES = 2 * 1024 * MiB;
/** Longest line of a file read line by line, in UTF-16 units (a JS string holds at most 2^29 − 24). */
const MAX_LINE_UNITS = 2 ** 28;
const CHUNK_BYTES = MiB;

/** Limits of the data loaders; every one is an option of the loader that reads the file. */
export interface FileLimits {
  /** Largest file read whole, in bytes (default 256 MiB). */
  maxFileBytes?: number;
  /** Largest predictions or replies file, read line by line, in bytes (default 2 GiB). */
  maxStreamBytes?: number;
}

const EXPLAINED: Record<string, string> = {
  ENOENT: 'no such file',
  ENOTDIR: 'a folder on its path is a file',
  EISDIR: 'it is a folder',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  EMFILE: 'too many open files',
  ENAMETOOLONG: 'the name is too long',
  ELOOP: 'too many levels of symbolic links',
  ENXIO: 'no such device (a socket?)',
  EIO: 'input/output error',
};

/** An fs error's code and what it means in a few words (`EACCES`, `permission denied`), never a stack or a path. */
function errnoDetail(error: unknown): { code?: string; text: string } {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === 'string') return { code, text: EXPLAINED[code] ?? (error as Error).message.replace(/^[A-Z]+: /, '').replace(/, \w+ '.*'$/, '') };
  return { text: error instanceof Error ? error.message : String(error) };
}

/** A DataError for a failed read or write of `file`: `<action> (EACCES): permission denied`. */
export function ioError(file: string, action: string, error: unknown): DataError {
  if (error instanceof DataError) return error;
  const { code, text } = errnoDetail(error);
  const missing = code === 'ENOENT' || code === 'ENOTDIR';
  return new DataError(file, `${action} (${code ?? 'error'}): ${text}`, { code: missing ? 'not-found' : 'io', cause: error });
}

/** What a file that is not regular is, in a few words (`a FIFO (named pipe)`). */
export function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder (EISDIR)';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

function formatBytes(bytes: number): string {
  if (bytes >= 2 ** 30) return `${+(bytes / 2 ** 30).toFixed(2)} GiB`;
  if (bytes >= MiB) return `${+(bytes / MiB).toFixed(2)} MiB`;
  return `${bytes} bytes`;
}

/** The message of a file over its limit: the size, the limit and the option that raises it. */
function tooLarge(file: string, what: string, bytes: number, limit: number, option: string): DataError {
  return new DataError(
    file,
    `${what} is ${formatBytes(bytes)}, more than the limit of ${formatBytes(limit)} (raise it with the ${option} option)`,
    { code: 'too-large' },
  );
}

/**
 * Opens `file` for reading if it is a regular file (symlinks followed): O_NONBLOCK so a FIFO never blocks the open,
 * then fstat on the opened descriptor, so what is checked is what is read.
 */
async function openRegularFile(file: string, action: string): Promise<{ handle: FileHandle; size: number }> {
  let handle: FileHandle;
  try {
    handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    throw ioError(file, action, error);
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) {
      throw new DataError(file, `${action}: it is ${kindOf(stats)}; only regular files are read`, {
        code: stats.isDirectory() ? 'io' : 'not-regular-file',
      });
    }
    return { handle, size: stats.size };
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw ioError(file, action, error);
  }
}

interface ReadLimitOptions {
  /** What the file is, for messages: `cannot read <what>`. */
  what: string;
  maxBytes: number;
  /** The option that raises `maxBytes`, named in the message. */
  option: string;
}

/** Reads a whole regular file of at most `maxBytes` (checked before reading and again while reading). */
export async function readRegularFile(file: string, { what, maxBytes, option }: ReadLimitOptions): Promise<Buffer> {
  const action = `cannot read ${what}`;
  const { handle, size } = await openRegularFile(file, action);
  try {
    if (size > maxBytes) throw tooLarge(file, 'the file', size, maxBytes, option);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      // The size may have changed since fstat: read until EOF, at most one byte past the limit.
      const length = Math.min(total < size ? size - total : CHUNK_BYTES, maxBytes + 1 - total);
      const buffer = Buffer.allocUnsafe(length);
      const { bytesRead } = await handle.read(buffer, 0, length, null);
      if (bytesRead === 0) break;
      chunks.push(bytesRead === length ? buffer : buffer.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) throw tooLarge(file, 'the file', total, maxBytes, option);
    }
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
  } catch (error) {
    throw ioError(file, action, error);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

interface StreamOptions extends ReadLimitOptions {
  /** Bytes per read (tests use small chunks to cross every boundary). */
  chunkBytes?: number;
}

/** The bytes of a regular file, chunk by chunk, at most `maxBytes` in all. */
export async function* readChunks(file: string, { what, maxBytes, option, chunkBytes = CHUNK_BYTES }: StreamOptions): AsyncGenerator<Buffer> {
  const action = `cannot read ${what}`;
  const { handle, size } = await openRegularFile(file, action);
  try {
    if (size > maxBytes) throw tooLarge(file, 'the file', size, maxBytes, option);
    let total = 0;
    for (;;) {
      const buffer = Buffer.allocUnsafe(chunkBytes);
      let bytesRead: number;
      try {
        ({ bytesRead } = await handle.read(buffer, 0, chunkBytes, null));
      } catch (error) {
        throw ioError(file, action, error);
      }
      if (bytesRead === 0) return;
      total += bytesRead;
      if (total > maxBytes) throw tooLarge(file, 'the file', total, maxBytes, option);
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** Strict UTF-8 chunk by chunk (a sequence split between chunks is fine); a leading BOM is dropped. */
async function* decodeUtf8Chunks(chunks: AsyncIterable<Uint8Array>, file: string): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let first = true;
  const decode = (bytes?: Uint8Array): string => {
    try {
      return bytes === undefined ? decoder.decode() : decoder.decode(bytes, { stream: true });
    } catch (cause) {
      throw new DataError(file, 'is not valid UTF-8 text', { code: 'invalid-encoding', cause });
    }
  };
  for await (const chunk of chunks) {
    let text = decode(chunk);
    if (first && text !== '') {
      first = false;
      // The decoder drops one BOM; decodeUtf8 (whole files) drops one more, and so does this.
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (text !== '') yield text;
  }
  const rest = decode();
  if (rest !== '') yield first && rest.charCodeAt(0) === 0xfeff ? rest.slice(1) : rest;
}

/**
 * The lines of a text file as `jsonlLines` numbers them (universal newlines: `\n`, `\r\n` and a lone `\r` end a
 * line; blank lines skipped), read chunk by chunk: memory is one chunk plus the longest line.
 */
export async function* readTextLines(file: string, options: StreamOptions): AsyncGenerator<{ line: number; raw: string }> {
  for await (const batch of readTextLineBatches(file, options)) yield* batch;
}

/** readTextLines' lines, one batch per chunk read: one await per chunk instead of one per line. */
export function readTextLineBatches(file: string, options: StreamOptions): AsyncGenerator<Array<{ line: number; raw: string }>> {
  return splitLineBatches(decodeUtf8Chunks(readChunks(file, options), file), file);
}

/** Universal-newline lines of a stream of text pieces, numbered from 1, blank lines skipped: one batch per piece (a batch may be empty). */
async function* splitLineBatches(pieces: AsyncIterable<string>, file: string): AsyncGenerator<Array<{ line: number; raw: string }>> {
  let carry = '';
  let line = 0;
  // A piece ending in "\r" may continue with "\n": that pair is one line break.
  let skipNewline = false;
  const breaks = /\r\n|\r|\n/g;
  for await (const piece of pieces) {
    if (piece === '') continue;
    const batch: Array<{ line: number; raw: string }> = [];
    let start = 0;
    if (skipNewline && piece.charCodeAt(0) === 10) start = 1;
    skipNewline = false;
    breaks.lastIndex = start;
    for (let match = breaks.exec(piece); match !== null; match = breaks.exec(piece)) {
      const raw = carry + piece.slice(start, match.index);
      carry = '';
      line++;
      if (raw.trim() !== '') batch.push({ line, raw });
      start = breaks.lastIndex;
      if (match[0] === '\r' && start === piece.length) skipNewline = true;
    }
    if (start < piece.length) {
      if (carry.length + piece.length - start > MAX_LINE_UNITS) {
        // The lines before it first, so that a problem in one of them is reported first, as line by line.
        yield batch;
        throw new DataError(file, `line is longer than ${MAX_LINE_UNITS} characters`, { line: line + 1, code: 'too-large' });
      }
      carry += piece.slice(start);
    }
    yield batch;
  }
  line++;
  if (carry.trim() !== '') yield [{ line, raw: carry }];
}
