// LOKAL_MODEL_CACHE that cannot be written (a file, a path under a file, a read-only folder): models still load, from
// their own files and downloads kept in memory, and nothing is saved. Said once per folder and process, naming the
// setting, rather than on every model and encoder load.
import path from 'node:path';

const warned = new Set<string>();

/** The warning for an unwritable model cache the first time `folder` fails, undefined after that. */
export function unwritableCacheWarning(folder: string, error: unknown): string | undefined {
  if (warned.has(folder)) return undefined;
  warned.add(folder);
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? (error instanceof Error ? error.message.split('\n')[0] : String(error));
  return `lokal: the model cache ${folder} (LOKAL_MODEL_CACHE) cannot be written (${code}): models load without saving there (downloads kept in memory, optimised graphs not saved); set LOKAL_MODEL_CACHE to a writable folder to keep them`;
}

/** Whether a failed file operation's path is `folder` or inside it (the cache's fault, not the model files'). */
export function isUnder(file: string | undefined, folder: string): boolean {
  if (file === undefined) return false;
  const relative = path.relative(folder, path.resolve(file));
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
