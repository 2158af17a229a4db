// Where a run writes is checked before it asks the model anything: an output folder that is a file or not writable,
// or a response cache that cannot be created, would otherwise fail only after every answer was paid for (or lost).
import { accessSync, constants, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { cacheSignatureProblem } from './cache.ts';
import { LokalConfigError } from '../core/settings.ts';

function statOf(target: string): Stats | undefined {
  try {
    return statSync(target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ENOTDIR: a file stands somewhere above; the walk up finds and names it.
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** The errno code when `target` cannot be written (a folder: nor entered), else undefined. */
function unwritable(target: string, folder: boolean): string | undefined {
  try {
    accessSync(target, folder ? constants.W_OK | constants.X_OK : constants.W_OK);
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'error';
  }
}

/** Why files cannot be created in `folder` (created first if absent), or undefined when they can. */
export function folderProblem(folder: string): string | undefined {
  const target = path.resolve(folder);
  for (let current = target; ; current = path.dirname(current)) {
    const stat = statOf(current);
    if (stat) {
      if (!stat.isDirectory()) return current === target ? 'is a file, not a folder' : `cannot be created: ${current} is a file, not a folder`;
      const code = unwritable(current, true);
      if (code === undefined) return undefined;
      return current === target ? `is not writable (${code})` : `cannot be created: ${current} is not writable (${code})`;
    }
    if (path.dirname(current) === current) return 'cannot be created: no folder above it exists';
  }
}

/** Why the response cache file cannot be used in `mode`, or undefined (a cache that is off is never checked). */
export function cacheFileProblem(file: string, mode: 'off' | 'read' | 'write' | 'readwrite'): string | undefined {
  if (mode === 'off') return undefined;
  const writes = mode !== 'read';
  const stat = statOf(path.resolve(file));
  if (stat) {
    if (stat.isDirectory()) return 'is a folder (EISDIR); give a file name';
    if (!stat.isFile()) return 'is not a regular file';
    const signature = cacheSignatureProblem(path.resolve(file));
    if (signature) return signature;
    if (!writes) return undefined;
    const code = unwritable(path.resolve(file), false);
    return code === undefined ? undefined : `is not writable (${code})`;
  }
  if (!writes) return undefined;
  const problem = folderProblem(path.dirname(path.resolve(file)));
  return problem === undefined ? undefined : `its folder ${problem}`;
}

/** Throws a LokalConfigError naming the setting when the output folder cannot hold the results files. */
export function requireOutputFolder(folder: string): void {
  const problem = folderProblem(folder);
  if (problem) throw new LokalConfigError('LOKAL_OUTPUT (setting "output")', undefined, `${folder}: ${problem} (checked before any model call)`);
}

/** Throws a LokalConfigError naming the setting when the response cache cannot be read or written as configured. */
export function requireCacheFile(file: string, mode: 'off' | 'read' | 'write' | 'readwrite'): void {
  const problem = cacheFileProblem(file, mode);
  if (problem) throw new LokalConfigError('LOKAL_CACHE_FILE (setting "cacheFile")', undefined, `${file}: ${problem} (LOKAL_CACHE=${mode}; checked before any model call)`);
}
