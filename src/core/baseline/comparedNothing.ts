// A baseline that compares nothing fails: LOKAL_BASELINE set, but no file of the benchmark there (an empty folder, an
// artifact download that failed, another benchmark's results) or not one item paired, is a failing gate saying why —
// a gate list without a baseline line would let a CI regression check pass having checked nothing.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { unmeasured, type GateOutcome } from '../gates.ts';

/** Why the baseline setting gives the benchmark no file to compare with (baselineFileFor returned none). */
export function noBaselineFileReason(setting: string, root: string, title: string, resultsFile: string): string {
  const resolved = path.resolve(root, setting);
  let stats;
  try {
    stats = statSync(resolved);
  } catch (error) {
    return `the baseline ${setting} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  if (stats.isDirectory()) {
    let entries: string[];
    try {
      entries = readdirSync(resolved);
    } catch (error) {
      return `the baseline folder ${setting} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
    }
    return entries.length === 0 ? `the baseline folder ${setting} is empty (an artifact download that failed?)` : `the baseline folder ${setting} holds no ${resultsFile}`;
  }
  let declared: unknown;
  try {
    declared = (JSON.parse(readFileSync(resolved, 'utf8')) as { benchmark?: unknown } | null)?.benchmark;
  } catch {
    declared = undefined;
  }
  return typeof declared === 'string' ? `the baseline ${setting} holds ${declared} results, not ${title}'s` : `the baseline ${setting} holds no ${title} results`;
}

/** The failing gate of a baseline that compared nothing; `why` says what was missing. */
export function comparedNothing(title: string, why: string): GateOutcome {
  return unmeasured('baseline', `${title} vs baseline`, '>=', 0, `nothing was compared: ${why}`);
}
