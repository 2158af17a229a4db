// The terminal's local-vs-English table: one row per language from summary.local_vs_english (its own questions against
// their English translation, human before machine, else the English questions translated into it; every pair is in
// the results file), with the counts of its 2×2 table and McNemar's exact p.
import { alignedColumns } from '../../../core/textTable.ts';
import type { LocalVsEnglish, LocalVsEnglishPair } from './localVsEnglish.ts';

export interface LocalVsEnglishRow {
  language: string;
  /** `own`: the language's questions against their English translation; `english`: English questions against theirs. */
  questions: 'own' | 'english';
  kind: 'human' | 'machine';
  pair: LocalVsEnglishPair;
}

/** McNemar's p as every table prints it (terminal, step summary, report): 4 decimals, below 0.0001 in exponent form (one digit). */
export function formatMcNemarP(p: number): string {
  return p < 0.0001 ? p.toExponential(1) : p.toFixed(4);
}

const COUNTS = ['paired', 'both_right', 'english_only', 'local_only', 'both_wrong', 'mcnemar_p'] as const;

/** A pair with every figure the table shows (the step summary reads the block from a file, perhaps of another version). */
function complete(pair: LocalVsEnglishPair | undefined): boolean {
  return typeof pair === 'object' && pair !== null && COUNTS.every((k) => typeof pair[k] === 'number' && Number.isFinite(pair[k]));
}

/** Each language's shown pair, in the block's order; languages without a pair have no row. */
export function localVsEnglishRows(block: LocalVsEnglish | undefined): LocalVsEnglishRow[] {
  const rows: LocalVsEnglishRow[] = [];
  if (typeof block !== 'object' || block === null) return rows;
  for (const [language, entry] of Object.entries(block)) {
    const choices = [
      ['own', 'human', entry?.to_english?.human],
      ['own', 'machine', entry?.to_english?.machine],
      ['english', 'human', entry?.from_english?.human],
      ['english', 'machine', entry?.from_english?.machine],
    ] as const;
    const shown = choices.find(([, , pair]) => complete(pair));
    if (shown) rows.push({ language, questions: shown[0], kind: shown[1], pair: shown[2]! });
  }
  return rows;
}

/** The row's questions as a short label: `own, human` or `English, machine`. */
export function questionsLabel(row: LocalVsEnglishRow): string {
  return `${row.questions === 'own' ? 'own' : 'English'}, ${row.kind}`;
}

/** `MultiLoKo local vs English` with a line saying what the columns mean, and its rows; nothing without a pair. */
export function localVsEnglishTableLines(block: LocalVsEnglish | undefined): string[] {
  const rows = localVsEnglishRows(block);
  if (rows.length === 0) return [];
  const table = alignedColumns(
    [
      ['language', 'questions', 'paired', 'both', 'English only', 'local only', 'neither', 'McNemar p'],
      ...rows.map((r) => [r.language, questionsLabel(r), String(r.pair.paired), String(r.pair.both_right), String(r.pair.english_only), String(r.pair.local_only), String(r.pair.both_wrong), formatMcNemarP(r.pair.mcnemar_p)]),
    ],
    (c) => c > 1,
  );
  return [
    'MultiLoKo local vs English (questions paired by id, EM; all pairs: summary.local_vs_english)',
    '  right in both / in English only / in the language only / in neither; English only ≫ local only: knows it but cannot say it',
    ...table.map((l) => `  ${l}`),
    '',
  ];
}
