// One figure of a run against the same figure of a baseline run, over the items both hold (paired by id): the mean
// paired difference, its (cluster-robust) standard error and interval, and a test of "no change" — McNemar's exact
// test for 0/1 scores of independent items, a seeded paired cluster bootstrap otherwise.
import { clusterBootstrap, mcnemarExact, normalQuantile, pairedDifference } from '../statistics/index.ts';

/** One item's score in both runs; items with the same `cluster` share a source (a question and its translations). */
export interface PairedScore {
  id: string;
  current: number;
  baseline: number;
  cluster?: string;
}

/** A figure to test: its key (subset, `pooled`), its name in messages, and its paired items. */
export interface PairedFigure {
  key: string;
  figure: string;
  pairs: readonly PairedScore[];
  /** Items of this figure held by one run only (not tested). */
  onlyCurrent: number;
  onlyBaseline: number;
  /** `continuous`: a score that may happen to be 0/1 everywhere is still tested as a mean (default: 0/1 everywhere is binary). */
  scores?: 'binary' | 'continuous';
}

export interface TestSettings {
  confidence: number;
  resamples: number;
  seed: number;
}

export const DEFAULT_TEST_SETTINGS: TestSettings = { confidence: 0.95, resamples: 2000, seed: 20261203 };

export type PairedTestName = 'McNemar exact' | 'paired bootstrap';

export interface PairedTest {
  key: string;
  figure: string;
  n: number;
  clusters: number;
  onlyCurrent: number;
  onlyBaseline: number;
  /** Means of the paired items in each run. */
  current: number;
  baseline: number;
  /** Mean of current − baseline. */
  diff: number;
  /** sd(d)/√n, or cluster-robust; null below two items (or two clusters). */
  se: number | null;
  /** Interval of the difference: mean ± z·se for 0/1 scores, the bootstrap percentiles otherwise; null without one. */
  low: number | null;
  high: number | null;
  binary: boolean;
  test: PairedTestName;
  /** Unadjusted two-sided p of "no change". */
  p: number;
  /** Items that went down (right → wrong for 0/1 scores) and up. */
  worse: number;
  better: number;
  /** The bootstrap's resamples and seed, where one was drawn. */
  bootstrap?: { resamples: number; seed: number };
}

const isBinary = (v: number) => v === 0 || v === 1;

/** The paired test of one figure; undefined when no item is paired. */
export function pairedTest(figure: PairedFigure, settings: TestSettings = DEFAULT_TEST_SETTINGS): PairedTest | undefined {
  const { pairs } = figure;
  if (pairs.length === 0) return undefined;
  const d = pairs.map((p) => p.current - p.baseline);
  const clustered = pairs.some((p) => p.cluster !== undefined);
  const keys = clustered ? pairs.map((p) => p.cluster ?? `\u0000${p.id}`) : undefined;
  const difference = pairedDifference(d, keys);
  const binary = figure.scores !== 'continuous' && pairs.every((p) => isBinary(p.current) && isBinary(p.baseline));
  let worse = 0;
  let better = 0;
  for (const v of d) {
    if (v < 0) worse++;
    else if (v > 0) better++;
  }
  let current = 0;
  let baseline = 0;
  for (const p of pairs) {
    current += p.current;
    baseline += p.baseline;
  }
  const base = {
    key: figure.key,
    figure: figure.figure,
    n: pairs.length,
    clusters: difference.clusters,
    onlyCurrent: figure.onlyCurrent,
    onlyBaseline: figure.onlyBaseline,
    current: current / pairs.length,
    baseline: baseline / pairs.length,
    diff: difference.mean,
    se: difference.se,
    binary,
    worse,
    better,
  };
  // McNemar's exact test assumes independent pairs: only where no two items share a source.
  if (binary && difference.clusters === pairs.length) {
    const z = normalQuantile(1 - (1 - settings.confidence) / 2);
    const se = difference.se;
    return { ...base, low: se === null ? null : difference.mean - z * se, high: se === null ? null : difference.mean + z * se, test: 'McNemar exact', p: mcnemarExact(worse, better) };
  }
  // A bootstrap over fewer than two clusters resamples one value: it cannot tell a change from noise.
  if (difference.clusters < 2) return { ...base, low: null, high: null, test: 'paired bootstrap', p: 1 };
  const units = clusterUnits(d, keys);
  const result = clusterBootstrap(units, meanOfUnits, { resamples: settings.resamples, seed: settings.seed, confidence: settings.confidence });
  return { ...base, low: result.low, high: result.high, test: 'paired bootstrap', p: result.p, bootstrap: { resamples: result.resamples, seed: result.seed } };
}

/** Each cluster as [sum of its differences, its item count]; every item alone without keys. */
function clusterUnits(d: readonly number[], keys: readonly string[] | undefined): Array<[number, number]> {
  if (!keys) return d.map((v) => [v, 1]);
  const units = new Map<string, [number, number]>();
  d.forEach((v, i) => {
    const unit = units.get(keys[i]!);
    if (unit) {
      unit[0] += v;
      unit[1]++;
    } else units.set(keys[i]!, [v, 1]);
  });
  return [...units.values()];
}

/** Mean difference over the items of the resampled clusters. */
function meanOfUnits(units: ReadonlyArray<readonly [number, number]>): number {
  let sum = 0;
  let n = 0;
  for (const [s, k] of units) {
    sum += s;
    n += k;
  }
  return sum / n;
}
