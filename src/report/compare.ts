// A run against a baseline run, as every section compares them: the baseline gate's paired tests (src/core/baseline:
// items paired by id, McNemar's exact test for 0/1 scores of independent items, the paired cluster bootstrap
// otherwise, one Holm family with the pooled figures), so the report, `lokal compare` and the gate give the same p for
// the same figure; and the items that flipped. Each benchmark's comparison (its reportCompare.ts) is made of these.
import { judgeBaselineFamily, type BaselineTest, type PairedFigure, type PairedTestName } from '../core/baseline/index.ts';
import type { Verdict } from './viewParts.ts';

export interface Flip {
  id: string;
  subset: string;
  current: string;
  baseline: string;
}

export interface Comparison {
  key: string;
  /** What was compared, e.g. `italian · local EM`, `full MC2`. */
  label: string;
  n: number;
  onlyCurrent: number;
  onlyBaseline: number;
  current: number;
  baseline: number;
  /** Mean of current − baseline over the paired items. */
  diff: number;
  se: number | null;
  low: number | null;
  high: number | null;
  test: PairedTestName;
  p: number;
  /** Holm-adjusted across the rows of the same family (the gate's family: subsets and pooled figures). */
  pAdjusted: number | null;
  /** Smallest true difference detected with 80% power at α/family, as the gate computes it (null where undefined). */
  mde: number | null;
  /** Items whose score went 1 → 0 and 0 → 1 (binary scores only; null otherwise). */
  discordant: { worse: number; better: number } | null;
  worse: Flip[];
  better: Flip[];
}

interface Pair<T> {
  id: string;
  current: T;
  baseline: T;
}

export function pairById<T extends { id: string }>(current: readonly T[], baseline: readonly T[]): { pairs: Array<Pair<T>>; onlyCurrent: number; onlyBaseline: number } {
  const base = new Map(baseline.map((b) => [b.id, b]));
  const pairs: Array<Pair<T>> = [];
  for (const c of current) {
    const b = base.get(c.id);
    if (b) pairs.push({ id: c.id, current: c, baseline: b });
  }
  return { pairs, onlyCurrent: current.length - pairs.length, onlyBaseline: baseline.length - pairs.length };
}

/** The tests of one Holm family, as rows (α = 1 − confidence for the MDE; the gate's margin plays no part here). */
export function familyRows(figures: readonly PairedFigure[], confidence: number): Comparison[] {
  const tests = judgeBaselineFamily(figures, { alpha: 1 - confidence, margin: 0 }, { confidence, resamples: 2000, seed: 20261203 });
  return tests.map((t: BaselineTest) => ({
    key: t.key,
    label: t.figure,
    n: t.n,
    onlyCurrent: t.onlyCurrent,
    onlyBaseline: t.onlyBaseline,
    current: t.current,
    baseline: t.baseline,
    diff: t.diff,
    se: t.se,
    low: t.low,
    high: t.high,
    test: t.test,
    p: t.p,
    pAdjusted: t.p_adjusted,
    mde: t.mde,
    discordant: t.binary ? { worse: t.worse, better: t.better } : null,
    worse: [],
    better: [],
  }));
}

/** Flips of a subset: the verdict changed between right and wrong. */
export function flipsOf<T>(pairs: ReadonlyArray<Pair<T>>, verdict: (item: T) => Verdict, shown: (item: T) => string, subsetOf: (item: T) => string): { worse: Flip[]; better: Flip[] } {
  const flip = (p: Pair<T>): Flip => ({ id: p.id, subset: subsetOf(p.current), current: shown(p.current), baseline: shown(p.baseline) });
  return {
    worse: pairs.filter((p) => verdict(p.baseline) === 'correct' && verdict(p.current) !== 'correct').map(flip),
    better: pairs.filter((p) => verdict(p.baseline) !== 'correct' && verdict(p.current) === 'correct').map(flip),
  };
}

