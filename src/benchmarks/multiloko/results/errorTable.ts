// The terminal's table of error categories: items per category for each local language, the translated subsets summed
// in one row (each subset's counts are in the results file, summary.subsets[].errors).
import { alignedColumns } from '../../../core/textTable.ts';
import { ERROR_CATEGORIES, type ErrorCategory } from '../../../metrics/errorCategory.ts';

export interface SubsetErrors {
  language: string;
  translated: boolean;
  errors: Record<ErrorCategory, number> | null;
}

function sumCounts(rows: ReadonlyArray<Record<ErrorCategory, number>>): Record<ErrorCategory, number> {
  const total = Object.fromEntries(ERROR_CATEGORIES.map((c) => [c, 0])) as Record<ErrorCategory, number>;
  for (const row of rows) for (const c of ERROR_CATEGORIES) total[c] += row[c];
  return total;
}

/** `MultiLoKo · error categories (items)` and its rows; nothing when no subset has counts. */
export function errorTableLines(subsets: readonly SubsetErrors[]): string[] {
  const counted = subsets.filter((s): s is SubsetErrors & { errors: Record<ErrorCategory, number> } => s.errors !== null);
  if (counted.length === 0) return [];
  const row = (label: string, counts: Record<ErrorCategory, number>) => [label, String(ERROR_CATEGORIES.reduce((n, c) => n + counts[c], 0)), ...ERROR_CATEGORIES.map((c) => String(counts[c]))];
  const local = counted.filter((s) => !s.translated);
  const translated = counted.filter((s) => s.translated);
  const rows = local.map((s) => row(s.language, s.errors));
  if (translated.length > 0) rows.push(row(`translated (${translated.length} subset${translated.length === 1 ? '' : 's'})`, sumCounts(translated.map((s) => s.errors))));
  const table = alignedColumns([['language', 'items', ...ERROR_CATEGORIES], ...rows], (c) => c > 0);
  return ['MultiLoKo · error categories (items)', ...table.map((l) => `  ${l}`), ''];
}
