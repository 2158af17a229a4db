// A run against a baseline run: items paired by id, per subset (and pooled over the local subsets) the mean paired
// difference with its interval, McNemar's exact test for 0/1 scores or a paired t-test otherwise, Holm's correction
// across the subsets compared, the minimum detectable effect, and the items that flipped.
import { holm, mcnemarExact, minimumDetectableEffect, normalQuantile, pairedDifference, studentTCdf } from '../core/statistics/index.ts';
import type { MultiLoKoItem, MultiLoKoSubset, Verdict } from './multiloko.ts';
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
  test: 'McNemar exact' | 'paired t';
  p: number;
  /** Holm-adjusted across the rows of the same family (null for the pooled row, which is not part of the family). */
  pAdjusted: number | null;
  /** Smallest true difference this n detects with 80% power at α = 0.05 (null without a standard error or when it is 0). */
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

/** Two-sided p of a paired t-test (1 when the differences have no spread and mean 0; 0 when no spread and mean ≠ 0). */
function pairedTP(mean: number, se: number | null, n: number): number {
  if (se === null) return 1;
  if (se === 0) return mean === 0 ? 1 : 0;
  return Math.min(1, 2 * (1 - studentTCdf(Math.abs(mean / se), n - 1)));
}

/** One row: paired scores → figures, test and flips (flips only where the verdict changed between right and wrong). */
function compareScores<T>(
  key: string,
  label: string,
  paired: { pairs: Array<Pair<T>>; onlyCurrent: number; onlyBaseline: number },
  score: (item: T) => number,
  verdict: (item: T) => Verdict,
  shown: (item: T) => string,
  subsetOf: (item: T) => string,
  confidence: number,
): Comparison | undefined {
  const { pairs } = paired;
  if (pairs.length === 0) return undefined;
  const c = pairs.map((p) => score(p.current));
  const b = pairs.map((p) => score(p.baseline));
  const d = pairedDifference(c.map((v, i) => v - b[i]!));
  const binary = [...c, ...b].every((v) => v === 0 || v === 1);
  const z = normalQuantile(1 - (1 - confidence) / 2);
  const flip = (p: Pair<T>): Flip => ({ id: p.id, subset: subsetOf(p.current), current: shown(p.current), baseline: shown(p.baseline) });
  const worse = pairs.filter((p) => verdict(p.baseline) === 'correct' && verdict(p.current) !== 'correct').map(flip);
  const better = pairs.filter((p) => verdict(p.baseline) !== 'correct' && verdict(p.current) === 'correct').map(flip);
  const discordantWorse = binary ? pairs.filter((_, i) => b[i] === 1 && c[i] === 0).length : 0;
  const discordantBetter = binary ? pairs.filter((_, i) => b[i] === 0 && c[i] === 1).length : 0;
  return {
    key,
    label,
    n: pairs.length,
    onlyCurrent: paired.onlyCurrent,
    onlyBaseline: paired.onlyBaseline,
    current: c.reduce((s, v) => s + v, 0) / c.length,
    baseline: b.reduce((s, v) => s + v, 0) / b.length,
    diff: d.mean,
    se: d.se,
    low: d.se === null ? null : d.mean - z * d.se,
    high: d.se === null ? null : d.mean + z * d.se,
    test: binary ? 'McNemar exact' : 'paired t',
    p: binary ? mcnemarExact(discordantWorse, discordantBetter) : pairedTP(d.mean, d.se, d.n),
    pAdjusted: null,
    // With no item changed the sample SE is 0, which would claim any change detectable: no MDE then.
    mde: d.se === null || d.se === 0 ? null : minimumDetectableEffect(d.se),
    discordant: binary ? { worse: discordantWorse, better: discordantBetter } : null,
    worse,
    better,
  };
}

function adjust(rows: Comparison[]): Comparison[] {
  const adjusted = holm(rows.map((r) => r.p));
  return rows.map((r, i) => ({ ...r, pAdjusted: adjusted[i]! }));
}

export interface MultiLoKoComparison {
  /** Per subset present in both runs, Holm-adjusted across them. */
  subsets: Comparison[];
  /** Every local subset's items pooled (the headline's items); not part of the Holm family. */
  pooled?: Comparison;
  onlyCurrent: string[];
  onlyBaseline: string[];
}

const itemShown = (i: MultiLoKoItem) => (i.missing ? '(no answer)' : i.raw ?? i.prediction);

export function compareMultiLoKo(current: readonly MultiLoKoSubset[], baseline: readonly MultiLoKoSubset[], confidence = 0.95): MultiLoKoComparison {
  const base = new Map(baseline.map((s) => [s.key, s]));
  const rows: Comparison[] = [];
  const pooledPairs: Array<Pair<MultiLoKoItem>> = [];
  let pooledOnlyCurrent = 0;
  let pooledOnlyBaseline = 0;
  for (const s of current) {
    const b = base.get(s.key);
    if (!b) continue;
    const paired = pairById(s.items, b.items);
    const row = compareScores(s.key, `${s.name} EM`, paired, (i) => i.em, (i) => i.verdict, itemShown, (i) => i.subset, confidence);
    if (row) rows.push(row);
    if (!s.translated) {
      pooledPairs.push(...paired.pairs);
      pooledOnlyCurrent += paired.onlyCurrent;
      pooledOnlyBaseline += paired.onlyBaseline;
    }
  }
  const pooled = compareScores(
    'pooled',
    'local subsets pooled, EM',
    { pairs: pooledPairs, onlyCurrent: pooledOnlyCurrent, onlyBaseline: pooledOnlyBaseline },
    (i) => i.em,
    (i) => i.verdict,
    itemShown,
    (i) => i.subset,
    confidence,
  );
  const keys = new Set(current.map((s) => s.key));
  return {
    subsets: adjust(rows),
    ...(pooled ? { pooled: { ...pooled, worse: [], better: [] } } : {}),
    onlyCurrent: current.filter((s) => !base.has(s.key)).map((s) => s.key),
    onlyBaseline: baseline.filter((s) => !keys.has(s.key)).map((s) => s.key),
  };
}

export interface KalahiComparison {
  /** Per variant: MC1, MC2 and each generation metric's acc, Holm-adjusted across every row. */
  rows: Comparison[];
  /** Per variant, the prompts whose verdict flipped. */
  flips: Array<{ variant: string; worse: Flip[]; better: Flip[] }>;
  onlyCurrent: string[];
  onlyBaseline: string[];
}

const promptShown = (p: KalahiPrompt) => (p.preferred ? `prefers ${p.preferred.kind}${p.preferred.best ? ' (best)' : ''}: ${p.preferred.text}` : p.response ?? '(no reply)');

export function compareKalahi(current: readonly KalahiVariantView[], baseline: readonly KalahiVariantView[], confidence = 0.95): KalahiComparison {
  const base = new Map(baseline.map((v) => [v.key, v]));
  const rows: Comparison[] = [];
  const flips: KalahiComparison['flips'] = [];
  for (const v of current) {
    const b = base.get(v.key);
    if (!b) continue;
    const all = pairById(v.prompts, b.prompts);
    const figure = (name: string, pick: (p: KalahiPrompt) => number | null | undefined) => {
      // Only prompts with the figure in both runs are paired for it.
      const pairs = all.pairs.filter((p) => pick(p.current) != null && pick(p.baseline) != null);
      const row = compareScores(`${v.key}.${name}`, `${v.key} ${name}`, { ...all, pairs }, (p) => pick(p)!, (p) => p.verdict, promptShown, (p) => p.variant, confidence);
      if (row) rows.push({ ...row, worse: [], better: [] });
    };
    figure('MC1', (p) => p.mc?.mc1);
    figure('MC2', (p) => p.mc?.mc2);
    for (const [metric, label] of KALAHI_METRICS) figure(`${label} acc`, (p) => p.acc[metric]);
    const verdicts = all.pairs.filter((p) => p.current.verdict !== 'missing' || p.baseline.verdict !== 'missing');
    const flip = (p: Pair<KalahiPrompt>): Flip => ({ id: p.id, subset: v.key, current: promptShown(p.current), baseline: promptShown(p.baseline) });
    flips.push({
      variant: v.key,
      worse: verdicts.filter((p) => p.baseline.verdict === 'correct' && p.current.verdict !== 'correct').map(flip),
      better: verdicts.filter((p) => p.baseline.verdict !== 'correct' && p.current.verdict === 'correct').map(flip),
    });
  }
  const keys = new Set(current.map((v) => v.key));
  return {
    rows: adjust(rows),
    flips,
    onlyCurrent: current.filter((v) => !base.has(v.key)).map((v) => v.key),
    onlyBaseline: baseline.filter((v) => !keys.has(v.key)).map((v) => v.key),
  };
}
