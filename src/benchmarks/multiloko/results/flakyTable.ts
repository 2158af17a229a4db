// The flaky items per language (docs/trials.md#per-item: trials that disagree) as the terminal and the step summary
// show them: a table per language of item, trials right, the majority answer's share and the answers given.
import { answersText, flakyItem, type FlakyItem } from '../../../core/flakyItems.ts';
import { markdownTable } from '../../../core/textTable.ts';

/**
 * Rows a language's table shows, past which a line counts the rest (multiloko.json keeps every trial): in the terminal
 * a dev subset's 250 items; in the step summary fewer, as GitHub cuts a step summary at 1 MiB and 31 languages share it.
 */
export const FLAKY_TERMINAL_ROWS = 250;
export const FLAKY_SUMMARY_ROWS = 50;

/** One subset's items with their trials' EM and normalised answer (a record without trials has none). */
export interface FlakySubset {
  name: string;
  language: string;
  items: ReadonlyArray<{ id: string; trials?: ReadonlyArray<{ em: number; prediction: string }> }>;
}

export interface LanguageFlakes {
  language: string;
  /** Items of the language's subsets that have trials. */
  items: number;
  rows: Array<FlakyItem & { subset: string }>;
}

/** Each language with trials (in the order first met) and its flaky items, subset by subset in item order. */
export function flakyByLanguage(subsets: readonly FlakySubset[]): LanguageFlakes[] {
  const out = new Map<string, LanguageFlakes>();
  for (const s of subsets) {
    const withTrials = s.items.filter((i) => i.trials !== undefined);
    if (withTrials.length === 0) continue;
    const entry = out.get(s.language) ?? { language: s.language, items: 0, rows: [] };
    entry.items += withTrials.length;
    for (const item of withTrials) {
      const flaky = flakyItem(item.id, item.trials!.map((t) => ({ answer: t.prediction, correct: t.em === 1 })));
      if (flaky) entry.rows.push({ ...flaky, subset: s.name });
    }
    out.set(s.language, entry);
  }
  return [...out.values()];
}

/** A row's cells: subset, item, the answers given, `right/trials`, consistency (two decimals). */
export function flakyCells(row: FlakyItem & { subset: string }): string[] {
  return [row.subset, row.id, answersText(row.answers), `${row.right}/${row.trials}`, row.consistency.toFixed(2)];
}

export const FLAKY_HEADER = ['Subset', 'Item', 'Answers given', 'Right', 'Consistency'];

/** The terminal's tables (nothing without trials); a language without flaky items gets one line saying so. */
export function flakyTableLines(subsets: readonly FlakySubset[]): string[] {
  const languages = flakyByLanguage(subsets);
  if (languages.length === 0) return [];
  const lines = ['MultiLoKo flaky items per language · trials that disagree: the answers given (normalised), right/trials, consistency (the majority answer\'s share)'];
  for (const { language, items, rows } of languages) {
    lines.push(`  ${language} · ${rows.length} flaky of ${items} item${items === 1 ? '' : 's'}`);
    if (rows.length === 0) continue;
    lines.push(...markdownTable(FLAKY_HEADER, rows.slice(0, FLAKY_TERMINAL_ROWS).map(flakyCells), 3).map((l) => `    ${l}`));
    if (rows.length > FLAKY_TERMINAL_ROWS) lines.push(`    … and ${rows.length - FLAKY_TERMINAL_ROWS} more (every trial is in multiloko.json's item records; report.html's flaky filter lists them all)`);
  }
  lines.push('');
  return lines;
}
