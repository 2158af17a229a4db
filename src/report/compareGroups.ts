// `lokal compare` for benchmarks in the groups layout: per group and declared figure each run's value and interval,
// and on the first figure each later run against the first by the baseline gate's paired tests (items paired by id
// within a group, the groups pooled when there are several, Holm across them).
import { judgeBaselineFamily, pairedFigure, type PairedFigure } from '../core/baseline/index.ts';
import type { Comparison } from './compare.ts';
import type { FigureRow } from './labelledRun.ts';
import type { GroupJson, GroupsResultsJson } from './groupsResults.ts';

export interface GroupsComparison {
  benchmark: string;
  title: string;
  /** The top of each row's scale (1 or 100), so that a table prints it with sensible digits. */
  rows: Array<FigureRow & { top: number }>;
}

/** The first figure's per-item scores of a group on a 0–1 scale (missing items left out). */
function scores(g: GroupJson, figure: string, top: number) {
  return g.records.filter((r) => r.verdict !== 'missing' && typeof r.scores[figure] === 'number').map((r) => ({ id: String(r.id), cluster: String(r.id), score: r.scores[figure]! / top }));
}

function versusFirst(current: GroupsResultsJson, first: GroupsResultsJson): Map<string, Comparison> {
  const figure = first.figures[0]!;
  const kind = figure.kind === 'proportion' ? 'binary' : 'continuous';
  const shared = current.groups.filter((g) => first.groups.some((f) => f.key === g.key));
  const base = (key: string) => new Map(scores(first.groups.find((f) => f.key === key)!, figure.name, figure.top).map((s) => [s.id, s.score]));
  const figures: PairedFigure[] = shared.map((g) => pairedFigure(g.key, `${g.key} ${figure.label}`, scores(g, figure.name, figure.top), base(g.key), kind));
  if (shared.length > 1) {
    const pooledBase = new Map(shared.flatMap((g) => [...base(g.key)]));
    figures.push(pairedFigure('all', `all groups pooled ${figure.label}`, shared.flatMap((g) => scores(g, figure.name, figure.top)), pooledBase, kind));
  }
  const tests = judgeBaselineFamily(figures, { alpha: 0.05, margin: 0 });
  return new Map(
    tests.map((t) => [
      t.key,
      { key: t.key, label: t.figure, n: t.n, onlyCurrent: t.onlyCurrent, onlyBaseline: t.onlyBaseline, current: t.current * figure.top, baseline: t.baseline * figure.top, diff: t.diff * figure.top, se: t.se === null ? null : t.se * figure.top, low: t.low === null ? null : t.low * figure.top, high: t.high === null ? null : t.high * figure.top, test: t.test, p: t.p, pAdjusted: t.p_adjusted, mde: t.mde, discordant: t.binary ? { worse: t.worse, better: t.better } : null, worse: [], better: [] },
    ]),
  );
}

/** One comparison per benchmark any run holds in the groups layout, in the order the runs name them. */
export function compareGroupsRuns(runs: ReadonlyArray<{ results: { others?: GroupsResultsJson[] } }>): GroupsComparison[] {
  const names = [...new Set(runs.flatMap((r) => (r.results.others ?? []).map((o) => o.benchmark)))];
  return names.map((name) => {
    const results = runs.map((r) => r.results.others?.find((o) => o.benchmark === name));
    const first = results[0];
    const declared = (first ?? results.find(Boolean))!;
    const tests = results.map((r, i) => (i > 0 && r && first ? versusFirst(r, first) : undefined));
    const keys = [...new Set(results.flatMap((r) => r?.groups.map((g) => g.key) ?? []))];
    if (keys.length > 1) keys.push('all');
    const rows = keys.flatMap((key) =>
      declared.figures.map((figure, f) => ({
        name: `${key} ${figure.label}`,
        top: figure.top,
        values: results.map((r) => {
          const values = key === 'all' ? r?.overall.figures : r?.groups.find((g) => g.key === key)?.figures;
          const v = values?.[figure.name];
          return v ? { value: v.value, low: v.low, high: v.high, se: null, n: v.n } : undefined;
        }),
        versusFirst: tests.map((t) => (f === 0 ? t?.get(key) : undefined)),
      })),
    );
    return { benchmark: name, title: declared.title, rows };
  });
}
