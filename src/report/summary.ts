// What every benchmark's Vitest UI summary shares: one run's roll-up as a compact text (the UI shows an annotation's
// message as one paragraph, so each line reads on its own when the line breaks collapse) and its main chart as a
// standalone SVG attachment. The benchmarks' own summaries (their uiSummary.ts) are made of these.
import { standaloneSvg } from './charts.ts';
import type { GateRow } from './viewParts.ts';

/** `Gates: 2/3 met · missed: …`. */
export function gatesLine(gates: readonly GateRow[]): string {
  if (gates.length === 0) return 'Gates: none set.';
  const missed = gates.filter((g) => !g.pass);
  return `Gates: ${gates.length - missed.length}/${gates.length} met${missed.length ? ` · missed: ${missed.map((g) => g.message).join(' · ')}` : '.'}`;
}

/** A summary's text and, when there is a chart, its SVG as an attachment. */
export interface UiSummary {
  text: string;
  attachment?: { contentType: string; body: string };
}

/** An SVG chart as a summary attachment (Vitest UI shows `image/*` inline). */
export function svgAttachment(svg: string | undefined): { contentType: string; body: string } | undefined {
  return svg ? { contentType: 'image/svg+xml', body: standaloneSvg(svg) } : undefined;
}
