// `lokal compare`'s check of the runs' fingerprints: every later run against the first, per benchmark, with the same
// rule as the baseline gate (a score-changing difference refuses the comparison unless allowed; models are reported).
import { compareFingerprints, readFingerprint, type Comparability } from '../core/fingerprint.ts';
import type { RunResults } from './types.ts';

export interface RunComparability {
  /** Index of the later run (1-based position in the list is index + 1). */
  index: number;
  benchmark: 'multiloko' | 'kalahi';
  comparability: Comparability;
}

/** The fingerprint a results file carries: multiloko.json's `summary.fingerprint` (`lokal.fingerprint` of `lokal score` output), kalahi.json's `fingerprint`. */
export function fingerprintOf(results: RunResults, benchmark: 'multiloko' | 'kalahi') {
  if (benchmark !== 'multiloko') return readFingerprint((results.kalahi as { fingerprint?: unknown } | undefined)?.fingerprint);
  // `lokal score` output keeps its fingerprint in its own `lokal` section.
  return readFingerprint(results.multiloko?.summary?.fingerprint) ?? readFingerprint((results.multiloko?.lokal as { fingerprint?: unknown } | undefined)?.fingerprint);
}

/** Each later run's comparability with the first, for each benchmark both hold. */
export function runsComparability(runs: ReadonlyArray<{ results: RunResults }>, allow: readonly string[]): RunComparability[] {
  const out: RunComparability[] = [];
  for (const benchmark of ['multiloko', 'kalahi'] as const) {
    if (!runs[0]?.results[benchmark]) continue;
    const first = fingerprintOf(runs[0].results, benchmark);
    runs.forEach((run, index) => {
      if (index === 0 || !run.results[benchmark]) return;
      out.push({ index, benchmark, comparability: compareFingerprints(fingerprintOf(run.results, benchmark), first, allow) });
    });
  }
  return out;
}
