// What every benchmark's part of the step summary is built of: figures with their intervals, tables, the gates and
// the changes against a baseline that its paired tests call significant.
import type { Interval } from '../core/statistics/index.ts';
import type { Comparison } from './compare.ts';
import { markdownCell } from './markdownCell.ts';
import { DASH, fixed, intervalText, signed } from './numberText.ts';
import type { GateRow } from './viewParts.ts';

/** A figure with its interval (`75.00 [30.1, 95.4]`), or a dash. */
export function withInterval(i: Interval | undefined, digits: number, scale: number): string {
  return i ? intervalText(i, digits, scale) : DASH;
}

/** A Markdown table; the `numeric` columns are right-aligned. */
export function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>, numeric: ReadonlySet<number> = new Set()): string[] {
  return [`| ${header.join(' | ')} |`, `| ${header.map((_, i) => (numeric.has(i) ? '---:' : '---')).join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)];
}

const OP: Record<string, string> = { '>=': '≥', '<=': '≤' };

/** A section's gates as a table, and the clauses not applied. */
export function gateLines(gates: readonly GateRow[], notApplied: readonly string[]): string[] {
  if (gates.length === 0 && notApplied.length === 0) return ['No gates were set.'];
  const lines = table(
    ['Outcome', 'Gate', 'Value', 'Bound', 'Message'],
    gates.map((g) => [g.pass ? '✅ met' : '❌ missed', markdownCell(g.gate), fixed(g.value, 4), `${OP[g.op] ?? markdownCell(g.op)} ${fixed(g.bound, 4)}`, markdownCell(g.message)]),
    new Set([2, 3]),
  );
  if (notApplied.length) lines.push('', `Not applied (named nothing in this run): ${notApplied.map((c) => markdownCell(c)).join(', ')}`);
  return lines;
}

/** Rows whose Holm-adjusted p is below `alpha`. */
function significant(rows: readonly Comparison[], alpha: number): Comparison[] {
  return rows.filter((r) => (r.pAdjusted ?? r.p) < alpha);
}

/** The paired comparisons with a baseline that differ significantly at `alpha`, as a line and a table. */
export function changeLines(rows: readonly Comparison[], pooled: Comparison | undefined, scale: number, digits: number, alpha: number): string[] {
  const all = [...rows, ...(pooled ? [pooled] : [])];
  const shown = significant(all, alpha);
  const head = `${shown.length} of ${all.length} paired comparisons differ significantly (α = ${alpha}, Holm-adjusted within each family of figures the baseline gate adjusts together).`;
  if (shown.length === 0) return [head];
  return [
    head,
    '',
    ...table(
      ['Figure', 'Paired', 'Baseline', 'This run', 'Δ [95% CI]', 'Test', 'p (Holm)', 'right → wrong', 'wrong → right'],
      shown.map((c) => [
        markdownCell(c.label),
        String(c.n),
        fixed(c.baseline, digits, scale),
        fixed(c.current, digits, scale),
        `${signed(c.diff, digits, scale)} [${fixed(c.low, digits - 1, scale)}, ${fixed(c.high, digits - 1, scale)}]`,
        c.test,
        fixed(c.pAdjusted ?? c.p, 4),
        c.discordant ? String(c.discordant.worse) : DASH,
        c.discordant ? String(c.discordant.better) : DASH,
      ]),
      new Set([1, 2, 3, 4, 6, 7, 8]),
    ),
  ];
}
