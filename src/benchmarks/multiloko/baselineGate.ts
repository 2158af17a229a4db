// MultiLoKo against a baseline results file with per-item records: EM paired by id per subset, the local subsets
// pooled (the headline's items) and, with translations in the run, every subset pooled with a question and its
// translations as one cluster (they share an id); one Holm family; the items that flipped per subset.
import { baselineOutcome, judgeBaselineFamily, type BaselineTest, type PairedFigure, type PairedScore, type SignificanceSettings } from '../../core/baseline/index.ts';
import type { GateOutcome } from '../../core/gates.ts';
import type { Baseline, BaselineItem } from './baseline.ts';
import type { RolledSubset } from './rollup.ts';

export interface FlippedItem {
  id: string | number;
  baseline: string;
  current: string;
}

export interface SubsetFlips {
  /** Right → wrong (EM 1 → 0) and wrong → right. */
  worse: FlippedItem[];
  better: FlippedItem[];
}

/** What results JSON keeps of the comparison (`summary.baseline`). */
export interface BaselineComparison {
  file: string;
  mode: 'significance';
  alpha: number;
  margin: number;
  tests: BaselineTest[];
  flips: Record<string, SubsetFlips>;
  /** Subsets of one run only: not compared. */
  only_current: string[];
  only_baseline: string[];
}

interface SubsetPairs {
  subset: RolledSubset;
  pairs: PairedScore[];
  matched: Array<{ current: RolledSubset['records'][number]; baseline: BaselineItem }>;
  onlyCurrent: number;
  onlyBaseline: number;
}

/** Pairs one subset's records with the baseline's items of the same key by id (a JSON key is the id as a string). */
function pairSubset(subset: RolledSubset, items: ReadonlyMap<string, BaselineItem>): SubsetPairs {
  const a = subset.aggregate;
  const pairs: PairedScore[] = [];
  const matched: SubsetPairs['matched'] = [];
  for (const record of subset.records) {
    const base = items.get(String(record.id));
    if (!base) continue;
    // A question and its translations share the id; the source language tells questions of different languages apart.
    pairs.push({ id: String(record.id), current: record.scores.em, baseline: base.em, cluster: `${a.sourceLanguage}/${String(record.id)}` });
    matched.push({ current: record, baseline: base });
  }
  return { subset, pairs, matched, onlyCurrent: subset.records.length - pairs.length, onlyBaseline: items.size - pairs.length };
}

function pooled(key: string, figure: string, members: readonly SubsetPairs[], clustered: boolean): PairedFigure {
  return {
    key,
    figure,
    pairs: members.flatMap((m) => (clustered ? m.pairs : m.pairs.map(({ cluster: _, ...p }) => p))),
    onlyCurrent: members.reduce((n, m) => n + m.onlyCurrent, 0),
    onlyBaseline: members.reduce((n, m) => n + m.onlyBaseline, 0),
  };
}

/** Whether a baseline carries item records for the paired tests (a file of means only can be compared by tolerance alone). */
export function hasItems(baseline: Baseline): boolean {
  return (baseline.items?.size ?? 0) > 0;
}

export function judgeAgainstBaselineItems(subsets: readonly RolledSubset[], baseline: Baseline, settings: SignificanceSettings): { outcomes: GateOutcome[]; comparison: BaselineComparison } {
  const items = baseline.items ?? new Map<string, Map<string, BaselineItem>>();
  const scored = subsets.filter((s) => s.aggregate.means && s.records.length > 0);
  const compared = scored.filter((s) => items.has(s.aggregate.key)).map((s) => pairSubset(s, items.get(s.aggregate.key)!));
  const figures: PairedFigure[] = compared.map((c) => ({ key: c.subset.aggregate.key, figure: `${c.subset.aggregate.name} EM`, pairs: c.pairs, onlyCurrent: c.onlyCurrent, onlyBaseline: c.onlyBaseline }));
  const local = compared.filter((c) => !c.subset.aggregate.translated);
  if (local.length > 1) figures.push(pooled('pooled:local', `local subsets pooled (${local.length}) EM`, local, false));
  if (local.length < compared.length && compared.length > 1) figures.push(pooled('pooled:all', `all subsets pooled (${compared.length}, a question and its translations one cluster) EM`, compared, true));
  const tests = judgeBaselineFamily(figures, settings);
  const flips: Record<string, SubsetFlips> = {};
  for (const c of compared) {
    const flip = (m: SubsetPairs['matched'][number]): FlippedItem => ({ id: m.current.id, baseline: m.baseline.prediction, current: m.current.prediction });
    flips[c.subset.aggregate.key] = {
      worse: c.matched.filter((m) => m.baseline.em === 1 && m.current.scores.em !== 1).map(flip),
      better: c.matched.filter((m) => m.baseline.em !== 1 && m.current.scores.em === 1).map(flip),
    };
  }
  const runKeys = new Set(scored.map((s) => s.aggregate.key));
  return {
    outcomes: tests.map((t) => baselineOutcome(t, settings, baseline.file)),
    comparison: {
      file: baseline.file,
      mode: 'significance',
      alpha: settings.alpha,
      margin: settings.margin,
      tests,
      flips,
      only_current: scored.filter((s) => !items.has(s.aggregate.key)).map((s) => s.aggregate.key),
      only_baseline: [...items.keys()].filter((k) => !runKeys.has(k)),
    },
  };
}
