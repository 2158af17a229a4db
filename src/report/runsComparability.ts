// `lokal compare`'s check of the runs' fingerprints: every later run against the first, per benchmark, with the same
// rule as the baseline gate (a score-changing difference refuses that benchmark of that run unless allowed; models are
// reported). Each section reads its own results' fingerprint (ReportSection.fingerprint).
import { compareFingerprints, FingerprintError, type Comparability } from '../core/fingerprint.ts';
import { terminalText } from '../data/terminalText.ts';
import type { ReportSection } from './section.ts';
import type { RunResults } from './types.ts';

interface RunComparability {
  /** Index of the later run (1-based position in the list is index + 1). */
  index: number;
  /** The benchmark's name (its section's). */
  benchmark: string;
  comparability: Comparability;
}

/** The fingerprint a run's results of `section` carry, or undefined; a malformed one is an error naming the file and field. */
function fingerprintOf(results: RunResults, section: ReportSection, source: string) {
  const own = results.benchmarks?.[section.name];
  try {
    return own === undefined ? undefined : section.fingerprint(own);
  } catch (error) {
    if (error instanceof FingerprintError) throw new Error(terminalText(`${source} (${section.name}) ${error.message}`));
    throw error;
  }
}

/** Each later run's comparability with the first, for each section's benchmark both hold. */
export function runsComparability(runs: ReadonlyArray<{ results: RunResults; source: string }>, sections: readonly ReportSection[], allow: readonly string[]): RunComparability[] {
  const out: RunComparability[] = [];
  for (const section of sections) {
    const holds = (results: RunResults) => results.benchmarks?.[section.name] !== undefined;
    if (!runs[0] || !holds(runs[0].results)) continue;
    const first = fingerprintOf(runs[0].results, section, runs[0].source);
    runs.forEach((run, index) => {
      if (index === 0 || !holds(run.results)) return;
      out.push({ index, benchmark: section.name, comparability: compareFingerprints(fingerprintOf(run.results, section, run.source), first, allow) });
    });
  }
  return out;
}

/** The runs without the benchmarks refused for them; a benchmark no later run keeps is left out of the first run too. */
export function comparableRuns<Run extends { results: RunResults }>(runs: readonly Run[], checks: readonly RunComparability[]): Run[] {
  const refused = (index: number, benchmark: string) => checks.some((c) => c.index === index && c.benchmark === benchmark && c.comparability.refused.length > 0);
  const benchmarks = [...new Set(checks.map((c) => c.benchmark))];
  const without = (results: RunResults, benchmark: string): RunResults => {
    const { [benchmark]: _left, ...kept } = results.benchmarks ?? {};
    return { ...results, benchmarks: kept };
  };
  const kept = runs.map((run, index) => {
    let results = { ...run.results };
    for (const benchmark of benchmarks) if (refused(index, benchmark)) results = without(results, benchmark);
    return { ...run, results };
  });
  for (const benchmark of benchmarks) {
    const lost = checks.some((c) => c.benchmark === benchmark && c.comparability.refused.length > 0);
    if (lost && !kept.slice(1).some((run) => run.results.benchmarks?.[benchmark] !== undefined)) kept[0]!.results = without(kept[0]!.results, benchmark);
  }
  return kept;
}
