// The synchronous readRegularFile, for the few small files read where nothing may wait (the GitHub event payload,
// an Ollama manifest, package.json): O_NONBLOCK so a FIFO never blocks the open, fstat on the opened descriptor.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { DataError } from './errors.ts';
import { ioError, kindOf } from './files.ts';

/** Throws a DataError unless the open descriptor `fd` of `file` is a regular file; returns its size. */
function regularSize(fd: number, file: string, action: string): number {
  const stats = fstatSync(fd);
  if (!stats.isFile()) throw new DataError(file, `${action}: it is ${kindOf(stats)}; only regular files are read`, { code: stats.isDirectory() ? 'io' : 'not-regular-file' });
  return stats.size;
}

/** Opens `file` without blocking (a FIFO opens at once, then is refused by regularSize); an I/O DataError otherwise. */
function openNonBlocking(file: string, action: string): number {
  try {
    return openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    throw ioError(file, action, error);
  }
}

/** Whether `file` (symlinks followed) is a regular file; a DataError naming what it is otherwise (a FIFO is not opened for reading). */
export function checkRegularFileSync(file: string, what: string): void {
  const action = `cannot read ${what}`;
  const fd = openNonBlocking(file, action);
  try {
    regularSize(fd, file, action);
  } finally {
    closeSync(fd);
  }
}

/** The UTF-8 text of a regular file of at most `maxBytes` (`what` names it in messages); a FIFO, device or folder is refused before a byte is read. */
export function readRegularTextSync(file: string, what: string, maxBytes: number): string {
  const action = `cannot read ${what}`;
  const fd = openNonBlocking(file, action);
  try {
    const size = regularSize(fd, file, action);
    const tooLarge = () => new DataError(file, `${action}: it is larger than ${maxBytes} bytes, more than a ${what} may be`, { code: 'too-large' });
    if (size > maxBytes) throw tooLarge();
    // One byte past the limit: a file that grew since fstat is still caught.
    const buffer = Buffer.allocUnsafe(Math.min(size, maxBytes) + 1);
    let total = 0;
    for (let read = -1; read !== 0 && total < buffer.length; total += read) read = readSync(fd, buffer, total, buffer.length - total, null);
    if (total > maxBytes) throw tooLarge();
    return buffer.toString('utf8', 0, total);
  } catch (error) {
    throw ioError(file, action, error);
  } finally {
    closeSync(fd);
  }
}
