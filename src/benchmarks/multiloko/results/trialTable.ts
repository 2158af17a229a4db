// A subset's figures over its items' trials for multiloko.json and the terminal: mean EM, pass@k (k = 1 and the largest
// power of two within the fewest trials), pass^k, the share of variance within items, and the flaky items per language.
import { subsetTrialFigures, trialFigureJson, trialFiguresByK } from '../../../core/statistics/trialFigures.ts';
import { reportedKs } from '../../../core/statistics/reportedKs.ts';
import type { LokalItemRecord } from '../run/records.ts';

/** A figure as multiloko.json writes it. */
export interface TrialFigureJson {
  value: number;
  low: number;
  high: number;
}

/** A subset's trial figures (written only when its items have more than one trial). */
export interface SubsetTrialsJson {
  items: number;
  fewest_trials: number;
  most_trials: number;
  /** Items with fewer trials than asked (a replay file lacking some). */
  items_short: number;
  /** Items whose trials disagree on EM. */
  flaky: number;
  mean_em: TrialFigureJson;
  /** pass@k by k ("1" and the largest power of two ≤ the fewest trials). */
  pass_at: Record<string, TrialFigureJson>;
  pass_hat: Record<string, TrialFigureJson>;
  /** σ²_w / (σ²_w + σ²_b) of the trials' EM (docs/trials.md); null when every trial scored alike. */
  within_share: number | null;
}

/** The subset's trial figures, or undefined when no item has more than one trial (results then stay as without trials). */
export function subsetTrials(records: readonly LokalItemRecord[]): SubsetTrialsJson | undefined {
  if (!records.some((r) => r.trials !== undefined)) return undefined;
  const items = records.map((r) => (r.trials ? r.trials.map((t) => t.scores.em) : [r.scores.em]));
  const fewest = items.reduce((n, trials) => Math.min(n, trials.length), Infinity);
  const most = items.reduce((n, trials) => Math.max(n, trials.length), 0);
  const asked = records.reduce((n, r) => Math.max(n, r.trialsAsked ?? 0), most);
  const figures = subsetTrialFigures(items, { ks: reportedKs(fewest), asked });
  return {
    items: figures.items,
    fewest_trials: figures.fewestTrials,
    most_trials: figures.mostTrials,
    items_short: figures.itemsShort,
    flaky: records.filter((r) => r.trialSummary?.flaky).length,
    mean_em: trialFigureJson(figures.mean),
    pass_at: trialFiguresByK(figures.passAt),
    pass_hat: trialFiguresByK(figures.passHat),
    within_share: figures.variance?.withinShare ?? null,
  };
}

const pct = (figure: TrialFigureJson) => `${(100 * figure.value).toFixed(1)} [${(100 * figure.low).toFixed(1)}, ${(100 * figure.high).toFixed(1)}]`;

/** `pass@1 31.0 [28.1, 34.0] · pass@8 … · pass^8 …` (× 100, 95% intervals; pass^1 is pass@1, so left out). */
export function trialFiguresText(t: Pick<SubsetTrialsJson, 'pass_at' | 'pass_hat'>): string {
  const at = Object.entries(t.pass_at).map(([k, f]) => `pass@${k} ${pct(f)}`);
  const hat = Object.entries(t.pass_hat).filter(([k]) => k !== '1').map(([k, f]) => `pass^${k} ${pct(f)}`);
  return [...at, ...hat].join(' · ');
}

/** `8`, or `4–8` when items hold different numbers of trials. */
export const trialsRange = (fewest: number, most: number) => (fewest === most ? `${most}` : `${fewest}–${most}`);

/** One line per subset with trials, then the flaky items per language, and a line for items short of trials. */
export function trialLines(subsets: ReadonlyArray<{ name: string; language: string; trials?: SubsetTrialsJson }>): string[] {
  const withTrials = subsets.filter((s) => s.trials !== undefined);
  if (withTrials.length === 0) return [];
  const lines = ['MultiLoKo trials · × 100 with 95% intervals (bootstrap over items, trials kept with their item)'];
  for (const { name, trials } of withTrials) {
    const t = trials!;
    const share = t.within_share === null ? 'n/a' : `${(100 * t.within_share).toFixed(0)}%`;
    lines.push(`  ${name}: ${trialsRange(t.fewest_trials, t.most_trials)} trials · EM ${pct(t.mean_em)} · ${trialFiguresText(t)} · variance within items ${share}`);
  }
  const flaky = new Map<string, number>();
  for (const { language, trials } of withTrials) flaky.set(language, (flaky.get(language) ?? 0) + trials!.flaky);
  lines.push(`  flaky items (trials disagree): ${[...flaky].map(([language, n]) => `${language} ${n}`).join(', ')}`);
  const short = withTrials.reduce((n, s) => n + s.trials!.items_short, 0);
  if (short > 0) lines.push(`lokal: MultiLoKo ${short} item${short === 1 ? ' has' : 's have'} fewer trials than asked (the replay file lacks them); the figures use the trials there`);
  return lines;
}
