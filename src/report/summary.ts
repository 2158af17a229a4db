// One run's roll-up for Vitest UI's summary annotation: a compact text (the UI shows an annotation's message as one
// paragraph, so each line reads on its own when the line breaks collapse) and the main chart as a standalone SVG —
// MultiLoKo's EM per language, or Kalahi's figures per variant.
import type { Interval } from '../core/statistics/index.ts';
import { emChart, emChartData, kalahiChart, kalahiChartData, standaloneSvg } from './chartData.ts';
import { KALAHI_METRICS, kalahiView, type KalahiView } from './kalahi.ts';
import { multilokoView, type GateRow, type MultiLoKoView } from './multiloko.ts';
import type { KalahiResultsJson, MultiLoKoResultsJson, RunResults } from './types.ts';
import { ERROR_CATEGORIES } from '../metrics/errorCategory.ts';

const DASH = '–';
const fixed = (v: number | null | undefined, digits: number, scale = 1) => (v === null || v === undefined || !Number.isFinite(v) ? DASH : (v * scale).toFixed(digits));
const interval = (i: Interval, digits: number, scale: number) => `${fixed(i.value, digits, scale)} [${fixed(i.low, digits - 1, scale)}, ${fixed(i.high, digits - 1, scale)}]`;

function gatesLine(gates: readonly GateRow[]): string {
  if (gates.length === 0) return 'Gates: none set.';
  const missed = gates.filter((g) => !g.pass);
  return `Gates: ${gates.length - missed.length}/${gates.length} met${missed.length ? ` · missed: ${missed.map((g) => g.message).join(' · ')}` : '.'}`;
}

export function multilokoSummaryText(view: MultiLoKoView): string {
  const h = view.headline;
  const lines = [`MultiLoKo · ${view.model}`];
  lines.push(
    h
      ? `Leaderboard (EM × 100 over ${h.languages} local language${h.languages === 1 ? '' : 's'}): average EM ${fixed(h.em, 2, 100)} ± ${fixed(h.em2se, 1, 100)} · gap ${fixed(h.gap, 2, 100)} · MTE ${fixed(h.mte, 2, 100)} ± ${fixed(h.mte2se, 1, 100)} · min ${fixed(h.min, 2, 100)} (${h.minLanguage}) · max ${fixed(h.max, 2, 100)} (${h.maxLanguage}).`
      : 'Leaderboard: no local subset was scored.',
  );
  const languages = view.languages.filter((r) => r.subset.em);
  if (languages.length) lines.push(`EM × 100 per language [95% Wilson]: ${languages.map((r) => `${r.language} ${interval(r.subset.em!, 2, 100)}`).join(' · ')}.`);
  const withErrors = view.languages.filter((r) => r.subset.errors);
  if (withErrors.length) lines.push(`Error categories (items: ${ERROR_CATEGORIES.join('/')}): ${withErrors.map((r) => `${r.language} ${ERROR_CATEGORIES.map((c) => r.subset.errors![c]).join('/')}`).join(' · ')}.`);
  lines.push(gatesLine(view.gates));
  return lines.join('\n');
}

export function kalahiSummaryText(view: KalahiView): string {
  const lines = ['Kalahi'];
  for (const v of view.variants) {
    const parts: string[] = [];
    const add = (label: string, i: Interval | undefined) => i && parts.push(`${label} ${interval(i, 3, 1)}`);
    add('MC1', v.overall.mc?.mc1);
    add('MC2', v.overall.mc?.mc2_normalised);
    for (const [m, label] of KALAHI_METRICS) add(`${label} acc`, v.overall.generation?.acc[m]);
    lines.push(`${v.key} · ${v.model} · ${v.overall.prompts} prompts [95% intervals]: ${parts.join(' · ') || 'nothing scored'}.`);
  }
  lines.push(gatesLine(view.gates));
  return lines.join('\n');
}

/** An SVG chart as a summary attachment (Vitest UI shows `image/*` inline). */
function svgAttachment(svg: string | undefined): { contentType: string; body: string } | undefined {
  return svg ? { contentType: 'image/svg+xml', body: standaloneSvg(svg) } : undefined;
}

/** MultiLoKo's summary text and EM chart from its results (the file's shape, parsed or still in memory). */
export async function multilokoSummary(results: MultiLoKoResultsJson, confidence = 0.95): Promise<{ text: string; attachment?: { contentType: string; body: string } }> {
  const view = multilokoView(results, confidence);
  const attachment = svgAttachment(await emChart(emChartData(view, undefined)));
  return { text: multilokoSummaryText(view), ...(attachment ? { attachment } : {}) };
}

/** Kalahi's summary text and chart of figures per variant from its results. */
export async function kalahiSummary(results: KalahiResultsJson, confidence = 0.95): Promise<{ text: string; attachment?: { contentType: string; body: string } }> {
  const view = kalahiView(results, confidence);
  const attachment = svgAttachment(await kalahiChart(kalahiChartData(view)));
  return { text: kalahiSummaryText(view), ...(attachment ? { attachment } : {}) };
}

/** The summary of the one benchmark in `results` (MultiLoKo's when both are given). */
export async function runSummary(results: RunResults, confidence = 0.95): Promise<{ text: string; svg: string | undefined } | undefined> {
  const summary = results.multiloko ? await multilokoSummary(results.multiloko, confidence) : results.kalahi ? await kalahiSummary(results.kalahi, confidence) : undefined;
  return summary && { text: summary.text, svg: summary.attachment?.body };
}
