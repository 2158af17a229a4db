// A groups-layout benchmark in the step summary: its groups with each declared figure and interval, its gates and,
// when the run had a baseline, the baseline gate's paired tests.
import { markdownCell } from './markdownCell.ts';
import { fixed } from './numberText.ts';
import type { GroupsResultsJson } from './groupsResults.ts';
import { figureText } from './groupsSummary.ts';
import { ERROR_CATEGORIES } from '../metrics/errorCategory.ts';

const OP: Record<string, string> = { '>=': '≥', '<=': '≤', '>': '>', '<': '<' };

/** A Markdown table; `text` columns are left-aligned, the others (figures) right-aligned. */
function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>, text: ReadonlySet<number> = new Set([0])): string[] {
  return [`| ${header.join(' | ')} |`, `| ${header.map((_, i) => (text.has(i) ? '---' : '---:')).join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)];
}

export function groupsMarkdown(results: GroupsResultsJson): string[] {
  const lines = [`### ${markdownCell(results.title)}${results.model ? ` · ${markdownCell(results.model)}` : ''}`, ''];
  const header = ['Group', 'Items', ...results.figures.map((f) => `${markdownCell(f.label)} [${Math.round(results.confidence * 100)}% ${f.kind === 'proportion' ? 'Wilson' : 'quasi-Wilson'}]`)];
  const rows = results.groups.map((g) => [markdownCell(g.key), String(g.scored), ...results.figures.map((f) => figureText(g.figures[f.name], f.top))]);
  if (results.groups.length > 1) rows.push(['**all**', String(results.overall.scored), ...results.figures.map((f) => figureText(results.overall.figures[f.name], f.top))]);
  lines.push(...table(header, rows), '');
  // Items per error category (MultiLoKo's rules) for each group, when the file records them.
  const counted = results.groups.filter((g) => g.errors);
  if (counted.length) {
    const total = (e: Record<string, number>) => ERROR_CATEGORIES.reduce((n, c) => n + (e[c] ?? 0), 0);
    lines.push('**Error categories** (items)', '', ...table(['Group', 'Items', ...ERROR_CATEGORIES], counted.map((g) => [markdownCell(g.key), String(total(g.errors!)), ...ERROR_CATEGORIES.map((c) => String(g.errors![c] ?? 0))])), '');
  }
  lines.push('**Gates**', '');
  if (results.gates.length === 0 && results.gates_not_applied.length === 0) lines.push('No gates were set.');
  else {
    lines.push(...table(['Outcome', 'Gate', 'Value', 'Bound', 'Message'], results.gates.map((g) => [g.pass ? '✅ met' : '❌ missed', markdownCell(g.gate), fixed(g.value, 4), `${OP[g.op] ?? markdownCell(g.op)} ${fixed(g.bound, 4)}`, markdownCell(g.message)]), new Set([0, 1, 4])));
    if (results.gates_not_applied.length) lines.push('', `Not applied (named nothing in this run): ${results.gates_not_applied.map(markdownCell).join(', ')}`);
  }
  const tests = results.baseline?.tests ?? [];
  if (tests.length) {
    lines.push('', `**Against the baseline** (${markdownCell(results.baseline!.file)}, items paired by id)`, '');
    lines.push(...table(['Figure', 'Paired', 'Baseline', 'This run', 'Δ', 'p (Holm)', 'Verdict'], tests.map((t) => [markdownCell(t.figure), String(t.n), fixed(t.baseline, 3), fixed(t.current, 3), fixed(t.diff, 3), fixed(t.p_adjusted, 4), markdownCell(t.verdict)]), new Set([0, 6])));
  }
  return lines;
}
