// The baseline gate over items with trials: each item's mean over its trials in both runs, paired by id and tested
// as any other figure (McNemar's exact test when both runs have one 0/1 trial per item, a paired bootstrap over items
// otherwise), with the minimum detectable effect of the trial counts used.
import { judgeBaselineFamily, type BaselineTest, type SignificanceSettings } from './judgeFamily.ts';
import { DEFAULT_TEST_SETTINGS, type PairedFigure, type TestSettings } from './pairedTest.ts';

/** One item's per-trial scores in each run; items with the same `cluster` share a source. */
interface TrialPair {
  id: string;
  current: readonly number[];
  baseline: readonly number[];
  cluster?: string;
}

const meanOf = (values: readonly number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;

/**
 * The paired figure of per-item trial means. With one trial per item in both runs the scores stay 0/1 (McNemar's
 * test, as a run without trials is gated); with more, an item's mean is a score in [0, 1] and is bootstrapped.
 */
export function trialPairedFigure(key: string, figure: string, pairs: readonly TrialPair[], onlyCurrent = 0, onlyBaseline = 0): PairedFigure {
  for (const pair of pairs) {
    if (pair.current.length === 0 || pair.baseline.length === 0) throw new RangeError(`trialPairedFigure: item ${pair.id} has no trials in ${pair.current.length === 0 ? 'the current run' : 'the baseline'}`);
  }
  const single = pairs.every((p) => p.current.length === 1 && p.baseline.length === 1);
  return {
    key,
    figure,
    pairs: pairs.map((p) => ({ id: p.id, current: meanOf(p.current), baseline: meanOf(p.baseline), ...(p.cluster === undefined ? {} : { cluster: p.cluster }) })),
    onlyCurrent,
    onlyBaseline,
    scores: single ? 'binary' : 'continuous',
  };
}

/**
 * The gate of one figure with trials: its paired test, verdict and MDE, (z_{1−α/2} + z_{0.8}) · SE where SE is the
 * standard error of the per-item mean differences, sd(d)/√n — it shrinks as trials average out each item's noise
 * (for McNemar's test at least the fewest one-way flips it can flag, as the gate without trials states).
 */
export function trialGate(key: string, figure: string, pairs: readonly TrialPair[], settings: SignificanceSettings, testSettings: TestSettings = DEFAULT_TEST_SETTINGS): BaselineTest | undefined {
  return judgeBaselineFamily([trialPairedFigure(key, figure, pairs)], settings, testSettings)[0];
}
