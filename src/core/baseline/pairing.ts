// How a run's items are paired with a baseline's into the figures of one Holm family — shared by the baseline gate,
// the report's comparison and `lokal compare`, so that a comparison and a gate never disagree.
import type { PairedFigure, PairedScore } from './pairedTest.ts';

/** One item's score in a run: its id, the cluster it belongs to (items sharing a source), the score (null: none). */
export interface ItemScore {
  id: string;
  cluster: string;
  score: number | null;
}

/** A figure over the items both runs score: paired by id; items scored by one run only are counted, not tested. */
export function pairedFigure(
  key: string,
  figure: string,
  current: readonly ItemScore[],
  baseline: ReadonlyMap<string, number | null>,
  scores?: 'binary' | 'continuous',
): PairedFigure {
  const pairs: PairedScore[] = [];
  let inCurrent = 0;
  for (const item of current) {
    if (item.score === null) continue;
    inCurrent++;
    const before = baseline.get(item.id);
    if (before === undefined || before === null) continue;
    pairs.push({ id: item.id, current: item.score, baseline: before, cluster: item.cluster });
  }
  let inBaseline = 0;
  for (const v of baseline.values()) if (v !== null) inBaseline++;
  return { key, figure, pairs, onlyCurrent: inCurrent - pairs.length, onlyBaseline: inBaseline - pairs.length, ...(scores ? { scores } : {}) };
}

/** A subset of a multi-subset benchmark (MultiLoKo) as the family sees it: its figure and whether it is a translation. */
export interface SubsetFigure {
  figure: PairedFigure;
  translated: boolean;
}

/**
 * The family of a multi-subset comparison: every subset in both runs; the local subsets pooled (as independent items)
 * when there are several; and, with translations compared too, every subset pooled with the items of one source as
 * one cluster (a question and its translations).
 */
export function subsetFamily(subsets: readonly SubsetFigure[], metric: string): PairedFigure[] {
  const figures = subsets.map((s) => s.figure);
  const pool = (key: string, figure: string, members: readonly SubsetFigure[], clustered: boolean): PairedFigure => ({
    key,
    figure,
    pairs: members.flatMap((m) => (clustered ? m.figure.pairs : m.figure.pairs.map(({ cluster: _, ...p }) => p))),
    onlyCurrent: members.reduce((n, m) => n + m.figure.onlyCurrent, 0),
    onlyBaseline: members.reduce((n, m) => n + m.figure.onlyBaseline, 0),
  });
  const local = subsets.filter((s) => !s.translated);
  if (local.length > 1) figures.push(pool('pooled:local', `local subsets pooled (${local.length}) ${metric}`, local, false));
  if (local.length < subsets.length && subsets.length > 1) figures.push(pool('pooled:all', `all subsets pooled (${subsets.length}, a question and its translations one cluster) ${metric}`, subsets, true));
  return figures;
}
