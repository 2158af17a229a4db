// MultiLoKo against a baseline results file with per-item records: EM paired by id per subset, the local subsets
// pooled (the headline's items) and, with translations in the run, every subset pooled with a question and its
// translations as one cluster (they share an id); one Holm family; the items that flipped per subset.
import { baselineOutcome, judgeBaselineFamily, pairedFigure, subsetFamily, type BaselineTest, type SignificanceSettings } from '../../../core/baseline/index.ts';
import type { GateOutcome } from '../../../core/gates.ts';
import type { Baseline, BaselineItem } from './baseline.ts';
import type { RolledSubset } from './rolledSubset.ts';

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

/** Whether a baseline carries item records for the paired tests (a file of means only can be compared by tolerance alone). */
export function hasItems(baseline: Baseline): boolean {
  return (baseline.items?.size ?? 0) > 0;
}

export function judgeAgainstBaselineItems(subsets: readonly RolledSubset[], baseline: Baseline, settings: SignificanceSettings): { outcomes: GateOutcome[]; comparison: BaselineComparison } {
  const items = baseline.items ?? new Map<string, Map<string, BaselineItem>>();
  const scored = subsets.filter((s) => s.aggregate.means && s.records.length > 0);
  const compared = scored.filter((s) => items.has(s.aggregate.key));
  // Items paired by id (a JSON key is the id as a string); a question and its translations share the id, and the source
  // language tells questions of different languages apart.
  const family = subsetFamily(
    compared.map((s) => {
      const a = s.aggregate;
      const base = new Map([...items.get(a.key)!].map(([id, b]) => [id, b.em]));
      const scores = s.records.map((r) => ({ id: String(r.id), cluster: `${a.sourceLanguage}/${String(r.id)}`, score: r.scores.em }));
      return { figure: pairedFigure(a.key, `${a.name} EM`, scores, base), translated: a.translated };
    }),
    'EM',
  );
  const tests = judgeBaselineFamily(family, settings);
  const flips: Record<string, SubsetFlips> = {};
  for (const s of compared) {
    const base = items.get(s.aggregate.key)!;
    const worse: FlippedItem[] = [];
    const better: FlippedItem[] = [];
    for (const r of s.records) {
      const b = base.get(String(r.id));
      if (!b) continue;
      const flip = { id: r.id, baseline: b.prediction, current: r.prediction };
      if (b.em === 1 && r.scores.em !== 1) worse.push(flip);
      else if (b.em !== 1 && r.scores.em === 1) better.push(flip);
    }
    flips[s.aggregate.key] = { worse, better };
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
