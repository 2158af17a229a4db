// Small file helpers shared by the CLI and the reporters.
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
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

/** Writes via a temp file in the same folder and renames, so readers never see a half-written file; a failed write leaves no temp file. */
export async function writeFileAtomic(file: string, content: string): Promise<void> {
  try {
    await mkdir(dirname(file), { recursive: true });
  } catch (error) {
    throw writeError(file, error);
  }
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${Date.now()}.tmp`);
  try {
    await writeFile(temp, content);
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw writeError(file, error);
  }
}
