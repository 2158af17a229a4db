// Which baseline file is a benchmark's: LOKAL_BASELINE names a results folder (each benchmark takes its own
// `<name>.json` there, if present) or one results file (Kalahi's when its `benchmark` is "kalahi", MultiLoKo's
// otherwise — `lokal score` output and eval.py's layout carry no such field).
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

function isDirectory(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}

/** The `benchmark` field of a results file, undefined when it has none or cannot be read (its reader then explains). */
function benchmarkOf(file: string): string | undefined {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    const field = value !== null && typeof value === 'object' ? (value as Record<string, unknown>).benchmark : undefined;
    return typeof field === 'string' ? field : undefined;
  } catch {
    return undefined;
  }
}

/** The benchmark's baseline file for the setting (resolved against `root`), or undefined when it has none there. */
export function baselineFileFor(setting: string, root: string, benchmark: string, resultsFile = `${benchmark}.json`): string | undefined {
  const resolved = path.resolve(root, setting);
  if (isDirectory(resolved)) {
    const file = path.join(resolved, resultsFile);
    return isDirectory(file) || !safeExists(file) ? undefined : file;
  }
  const declared = benchmarkOf(resolved);
  if (benchmark === 'kalahi') return declared === 'kalahi' ? resolved : undefined;
  // Any other file is MultiLoKo's (unreadable ones too, so that its reader names the problem).
  return declared === undefined || declared === benchmark ? resolved : undefined;
}

function safeExists(file: string): boolean {
  try {
    statSync(file);
    return true;
  } catch {
    return false;
  }
}
