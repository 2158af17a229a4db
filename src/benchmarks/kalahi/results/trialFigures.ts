// A group's trial figures for kalahi.json (the variant overall, or one category; docs/kalahi-trials.md): MC1 of the
// lettered trials and each generation metric over the scored trials — mean of the per-prompt means, pass@k and pass^k
// of MC1 and of each metric's acc, bootstrap intervals over prompts, the variance within prompts, flaky prompts — and
// MC1 by the place the best answer was shown at.
import { reportedKs } from '../../../core/statistics/reportedKs.ts';
import { subsetTrialFigures, trialFigureJson, trialFiguresByK } from '../../../core/statistics/trialFigures.ts';
import { LETTERS } from '../prompts/letterChoice.ts';
import { KALAHI_TABLE_METRICS, type KalahiMetric, type KalahiPromptRecord } from '../run/records.ts';

/** A figure with its 95% bootstrap interval, as kalahi.json writes it. */
export interface KalahiTrialFigure {
  value: number;
  low: number;
  high: number;
}

/** What every trial figure of a group states about its prompts and their trials. */
interface TrialCounts {
  prompts: number;
  fewest_trials: number;
  most_trials: number;
  /** Prompts with fewer (scored) trials than asked. */
  prompts_short: number;
  /** Prompts whose trials disagree on the verdict (MC1, or the metric's acc). */
  flaky: number;
  /** pass@k by k ("1" and the largest power of two ≤ the fewest trials). */
  pass_at: Record<string, KalahiTrialFigure>;
  pass_hat: Record<string, KalahiTrialFigure>;
  /** σ²_w / (σ²_w + σ²_b) of the verdicts over trials (docs/trials.md); null when every trial scored alike. */
  within_share: number | null;
}

export interface KalahiMCTrialFigures extends TrialCounts {
  mc1: KalahiTrialFigure;
  /** Per letter A–D: the trials that showed the best answer there, and MC1 over them (null: none did). */
  by_position: Record<string, { trials: number; mc1: number | null }>;
}

export interface KalahiMetricTrialFigures extends TrialCounts {
  acc: KalahiTrialFigure;
  /** Means of the per-prompt mean max and diff (null where no scored trial has one). */
  max: KalahiTrialFigure | null;
  diff: KalahiTrialFigure | null;
}

export interface KalahiGroupTrialFigures {
  /** Trials asked per prompt. */
  asked: number;
  mc?: KalahiMCTrialFigures;
  generation?: Partial<Record<KalahiMetric, KalahiMetricTrialFigures>>;
}

/** The counts, pass@k, pass^k and variance share of per-prompt 0/1 verdicts over trials, with the mean figure. */
function verdictFigures(items: ReadonlyArray<readonly number[]>, asked: number): TrialCounts & { mean: KalahiTrialFigure } {
  let fewest = Infinity;
  for (const trials of items) fewest = Math.min(fewest, trials.length);
  const figures = subsetTrialFigures(items, { ks: reportedKs(fewest), asked });
  return {
    prompts: figures.items,
    fewest_trials: figures.fewestTrials,
    most_trials: figures.mostTrials,
    prompts_short: figures.itemsShort,
    flaky: items.filter((trials) => trials.some((y) => y === 1) && trials.some((y) => y !== 1)).length,
    mean: trialFigureJson(figures.mean),
    pass_at: trialFiguresByK(figures.passAt),
    pass_hat: trialFiguresByK(figures.passHat),
    within_share: figures.variance?.withinShare ?? null,
  };
}

/** MC1 over the lettered trials, and by the best answer's letter. */
function mcTrials(records: readonly KalahiPromptRecord[], asked: number): KalahiMCTrialFigures | undefined {
  const withTrials = records.flatMap((r) => (r.mc?.trials ? [r.mc.trials] : []));
  if (withTrials.length === 0) return undefined;
  const { mean, ...counts } = verdictFigures(
    withTrials.map((t) => t.trials.map((one) => one.mc1)),
    asked,
  );
  const by_position: KalahiMCTrialFigures['by_position'] = {};
  for (const letter of LETTERS) {
    const shown = withTrials.flatMap((t) => t.trials.filter((one) => one.answer === letter));
    by_position[letter] = { trials: shown.length, mc1: shown.length === 0 ? null : shown.filter((one) => one.mc1 === 1).length / shown.length };
  }
  return { ...counts, mc1: mean, by_position };
}

/** One metric over the scored trials of the prompts that have one. */
function metricTrials(records: readonly KalahiPromptRecord[], metric: KalahiMetric, asked: number): KalahiMetricTrialFigures | undefined {
  const scored = records.flatMap((r) => (r.generation?.trials ? [r.generation.trials.trials.filter((t) => t.status === 'scored' && t.metrics[metric])] : []));
  const items = scored.filter((trials) => trials.length > 0);
  if (items.length === 0) return undefined;
  const { mean, ...counts } = verdictFigures(
    items.map((trials) => trials.map((t) => t.metrics[metric]!.acc)),
    asked,
  );
  const meanOf = (pick: 'max' | 'diff') => {
    const values = items.map((trials) => trials.flatMap((t) => (t.metrics[metric]![pick] === null ? [] : [t.metrics[metric]![pick]!]))).filter((v) => v.length > 0);
    return values.length === 0 ? null : trialFigureJson(subsetTrialFigures(values).mean);
  };
  return { ...counts, acc: mean, max: meanOf('max'), diff: meanOf('diff') };
}

/** The group's trial figures, or undefined when no prompt has trials (kalahi.json then stays as without trials). */
export function groupTrialFigures(records: readonly KalahiPromptRecord[]): KalahiGroupTrialFigures | undefined {
  const asked = records.reduce((n, r) => Math.max(n, r.mc?.trials?.asked ?? 0, r.generation?.trials?.asked ?? 0), 0);
  if (asked === 0) return undefined;
  const mc = mcTrials(records, asked);
  const generation: NonNullable<KalahiGroupTrialFigures['generation']> = {};
  for (const metric of KALAHI_TABLE_METRICS) {
    const figures = metricTrials(records, metric, asked);
    if (figures) generation[metric] = figures;
  }
  return { asked, ...(mc ? { mc } : {}), ...(Object.keys(generation).length > 0 ? { generation } : {}) };
}

/** `MC1 by the best answer's position: A 0.7500 (8 trials) · B 0.5000 (4) · C – (0) · D 0.2500 (4)`. */
export function positionLine(byPosition: Readonly<Record<string, { trials: number; mc1: number | null }>>): string {
  const parts = Object.entries(byPosition).map(([letter, p], i) => `${letter} ${p.mc1 === null ? '–' : p.mc1.toFixed(4)} (${p.trials}${i === 0 ? ' trials' : ''})`);
  return `MC1 by the best answer's position: ${parts.join(' · ')}`;
}
