// A run against a baseline run: the baseline gate's paired tests (src/core/baseline: items paired by id, McNemar's
// exact test for 0/1 scores of independent items, the paired cluster bootstrap otherwise, one Holm family with the
// pooled figures), so the report, `lokal compare` and the gate give the same p for the same figure; and the items that
// flipped.
import { judgeBaselineFamily, pairedFigure, subsetFamily, type BaselineTest, type ItemScore, type PairedFigure, type PairedTestName } from '../core/baseline/index.ts';
import type { MultiLoKoItemView, MultiLoKoSubset, Verdict } from './multiloko.ts';
import type { KalahiPrompt, KalahiVariantView } from './kalahi.ts';
import { KALAHI_METRICS } from './kalahi.ts';

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

function pairById<T extends { id: string }>(current: readonly T[], baseline: readonly T[]): { pairs: Array<Pair<T>>; onlyCurrent: number; onlyBaseline: number } {
  const base = new Map(baseline.map((b) => [b.id, b]));
  const pairs: Array<Pair<T>> = [];
  for (const c of current) {
    const b = base.get(c.id);
    if (b) pairs.push({ id: c.id, current: c, baseline: b });
  }
  return { pairs, onlyCurrent: current.length - pairs.length, onlyBaseline: baseline.length - pairs.length };
}

/** The tests of one Holm family, as rows (α = 1 − confidence for the MDE; the gate's margin plays no part here). */
function familyRows(figures: readonly PairedFigure[], confidence: number): Comparison[] {
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
function flipsOf<T>(pairs: ReadonlyArray<Pair<T>>, verdict: (item: T) => Verdict, shown: (item: T) => string, subsetOf: (item: T) => string): { worse: Flip[]; better: Flip[] } {
  const flip = (p: Pair<T>): Flip => ({ id: p.id, subset: subsetOf(p.current), current: shown(p.current), baseline: shown(p.baseline) });
  return {
    worse: pairs.filter((p) => verdict(p.baseline) === 'correct' && verdict(p.current) !== 'correct').map(flip),
    better: pairs.filter((p) => verdict(p.baseline) !== 'correct' && verdict(p.current) === 'correct').map(flip),
  };
}

export interface MultiLoKoComparison {
  /** Per subset present in both runs (and, with translations, every subset pooled), Holm-adjusted with the pooled row. */
  subsets: Comparison[];
  /** Every local subset's items pooled (the headline's items), with several local subsets; in the Holm family. */
  pooled?: Comparison;
  onlyCurrent: string[];
  onlyBaseline: string[];
}

const itemShown = (i: MultiLoKoItemView) => (i.missing ? '(no answer)' : i.raw ?? i.prediction);

/** A question and its translations share the id; the source language tells questions of different languages apart. */
const sourceOf = (s: MultiLoKoSubset) => (s.direction === 'from-english' ? 'english' : s.language);

export function compareMultiLoKo(current: readonly MultiLoKoSubset[], baseline: readonly MultiLoKoSubset[], confidence = 0.95): MultiLoKoComparison {
  const base = new Map(baseline.map((s) => [s.key, s]));
  const compared = current.filter((s) => base.has(s.key) && s.items.length > 0);
  const family = subsetFamily(
    compared.map((s) => {
      const scores: ItemScore[] = s.items.map((i) => ({ id: i.id, cluster: `${sourceOf(s)}/${i.id}`, score: i.em }));
      return { figure: pairedFigure(s.key, `${s.name} EM`, scores, new Map(base.get(s.key)!.items.map((i) => [i.id, i.em]))), translated: s.translated };
    }),
    'EM',
  );
  const rows = familyRows(family, confidence).map((row) => {
    const s = compared.find((c) => c.key === row.key);
    return s ? { ...row, ...flipsOf(pairById(s.items, base.get(s.key)!.items).pairs, (i) => i.verdict, itemShown, (i) => i.subset) } : row;
  });
  const keys = new Set(current.map((s) => s.key));
  const pooled = rows.find((r) => r.key === 'pooled:local');
  return {
    subsets: rows.filter((r) => r !== pooled),
    ...(pooled ? { pooled } : {}),
    onlyCurrent: current.filter((s) => !base.has(s.key)).map((s) => s.key),
    onlyBaseline: baseline.filter((s) => !keys.has(s.key)).map((s) => s.key),
  };
}

export interface KalahiComparison {
  /** Per variant: MC1 and MC2 (Holm-adjusted together, as the gate does), then each generation metric's acc (adjusted among themselves). */
  rows: Comparison[];
  /** Per variant, the prompts whose verdict flipped. */
  flips: Array<{ variant: string; worse: Flip[]; better: Flip[] }>;
  onlyCurrent: string[];
  onlyBaseline: string[];
}

const promptShown = (p: KalahiPrompt) => (p.preferred ? `prefers ${p.preferred.kind}${p.preferred.best ? ' (best)' : ''}: ${p.preferred.text}` : p.response ?? '(no reply)');

/** `withoutMC`: variants whose MC figures the two runs measured by different protocols (never compared; the rest is). */
export function compareKalahi(current: readonly KalahiVariantView[], baseline: readonly KalahiVariantView[], confidence = 0.95, withoutMC: ReadonlySet<string> = new Set()): KalahiComparison {
  const base = new Map(baseline.map((v) => [v.key, v]));
  const mc: PairedFigure[] = [];
  const generation: PairedFigure[] = [];
  const flips: KalahiComparison['flips'] = [];
  for (const v of current) {
    const b = base.get(v.key);
    if (!b) continue;
    // Prompts paired by variation id, the variations of one prompt one cluster (as the gate pairs them).
    const figure = (name: string, pick: (p: KalahiPrompt) => number | null | undefined, scores?: 'binary' | 'continuous') =>
      pairedFigure(`${v.key}.${name}`, `${v.key} ${name}`, v.prompts.map((p) => ({ id: p.id, cluster: p.promptId, score: pick(p) ?? null })), new Map(b.prompts.map((p) => [p.id, pick(p) ?? null])), scores);
    if (!withoutMC.has(v.key)) mc.push(figure('MC1', (p) => p.mc?.mc1, 'binary'), figure('MC2', (p) => p.mc?.mc2, 'continuous'));
    for (const [metric, label] of KALAHI_METRICS) generation.push(figure(`${label} acc`, (p) => p.acc[metric], 'binary'));
    const all = pairById(v.prompts, b.prompts);
    const verdicts = all.pairs.filter((p) => p.current.verdict !== 'missing' || p.baseline.verdict !== 'missing');
    flips.push({ variant: v.key, ...flipsOf(verdicts, (p) => p.verdict, promptShown, () => v.key) });
  }
  const keys = new Set(current.map((v) => v.key));
  return {
    // MC1 and MC2 are the gate's family; the generation metrics' acc (which no gate tests) are a family of their own.
    rows: [...familyRows(mc, confidence), ...familyRows(generation, confidence)],
    flips,
    onlyCurrent: current.filter((v) => !base.has(v.key)).map((v) => v.key),
    onlyBaseline: baseline.filter((v) => !keys.has(v.key)).map((v) => v.key),
  };
}
