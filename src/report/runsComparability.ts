// `lokal compare`'s check of the runs' fingerprints: every later run against the first, per benchmark, with the same
// rule as the baseline gate (a score-changing difference refuses that benchmark of that run unless allowed; models are
// reported).
import { compareFingerprints, FingerprintError, parseFingerprint, type Comparability } from '../core/fingerprint.ts';
import { terminalText } from '../data/terminalText.ts';
import type { RunResults } from './types.ts';
import { withoutMCProtocol } from '../core/mcProtocol.ts';

export interface RunComparability {
  /** Index of the later run (1-based position in the list is index + 1). */
  index: number;
  benchmark: 'multiloko' | 'kalahi';
  comparability: Comparability;
}

/**
 * The fingerprint a results file carries: multiloko.json's `summary.fingerprint` (`lokal.fingerprint` of `lokal score`
 * output), kalahi.json's `fingerprint`; undefined when it has none. A malformed one is an error naming the file and field.
 */
export function fingerprintOf(results: RunResults, benchmark: 'multiloko' | 'kalahi', source: string) {
  try {
    // Kalahi's MC protocol is checked per variant, its MC figures left out where it differs (compareRuns.ts).
    if (benchmark !== 'multiloko') return withoutMCProtocol(parseFingerprint((results.kalahi as { fingerprint?: unknown } | undefined)?.fingerprint, 'fingerprint'));
    // `lokal score` output keeps its fingerprint in its own `lokal` section.
    return parseFingerprint(results.multiloko?.summary?.fingerprint, 'summary.fingerprint') ?? parseFingerprint((results.multiloko?.lokal as { fingerprint?: unknown } | undefined)?.fingerprint, 'lokal.fingerprint');
  } catch (error) {
    if (error instanceof FingerprintError) throw new Error(terminalText(`${source} (${benchmark}) ${error.message}`));
    throw error;
  }
}

/** Each later run's comparability with the first, for each benchmark both hold. */
export function runsComparability(runs: ReadonlyArray<{ results: RunResults; source: string }>, allow: readonly string[]): RunComparability[] {
  const out: RunComparability[] = [];
  for (const benchmark of ['multiloko', 'kalahi'] as const) {
    if (!runs[0]?.results[benchmark]) continue;
    const first = fingerprintOf(runs[0].results, benchmark, runs[0].source);
    runs.forEach((run, index) => {
      if (index === 0 || !run.results[benchmark]) return;
      out.push({ index, benchmark, comparability: compareFingerprints(fingerprintOf(run.results, benchmark, run.source), first, allow) });
    });
  }
  return out;
}

/** The runs without the benchmarks refused for them; a benchmark no later run keeps is left out of the first run too. */
export function comparableRuns<Run extends { results: RunResults }>(runs: readonly Run[], checks: readonly RunComparability[]): Run[] {
  const refused = (index: number, benchmark: 'multiloko' | 'kalahi') => checks.some((c) => c.index === index && c.benchmark === benchmark && c.comparability.refused.length > 0);
  const kept = runs.map((run, index) => {
    const results = { ...run.results };
    for (const benchmark of ['multiloko', 'kalahi'] as const) if (refused(index, benchmark)) delete results[benchmark];
    return { ...run, results };
  });
  for (const benchmark of ['multiloko', 'kalahi'] as const) {
    const lost = checks.some((c) => c.benchmark === benchmark && c.comparability.refused.length > 0);
    if (lost && !kept.slice(1).some((run) => run.results[benchmark])) delete kept[0]!.results[benchmark];
  }
  return kept;
}
