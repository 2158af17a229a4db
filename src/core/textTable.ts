// Plain-text tables for the reporters: column widths in code points, so CJK and accented names line up as counted.
import type { GateOutcome } from './gates.ts';
import { terminalText } from '../data/terminalText.ts';

function displayWidth(text: string): number {
  return Array.from(text).length;
}

function pad(text: string, size: number, right: boolean): string {
  const fill = ' '.repeat(Math.max(0, size - displayWidth(text)));
  return right ? fill + text : text + fill;
}

/** Rows as aligned columns separated by two spaces; `rightAligned(c)` for figure columns. Cells are made terminal-safe. */
export function alignedColumns(rawRows: string[][], rightAligned: (column: number) => boolean): string[] {
  const rows = rawRows.map((r) => r.map(terminalText));
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => displayWidth(r[c] ?? ''))));
  return rows.map((r) => r.map((cell, c) => pad(cell, widths[c]!, rightAligned(c))).join('  ').trimEnd());
}

/** A Markdown table with aligned columns: the first `textColumns` left, the figures right. Cells are made terminal-safe. */
export function markdownTable(rawHeader: string[], rawRows: string[][], textColumns = 1): string[] {
  const header = rawHeader.map(terminalText);
  const rows = rawRows.map((r) => r.map(terminalText));
  const widths = header.map((h, c) => Math.max(3, displayWidth(h), ...rows.map((r) => displayWidth(r[c] ?? ''))));
  const line = (cells: string[]) => `| ${cells.map((text, c) => pad(text, widths[c]!, c >= textColumns)).join(' | ')} |`;
  return [line(header), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...rows.map(line)];
}

/** The gate section of a benchmark: one line per judged gate, then the clauses that matched nothing in this run. */
export function gateSection(title: string, outcomes: readonly GateOutcome[], notApplied: readonly string[], whyNotApplied: string): string[] {
  if (outcomes.length === 0 && notApplied.length === 0) return [];
  const lines = [terminalText(title)];
  for (const o of outcomes) lines.push(`  ${o.pass ? '✓' : '✗'} ${terminalText(o.message)}`);
  for (const clause of notApplied) lines.push(`  - ${terminalText(clause)}: not applied (${whyNotApplied})`);
  return lines;
}
