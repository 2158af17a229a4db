// The headline's trial figures (docs/trials.md#per-subset-and-headline): pass@k and pass^k of each local language,
// averaged over the languages as the headline averages EM, each with a bootstrap interval (items resampled within
// their language, trials kept with their item). Only for a run with trials: a run of one answer per item has none.
import { passAtK, passHatK } from '../../../core/statistics/passAtK.ts';
import { reportedKs } from '../../../core/statistics/reportedKs.ts';
import { stratumAverage } from '../../../core/statistics/stratumAverage.ts';
import type { RolledSubset } from '../run/rolledSubset.ts';
import { trialFiguresText, trialsRange, type TrialFigureJson } from './trialTable.ts';

export interface HeadlineTrials {
  /** Local languages averaged. */
  languages: number;
  fewest_trials: number;
  most_trials: number;
  /** pass@k and pass^k by k (1 and the largest power of two ≤ the fewest trials), averaged over the local languages. */
  pass_at: Record<string, TrialFigureJson>;
  pass_hat: Record<string, TrialFigureJson>;
}

/** The local subsets' trial figures averaged over languages; undefined when no local item has trials. */
export function headlineTrials(subsets: readonly RolledSubset[]): HeadlineTrials | undefined {
  const local = subsets.filter((s) => !s.aggregate.translated && s.aggregate.means && s.records.length > 0);
  if (!local.some((s) => s.records.some((r) => r.trials !== undefined))) return undefined;
  // Per language, each item's (trials, right): an item without trials counts its one answer.
  const counts = local.map((s) => s.records.map((r) => (r.trials ? { n: r.trials.length, c: r.trials.filter((t) => t.scores.em === 1).length } : { n: 1, c: r.scores.em === 1 ? 1 : 0 })));
  let fewest = Infinity;
  let most = 0;
  for (const language of counts) {
    for (const { n } of language) {
      fewest = Math.min(fewest, n);
      most = Math.max(most, n);
    }
  }
  const figure = (perItem: (n: number, c: number) => number): TrialFigureJson => {
    const { value, low, high } = stratumAverage(counts.map((language) => language.map(({ n, c }) => perItem(n, c))));
    return { value, low, high };
  };
  const ks = reportedKs(fewest);
  return {
    languages: local.length,
    fewest_trials: fewest,
    most_trials: most,
    pass_at: Object.fromEntries(ks.map((k) => [String(k), figure((n, c) => passAtK(n, c, k))])),
    pass_hat: Object.fromEntries(ks.map((k) => [String(k), figure((n, c) => passHatK(n, c, k))])),
  };
}

/** The headline's line: trials per item, then the figures, over how many local languages. */
export function headlineTrialsLine(t: HeadlineTrials): string {
  return `MultiLoKo headline over ${trialsRange(t.fewest_trials, t.most_trials)} trials per item · × 100, average over ${t.languages} local language${t.languages === 1 ? '' : 's'} with 95% intervals (bootstrap over items within each language): ${trialFiguresText(t)}`;
}
