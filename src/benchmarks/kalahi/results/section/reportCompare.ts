// Kalahi against a baseline run and several runs side by side (`lokal compare`): MC1, MC2 and each generation
// metric's acc per variant, prompts paired by id with the baseline gate's tests (report/compare.ts), the prompts that
// flipped, and the runs' table, text and HTML section (MC figures of two MC protocols left out).
import type { Interval } from '../../../../core/statistics/index.ts';
import { pairedFigure, type PairedFigure } from '../../../../core/baseline/index.ts';
import { MC_PROTOCOL_FIELD, mcProtocolDifferences, recordedMCProtocol } from '../../../../core/mcProtocol.ts';
import { familyRows, flipsOf, pairById, type Comparison, type Flip } from '../../../../report/compare.ts';
import { sideBySide } from '../../../../report/compareHtml.ts';
import { figureTable } from '../../../../report/compareRuns.ts';
import { html } from '../../../../report/escape.ts';
import { comparisonTable } from '../../../../report/htmlParts.ts';
import type { FigureRow } from '../../../../report/labelledRun.ts';
import type { SectionRuns } from '../../../../report/section.ts';
import { KALAHI_METRICS, kalahiView, type KalahiPrompt, type KalahiVariantView, type KalahiView } from './reportView.ts';
import type { KalahiResultsJson } from '../../resultsSchema.ts';

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

/**
 * Per run, the variants whose MC figures came from another protocol than the first run's (kalahi.json
 * `mc_protocol`): those figures are left out of the comparison, each with one line saying why and what would compare them.
 */
function mcLeftOut(results: ReadonlyArray<KalahiResultsJson | undefined>, labels: readonly string[]): { variants: Array<Set<string>>; lines: string[] } {
  const protocols = (r: KalahiResultsJson | undefined) => new Map(Object.entries(r?.variants ?? {}).map(([variant, v]) => [variant, recordedMCProtocol(v)]));
  const first = protocols(results[0]);
  const lines: string[] = [];
  const variants = results.map((r, i) => {
    if (i === 0) return new Set<string>();
    const differences = mcProtocolDifferences(protocols(r), first);
    for (const d of differences) {
      lines.push(`${labels[i]} (kalahi ${d.variant}): MC1 and MC2 left out: #1 measured MC1 by "${d.other}", this run by "${d.current}" (${MC_PROTOCOL_FIELD}); MC figures of two protocols are not compared — a run with LOKAL_KALAHI_MC=${d.other} is; its other figures are compared`);
    }
    return new Set(differences.map((d) => d.variant));
  });
  return { variants, lines };
}

/** compare.html's Kalahi section: the side-by-side table and each later run's tests. */
function runsHtml(figures: readonly FigureRow[], tests: ReadonlyArray<KalahiComparison | undefined>, labels: readonly string[]): string {
  return html`<section id="kalahi"><h2>Kalahi</h2>
${sideBySide(figures, labels, 3, 1, 'compare-kalahi')}
${tests.map((t, i) => (t ? html`<h3>${labels[i]!} against ${labels[0]!}</h3>${comparisonTable(t.rows, undefined, { scale: 1, digits: 3, unit: '' }, `compare-kalahi-${i + 1}`)}` : ''))}
</section>`.value;
}

type Overall = KalahiView['variants'][number]['overall'];

/** `lokal compare`'s Kalahi part: each variant's figures of every run, each later run against the first (prompts paired by id). */
export function compareKalahiRuns(results: ReadonlyArray<KalahiResultsJson | undefined>, labels: readonly string[], confidence: number): SectionRuns {
  const leftOut = mcLeftOut(results, labels);
  const views = results.map((r) => (r ? kalahiView(r, confidence) : undefined));
  const first = views[0];
  const tests = views.map((v, i) => (i > 0 && v && first ? compareKalahi(v.variants, first.variants, confidence, leftOut.variants[i]) : undefined));
  const variants = [...new Set(views.flatMap((v) => v?.variants.map((x) => x.key) ?? []))];
  const figures: FigureRow[] = [];
  const pickers: Array<[string, (f: Overall) => Interval | undefined]> = [
    ['MC1', (f) => f.mc?.mc1],
    ['MC2', (f) => f.mc?.mc2],
    ...KALAHI_METRICS.map(([m, label]): [string, (f: Overall) => Interval | undefined] => [`${label} acc`, (f) => f.generation?.acc[m]]),
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
  if (leftOut.lines.length > 0 && !figures.some((f) => f.values.slice(1).some((v) => v !== undefined))) return { leftOut: leftOut.lines };
  const text = [
    '',
    'Kalahi · per variant · Δ vs #1 on the prompts both runs hold (the baseline gate’s tests: McNemar exact for 0/1 figures of independent prompts, paired cluster bootstrap otherwise), Holm-adjusted (* p < 0.05)',
    ...figureTable(figures, labels, 3, 1),
  ];
  return { leftOut: leftOut.lines, shown: { rows: figures, text, html: async () => runsHtml(figures, tests, labels) } };
}
