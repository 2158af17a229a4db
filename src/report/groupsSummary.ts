// A groups-layout benchmark's compact roll-up for Vitest UI's summary test: one line per group with each declared
// figure and its interval, the run's line, and the gates.
import type { FigureValueJson, GroupsResultsJson } from './groupsResults.ts';

export function figureText(f: FigureValueJson | null | undefined, top: number): string {
  if (!f) return '–';
  const digits = top === 100 ? 2 : 3;
  return `${f.value.toFixed(digits)} [${f.low.toFixed(digits)}, ${f.high.toFixed(digits)}]`;
}

export function groupsSummaryText(results: GroupsResultsJson): string {
  const figures = (values: Record<string, FigureValueJson | null>) => results.figures.map((f) => `${f.label} ${figureText(values[f.name], f.top)}`).join(' · ');
  const lines = [`${results.title}${results.model ? ` · ${results.model}` : ''} [${Math.round(results.confidence * 100)}% intervals]`];
  for (const g of results.groups) lines.push(`${g.key} · ${g.scored} items: ${figures(g.figures)}.`);
  if (results.groups.length > 1) lines.push(`all · ${results.overall.scored} items: ${figures(results.overall.figures)}.`);
  const missed = results.gates.filter((g) => !g.pass);
  lines.push(results.gates.length === 0 ? 'Gates: none set.' : `Gates: ${results.gates.length - missed.length}/${results.gates.length} met${missed.length ? ` · missed: ${missed.map((g) => g.message).join(' · ')}` : '.'}`);
  return lines.join('\n');
}
