// Small file helpers shared by the CLI and the reporters.
import { closeSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { appendFile, mkdir, rename, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { dirname, join, basename } from 'node:path';

/** A failed write, naming the file and the system's reason (ENOSPC, EISDIR, EACCES, …). */
export class FileWriteError extends Error {
  constructor(
    readonly file: string,
    readonly code: string | undefined,
    reason: string,
  ) {
    super(`cannot write ${file} (${code ?? 'error'}): ${reason}`);
    this.name = 'FileWriteError';
  }
}

function writeError(file: string, error: unknown): FileWriteError {
  const { code, message } = error as NodeJS.ErrnoException;
  return new FileWriteError(file, code, (message ?? String(error)).replace(/^[A-Z]+: /u, ''));
}

/** The temp file a write goes to first: in the same folder (so the rename is atomic), named after the writer. */
function tempPathFor(file: string): string {
  return join(dirname(file), `.${basename(file)}.${process.pid}.${Date.now()}.tmp`);
}

/** Whether a process with this id runs (EPERM: it does, as another user's). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
}

/**
 * Removes the temp files that earlier writes of `file` left behind when they were killed (`.<name>.<pid>.<time>.tmp`,
 * and the report writer's former `<name>.<pid>.tmp`), only those whose writer process is gone. Best effort.
 */
export function removeStaleTemps(file: string): string[] {
  const name = escapeRegExp(basename(file));
  const pattern = new RegExp(`^(?:\\.${name}\\.(\\d+)\\.\\d+|${name}\\.(\\d+))\\.tmp$`, 'u');
  const removed: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(dirname(file));
  } catch {
    return removed;
  }
  for (const entry of entries) {
    const match = pattern.exec(entry);
    if (!match) continue;
    const pid = Number(match[1] ?? match[2]);
    if (pid === process.pid || processAlive(pid)) continue;
    try {
      rmSync(join(dirname(file), entry), { force: true });
      removed.push(entry);
    } catch {
      // another run's cleanup got there first, or the folder is read-only: the write below reports what matters
    }
  }
  return removed;
}

/**
 * Appends text to a file; when the append fails part-way (a full disk), the file is cut back to its length before,
 * so no half-written piece (a partial Markdown table) stays.
 */
export async function appendFileOrRestore(file: string, text: string, append: (file: string, text: string) => Promise<void> = appendFile): Promise<void> {
  let before: number | undefined;
  try {
    before = (await stat(file)).size;
  } catch {
    before = undefined;
  }
  try {
    await append(file, text);
  } catch (error) {
    try {
      if (before === undefined) await rm(file, { force: true });
      else await truncate(file, before);
    } catch {
      // the append's own error is the one to report
    }
    throw error;
  }
}

/**
 * Writes via a temp file in the same folder and renames, so readers never see a half-written file; a failed write
 * leaves no temp file. `content` may be text in pieces (src/core/jsonPieces.ts), written as if joined.
 */
export async function writeFileAtomic(file: string, content: string | readonly string[]): Promise<void> {
  try {
    await mkdir(dirname(file), { recursive: true });
  } catch (error) {
    throw writeError(file, error);
  }
  removeStaleTemps(file);
  const temp = tempPathFor(file);
  try {
    // pieces are encoded and written one by one: joining them, one two-byte piece would make the whole text two-byte
    await writeFile(temp, content);
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw writeError(file, error);
  }
}

/** Text handed over in pieces, in order (a large file's text need never be held whole). */
export type ChunkedText = (write: (piece: string) => void) => void;

/** Every byte of `bytes[0, length)` to the descriptor (writeSync may write less than asked). */
function writeAllSync(fd: number, bytes: Uint8Array, length = bytes.length): void {
  for (let done = 0; done < length; ) done += writeSync(fd, bytes, done, length - done);
}

const WRITE_BUFFER_BYTES = 1 << 20;

/** Pieces of text encoded as UTF-8 straight into one reused buffer, written out when full: no joined copy of the text. */
function writePiecesSync(fd: number, content: ChunkedText): void {
  const buffer = Buffer.allocUnsafe(WRITE_BUFFER_BYTES);
  let used = 0;
  content((piece) => {
    // A UTF-16 unit becomes at most 3 UTF-8 bytes (a surrogate pair, 2 units, becomes 4).
    if (used + piece.length * 3 > WRITE_BUFFER_BYTES) {
      writeAllSync(fd, buffer, used);
      used = 0;
      if (piece.length * 3 > WRITE_BUFFER_BYTES) return writeAllSync(fd, Buffer.from(piece, 'utf8'));
    }
    used += buffer.write(piece, used, 'utf8');
  });
  writeAllSync(fd, buffer, used);
}

/**
 * writeFileAtomic for a command that has nothing else to do meanwhile (`lokal score`): blocking writes, no
 * thread-pool round trip per 512 KiB chunk of the promise API. `content`: the text, or a function that hands it over
 * in pieces.
 */
export function writeFileAtomicSync(file: string, content: string | ChunkedText): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
  } catch (error) {
    throw writeError(file, error);
  }
  removeStaleTemps(file);
  const temp = tempPathFor(file);
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'w');
    if (typeof content === 'string') writeAllSync(fd, Buffer.from(content, 'utf8'));
    else writePiecesSync(fd, content);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, file);
  } catch (error) {
    try {
      if (fd !== undefined) closeSync(fd);
    } catch {
      // the write's own error is the one to report
    }
    rmSync(temp, { force: true });
    throw writeError(file, error);
  }
}
