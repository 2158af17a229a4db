// A subset's (or the headline's) figures over items with several trials each: the mean of per-item means, mean pass@k
// and pass^k, each with a percentile bootstrap over items (an item's trials stay together), and the variance split.
import { clusterBootstrap, type BootstrapOptions } from './bootstrap.ts';
import { passAtK, passHatK } from './passAtK.ts';
import { varianceComponents, type VarianceComponents } from './varianceComponents.ts';

/** A figure and its bootstrap interval. */
export interface TrialFigure {
  value: number;
  low: number;
  high: number;
  /** Standard deviation of the resampled figures. */
  se: number;
}

export interface SubsetTrialFigures {
  items: number;
  /** Fewest and most trials an item holds. */
  fewestTrials: number;
  mostTrials: number;
  /** Items holding fewer trials than `asked` (0 without it): a replay file may lack some, and the figures use what is there. */
  itemsShort: number;
  /** Mean over items of each item's mean score over its trials. */
  mean: TrialFigure;
  /** Mean over items of pass@k, for each k given (or 1 … fewestTrials); only when every score is 0 or 1. */
  passAt: Map<number, TrialFigure>;
  /** Mean over items of pass^k, same ks. */
  passHat: Map<number, TrialFigure>;
  /** Within-item vs between-item variance of the trial scores; null below two items or with one trial each. */
  variance: VarianceComponents | null;
}

export interface TrialFigureOptions extends BootstrapOptions {
  /** The ks of pass@k and pass^k (each at most every item's trial count); default 1 … the fewest trials. */
  ks?: readonly number[];
  /** The trials asked per item, to count the items that hold fewer. */
  asked?: number;
}

const isBinary = (y: number) => y === 0 || y === 1;

/**
 * The figures of items[i] = item i's per-trial scores (0/1 for pass@k). Every figure is a mean of one value per item,
 * so resampling items with replacement and recomputing that mean is the bootstrap over items with trials nested;
 * each figure uses the same seed, hence the same resamples.
 */
export function subsetTrialFigures(items: ReadonlyArray<readonly number[]>, options: TrialFigureOptions = {}): SubsetTrialFigures {
  if (items.length === 0) throw new RangeError('subsetTrialFigures: no items');
  // A loop, not Math.min(...counts): spreading a pooled headline's tens of thousands of items risks the call stack.
  let fewestTrials = Infinity;
  let mostTrials = 0;
  let itemsShort = 0;
  for (const trials of items) {
    fewestTrials = Math.min(fewestTrials, trials.length);
    mostTrials = Math.max(mostTrials, trials.length);
    if (options.asked !== undefined && trials.length < options.asked) itemsShort++;
  }
  if (fewestTrials === 0) throw new RangeError('subsetTrialFigures: an item without trials');
  const { ks: askedKs, asked: _asked, ...bootstrap } = options;
  const figure = (perItem: readonly number[]): TrialFigure => {
    const result = clusterBootstrap(perItem, meanOf, bootstrap);
    return { value: result.value, low: result.low, high: result.high, se: result.se };
  };
  const passAt = new Map<number, TrialFigure>();
  const passHat = new Map<number, TrialFigure>();
  if (items.every((trials) => trials.every(isBinary))) {
    const ks = askedKs ?? Array.from({ length: fewestTrials }, (_, i) => i + 1);
    const correct = items.map((trials) => trials.filter((y) => y === 1).length);
    for (const k of ks) {
      if (k > fewestTrials) throw new RangeError(`subsetTrialFigures: pass@${k} needs ${k} trials of every item; the fewest is ${fewestTrials}`);
      passAt.set(k, figure(items.map((trials, i) => passAtK(trials.length, correct[i]!, k))));
      passHat.set(k, figure(items.map((trials, i) => passHatK(trials.length, correct[i]!, k))));
    }
  }
  return {
    items: items.length,
    fewestTrials,
    mostTrials,
    itemsShort,
    mean: figure(items.map(meanOf)),
    passAt,
    passHat,
    variance: varianceComponents(items),
  };
}

/** A figure as a results file writes it: value and interval (the bootstrap's se left out). */
export function trialFigureJson(figure: TrialFigure): { value: number; low: number; high: number } {
  return { value: figure.value, low: figure.low, high: figure.high };
}

/** pass@k or pass^k figures keyed by k as text (`"1"`, `"8"`), as results files write them. */
export function trialFiguresByK(figures: ReadonlyMap<number, TrialFigure>): Record<string, { value: number; low: number; high: number }> {
  return Object.fromEntries([...figures].map(([k, figure]) => [String(k), trialFigureJson(figure)]));
}

function meanOf(values: readonly number[]): number {
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}
