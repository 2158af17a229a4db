// The baseline gate's minimum detectable effect for the trials a run used (docs/trials.md#the-baseline-gate-with-trials),
// as the report and the step summary state it: read from the gate's own tests in multiloko.json's summary.baseline.
import type { MultiLoKoResultsJson } from '../resultsSchema.ts';
import { trialsRange } from './trialTable.ts';

export interface BaselineMde {
  /** Fewest and most trials an item of the run holds. */
  fewestTrials: number;
  mostTrials: number;
  alpha: number;
  /** Each figure the gate tested, with its paired items, its test and its MDE (null: no spread to measure). */
  tests: Array<{ figure: string; n: number; test: string; family: number; mde: number | null }>;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The MDE of each baseline test of a run with trials; undefined without a paired baseline comparison or without trials
 * (a run of one answer per item shows the MDE in its comparison table, as before).
 */
export function baselineMde(results: MultiLoKoResultsJson): BaselineMde | undefined {
  const summary = results.summary;
  const baseline = isObject(summary) ? summary.baseline : undefined;
  if (!isObject(baseline) || !Array.isArray(baseline.tests) || typeof baseline.alpha !== 'number') return undefined;
  let fewest = Infinity;
  let most = 0;
  for (const s of summary?.subsets ?? []) {
    const trials = s.trials;
    if (!isObject(trials) || typeof trials.fewest_trials !== 'number' || typeof trials.most_trials !== 'number') continue;
    fewest = Math.min(fewest, trials.fewest_trials);
    most = Math.max(most, trials.most_trials);
  }
  if (most === 0) return undefined;
  const tests = baseline.tests.filter(isObject).map((t) => ({
    figure: String(t.figure),
    n: typeof t.n === 'number' ? t.n : 0,
    test: String(t.test),
    family: typeof t.family === 'number' ? t.family : 1,
    mde: typeof t.mde === 'number' ? t.mde : null,
  }));
  return tests.length === 0 ? undefined : { fewestTrials: fewest, mostTrials: most, alpha: baseline.alpha, tests };
}

/** One sentence: what the MDE is for the trials used, and why more trials lower it. */
export function baselineMdeNote(m: BaselineMde): string {
  return (
    `Minimum detectable effect of the baseline gate at k = ${trialsRange(m.fewestTrials, m.mostTrials)} trials per item: the smallest true change in EM its paired test ` +
    `detects with 80% power at α = ${m.alpha} after Holm, (z₁₋α/2 + z₀.₈) · sd(d)/√n over the per-item differences of trial means ` +
    `(averaging k trials shrinks their trial noise by k, so more trials detect smaller drops with the same items).`
  );
}

/** `0.0440`, or a dash where the test had no spread to measure. */
export const mdeText = (mde: number | null) => (mde === null ? '–' : mde.toFixed(4));
