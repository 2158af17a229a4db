// The report's local-vs-English tables, from the items of the file: per language, each pair of subsets holding the same
// questions asked in English and in the language, compared item by item (the results' summary.local_vs_english).
import { agreementTable, type AgreementTable } from '../../../../core/statistics/agreementTable.ts';
import type { MultiLoKoSubset } from './reportView.ts';

export interface VsEnglishPair {
  /** `to-english`: the language's own questions; `from-english`: English questions translated into the language. */
  direction: 'to-english' | 'from-english';
  kind: 'human' | 'machine';
  english: MultiLoKoSubset;
  local: MultiLoKoSubset;
  table: AgreementTable;
}

export interface VsEnglishLanguage {
  language: string;
  pairs: VsEnglishPair[];
}

/** Every language with such a pair, in file order of the translated subsets; its own questions' pairs first. */
export function localVsEnglishView(subsets: readonly MultiLoKoSubset[]): VsEnglishLanguage[] {
  const withItems = subsets.filter((s) => s.items.length > 0);
  const localOf = new Map(withItems.filter((s) => !s.translated).map((s) => [s.language, s]));
  const english = localOf.get('english');
  const byLanguage = new Map<string, VsEnglishPair[]>();
  for (const s of withItems) {
    if (!s.translated || !s.translation || !s.direction) continue;
    const englishSide = s.direction === 'to-english' ? s : english;
    const localSide = s.direction === 'to-english' ? localOf.get(s.language) : s;
    if (!englishSide || !localSide) continue;
    const pairs = byLanguage.get(s.language) ?? [];
    byLanguage.set(s.language, pairs);
    pairs.push({ direction: s.direction, kind: s.translation, english: englishSide, local: localSide, table: agreementTable(englishSide.items, localSide.items) });
  }
  const order = { 'to-english': 0, 'from-english': 1 };
  return [...byLanguage].map(([language, pairs]) => ({ language, pairs: pairs.sort((a, b) => order[a.direction] - order[b.direction]) }));
}
