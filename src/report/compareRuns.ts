// Several runs side by side (`lokal compare`): per language (MultiLoKo) or per variant and figure (Kalahi) each run's
// figure with its interval, and each later run against the first by the paired tests of compare.ts.
import type { Interval } from '../core/statistics/index.ts';
import { alignedColumns } from '../core/textTable.ts';
import { compareKalahi, compareMultiLoKo, type Comparison, type KalahiComparison, type MultiLoKoComparison } from './compare.ts';
import { KALAHI_METRICS, kalahiView, type KalahiView } from './kalahi.ts';
import { multilokoView, type MultiLoKoView } from './multiloko.ts';
import { compareGroupsRuns, type GroupsComparison } from './compareGroups.ts';
import type { FigureRow, LabelledRun } from './labelledRun.ts';
import { MC_PROTOCOL_FIELD, mcProtocolDifferences, recordedMCProtocol } from '../core/mcProtocol.ts';

export const MIN_RUNS = 2;
export const MAX_RUNS = 10;

export interface RunsComparison {
  labels: string[];
  multiloko?: { views: Array<MultiLoKoView | undefined>; languages: FigureRow[]; pooled: Array<Comparison | undefined>; tests: Array<MultiLoKoComparison | undefined> };
  kalahi?: { views: Array<KalahiView | undefined>; figures: FigureRow[]; tests: Array<KalahiComparison | undefined> };
  /** Benchmarks in the groups layout (dataset benchmarks). */
  groups?: GroupsComparison[];
  /** Figures left out as not comparable (Kalahi MC of two protocols; `lokal compare` adds the benchmarks a fingerprint difference refused), one line each, naming what would compare them. */
  leftOut: string[];
}

/**
 * Per run, the Kalahi variants whose MC figures came from another protocol than the first run's (kalahi.json
 * `mc_protocol`): those figures are left out of the comparison, each with one line saying why and what would compare them.
 */
function mcLeftOut(runs: readonly LabelledRun[]): { variants: Array<Set<string>>; lines: string[] } {
  const protocols = (run: LabelledRun) => new Map(Object.entries(run.results.kalahi?.variants ?? {}).map(([variant, v]) => [variant, recordedMCProtocol(v)]));
  const first = protocols(runs[0]!);
  const lines: string[] = [];
  const variants = runs.map((run, i) => {
    if (i === 0) return new Set<string>();
    const differences = mcProtocolDifferences(protocols(run), first);
    for (const d of differences) {
      lines.push(`${run.label} (kalahi ${d.variant}): MC1 and MC2 left out: #1 measured MC1 by "${d.other}", this run by "${d.current}" (${MC_PROTOCOL_FIELD}); MC figures of two protocols are not compared — a run with LOKAL_KALAHI_MC=${d.other} is; its other figures are compared`);
    }
    return new Set(differences.map((d) => d.variant));
  });
  return { variants, lines };
}

export function compareRuns(runs: readonly LabelledRun[], confidence = 0.95): RunsComparison {
  if (runs.length < MIN_RUNS || runs.length > MAX_RUNS) throw new Error(`compare takes ${MIN_RUNS} to ${MAX_RUNS} runs, not ${runs.length}`);
  const out: RunsComparison = { labels: runs.map((r) => r.label), leftOut: [] };
  if (runs.some((r) => r.results.multiloko)) {
    const views = runs.map((r) => (r.results.multiloko ? multilokoView(r.results.multiloko, confidence) : undefined));
    const first = views[0];
    const tests = views.map((v, i) => (i > 0 && v && first ? compareMultiLoKo(v.subsets, first.subsets, confidence) : undefined));
    const languages = [...new Set(views.flatMap((v) => v?.languages.map((l) => l.language) ?? []))];
    out.multiloko = {
      views,
      tests,
      pooled: tests.map((t) => t?.pooled),
      languages: languages.map((language) => {
        const subsets = views.map((v) => v?.languages.find((l) => l.language === language)?.subset);
        return {
          name: language,
          values: subsets.map((s) => s?.em),
          versusFirst: tests.map((t, i) => (subsets[i] ? t?.subsets.find((c) => c.key === subsets[i]!.key) : undefined)),
        };
      }),
    };
  }
  if (runs.some((r) => r.results.kalahi)) {
    const leftOut = mcLeftOut(runs);
    out.leftOut.push(...leftOut.lines);
    const views = runs.map((r) => (r.results.kalahi ? kalahiView(r.results.kalahi, confidence) : undefined));
    const first = views[0];
    const tests = views.map((v, i) => (i > 0 && v && first ? compareKalahi(v.variants, first.variants, confidence, leftOut.variants[i]) : undefined));
    const variants = [...new Set(views.flatMap((v) => v?.variants.map((x) => x.key) ?? []))];
    const figures: FigureRow[] = [];
    const pickers: Array<[string, (f: KalahiView['variants'][number]['overall']) => Interval | undefined]> = [
      ['MC1', (f) => f.mc?.mc1],
      ['MC2', (f) => f.mc?.mc2],
      ...KALAHI_METRICS.map(([m, label]): [string, (f: KalahiView['variants'][number]['overall']) => Interval | undefined] => [`${label} acc`, (f) => f.generation?.acc[m]]),
    ];
    for (const variant of variants) {
      for (const [figure, pick] of pickers) {
        const mc = figure.startsWith('MC');
        const values = views.map((v, i) => {
          const found = v?.variants.find((x) => x.key === variant);
          return found && !(mc && leftOut.variants[i]!.has(variant)) ? pick(found.overall) : undefined;
        });
        if (values.every((v) => v === undefined)) continue;
        figures.push({ name: `${variant} ${figure}`, values, versusFirst: tests.map((t) => t?.rows.find((r) => r.key === `${variant}.${figure}`)) });
      }
    }
    // A table whose later runs lost every figure to the protocol rule would show the first run alone.
    if (leftOut.lines.length === 0 || figures.some((f) => f.values.slice(1).some((v) => v !== undefined))) out.kalahi = { views, figures, tests };
  }
  const groups = compareGroupsRuns(runs);
  if (groups.length > 0) out.groups = groups;
  return out;
}

const DASH = '–';
const fixed = (v: number | null | undefined, digits: number, scale: number) => (v === null || v === undefined || !Number.isFinite(v) ? DASH : (v * scale).toFixed(digits));

/** `+1.25 (p 0.031*)`: the difference to the first run and its p (Holm-adjusted where the row is in a family). */
export function differenceText(c: Comparison | undefined, digits: number, scale: number): string {
  if (!c) return '';
  const p = c.pAdjusted ?? c.p;
  const d = fixed(c.diff, digits, scale);
  return `${c.diff > 0 ? '+' : ''}${d} (p ${p < 0.001 ? '<0.001' : p.toFixed(3)}${p < 0.05 ? '*' : ''})`;
}

function figureTable(rows: readonly FigureRow[], labels: readonly string[], digits: number, scale: number, extra: readonly string[][] = []): string[] {
  const header = ['', labels[0]!, ...labels.slice(1).flatMap((l) => [l, 'Δ vs #1 (p)'])];
  const body = rows.map((r) => [r.name, fixed(r.values[0]?.value, digits, scale), ...labels.slice(1).flatMap((_, j) => [fixed(r.values[j + 1]?.value, digits, scale), differenceText(r.versusFirst[j + 1], digits, scale)])]);
  return alignedColumns([header, ...body, ...extra], (c) => c > 0).map((line) => `  ${line}`);
}

/** The comparison as terminal lines. */
export function compareRunsText(runs: readonly LabelledRun[], c: RunsComparison): string[] {
  const lines: string[] = ['Runs:'];
  runs.forEach((r, i) => lines.push(`  ${c.labels[i]}  ${r.source}`));
  if (c.multiloko) {
    const m = c.multiloko;
    lines.push('', 'MultiLoKo · EM × 100 per language (local questions) · Δ vs #1 on the items both runs hold, p of McNemar’s exact test, Holm-adjusted across subsets and the pooled figures as the baseline gate does (* p < 0.05)');
    const average = ['average', fixed(m.views[0]?.headline?.em, 2, 100), ...m.views.slice(1).flatMap((v, j) => [fixed(v?.headline?.em, 2, 100), differenceText(m.pooled[j + 1], 2, 100).replace(/^(.+)$/u, '$1 pooled')])];
    lines.push(...figureTable(m.languages, c.labels, 2, 100, [average]));
  }
  if (c.kalahi) {
    lines.push('', 'Kalahi · per variant · Δ vs #1 on the prompts both runs hold (the baseline gate’s tests: McNemar exact for 0/1 figures of independent prompts, paired cluster bootstrap otherwise), Holm-adjusted (* p < 0.05)');
    lines.push(...figureTable(c.kalahi.figures, c.labels, 3, 1));
  }
  for (const g of c.groups ?? []) {
    lines.push('', `${g.title} · per group · Δ vs #1 on the first figure over the items both runs hold (the baseline gate’s tests), Holm-adjusted (* p < 0.05)`);
    lines.push(...figureTable(g.rows, c.labels, 3, 1));
  }
  return lines;
}
