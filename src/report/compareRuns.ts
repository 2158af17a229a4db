// Several runs side by side (`lokal compare`): each benchmark's figures of every run with their intervals, and each
// later run against the first by the paired tests of compare.ts — a benchmark with a report section of its own sets
// its part out itself (ReportSection.compareRuns), those in the groups layout by compareGroups.ts.
import { alignedColumns } from '../core/textTable.ts';
import type { Comparison } from './compare.ts';
import { compareGroupsRuns, type GroupsComparison } from './compareGroups.ts';
import type { FigureRow, LabelledRun } from './labelledRun.ts';
import { fixed } from './numberText.ts';
import type { ReportSection, SectionRunsShown } from './section.ts';

export const MIN_RUNS = 2;
export const MAX_RUNS = 10;

export interface RunsComparison {
  labels: string[];
  /** Every section given, in its order, with what it sets side by side where some run holds its results. */
  sections: Array<{ name: string; title: string; shown?: SectionRunsShown }>;
  /** Benchmarks in the groups layout (dataset benchmarks). */
  groups?: GroupsComparison[];
  /** Figures left out as not comparable (Kalahi MC of two protocols; `lokal compare` adds the benchmarks a fingerprint difference refused), one line each, naming what would compare them. */
  leftOut: string[];
}

export function compareRuns(runs: readonly LabelledRun[], sections: readonly ReportSection[], confidence = 0.95): RunsComparison {
  if (runs.length < MIN_RUNS || runs.length > MAX_RUNS) throw new Error(`compare takes ${MIN_RUNS} to ${MAX_RUNS} runs, not ${runs.length}`);
  const labels = runs.map((r) => r.label);
  const out: RunsComparison = { labels, sections: [], leftOut: [] };
  for (const section of sections) {
    const results = runs.map((r) => r.results.benchmarks?.[section.name]);
    const compared = results.some((r) => r !== undefined) ? section.compareRuns(results, labels, confidence) : undefined;
    out.leftOut.push(...(compared?.leftOut ?? []));
    out.sections.push({ name: section.name, title: section.title, ...(compared?.shown ? { shown: compared.shown } : {}) });
  }
  const groups = compareGroupsRuns(runs);
  if (groups.length > 0) out.groups = groups;
  return out;
}

/** Whether anything is left to set side by side. */
export function comparesAnything(c: RunsComparison): boolean {
  return c.sections.some((s) => s.shown) || c.groups !== undefined;
}


/** `+1.25 (p 0.031*)`: the difference to the first run and its p (Holm-adjusted where the row is in a family). */
export function differenceText(c: Comparison | undefined, digits: number, scale: number): string {
  if (!c) return '';
  const p = c.pAdjusted ?? c.p;
  const d = fixed(c.diff, digits, scale);
  return `${c.diff > 0 ? '+' : ''}${d} (p ${p < 0.001 ? '<0.001' : p.toFixed(3)}${p < 0.05 ? '*' : ''})`;
}

/** The terminal's side-by-side table: a row per figure, each run's value, each later run's difference to the first. */
export function figureTable(rows: readonly FigureRow[], labels: readonly string[], digits: number, scale: number, extra: readonly string[][] = []): string[] {
  const header = ['', labels[0]!, ...labels.slice(1).flatMap((l) => [l, 'Δ vs #1 (p)'])];
  const body = rows.map((r) => [r.name, fixed(r.values[0]?.value, digits, scale), ...labels.slice(1).flatMap((_, j) => [fixed(r.values[j + 1]?.value, digits, scale), differenceText(r.versusFirst[j + 1], digits, scale)])]);
  return alignedColumns([header, ...body, ...extra], (c) => c > 0).map((line) => `  ${line}`);
}

/** The comparison as terminal lines. */
export function compareRunsText(runs: readonly LabelledRun[], c: RunsComparison): string[] {
  const lines: string[] = ['Runs:'];
  runs.forEach((r, i) => lines.push(`  ${c.labels[i]}  ${r.source}`));
  for (const section of c.sections) if (section.shown) lines.push(...section.shown.text);
  for (const g of c.groups ?? []) {
    lines.push('', `${g.title} · per group · Δ vs #1 on the first figure over the items both runs hold (the baseline gate’s tests), Holm-adjusted (* p < 0.05)`);
    lines.push(...figureTable(g.rows, c.labels, 3, 1));
  }
  return lines;
}
