// Local vs English, item by item: per language, the 2×2 table of questions right or wrong in the language and in
// English (EM, paired by id), with McNemar's exact p — for the language's own questions (`<lang>` against
// `<lang>_translated_<kind>_english`, the pairs behind MTE) and for the English questions translated into the language
// (`english` against `english_translated_<kind>_<lang>`).
import { agreementTable, type AgreementItem } from '../../../core/statistics/agreementTable.ts';
import type { LokalSubsetAggregate } from '../run/records.ts';
import type { RolledSubset } from '../run/rolledSubset.ts';

export interface LocalVsEnglishPair {
  /** The subset asked in English and the one asked in the language. */
  english: string;
  local: string;
  paired: number;
  both_right: number;
  english_only: number;
  local_only: number;
  both_wrong: number;
  /** McNemar's exact two-sided p of english_only against local_only. */
  mcnemar_p: number;
  /** The questions right on one side only (ids; the other cells' ids are each subset's records). */
  english_only_ids: string[];
  local_only_ids: string[];
  /** Items of either subset with no counterpart in the other, left out. */
  unpaired: { english: number; local: number };
}

type ByKind = Partial<Record<'human' | 'machine', LocalVsEnglishPair>>;

/** Per language: its own questions (`to_english`) and the English questions (`from_english`), per kind of translation. */
export type LocalVsEnglish = Record<string, { to_english?: ByKind; from_english?: ByKind }>;

const items = (s: RolledSubset): AgreementItem[] => s.records.map((r) => ({ id: r.id, em: r.scores.em }));

function pair(english: RolledSubset, local: RolledSubset): LocalVsEnglishPair {
  const t = agreementTable(items(english), items(local));
  return {
    english: english.aggregate.key,
    local: local.aggregate.key,
    paired: t.paired,
    both_right: t.bothRight.length,
    english_only: t.englishOnly.length,
    local_only: t.localOnly.length,
    both_wrong: t.bothWrong.length,
    mcnemar_p: t.p,
    english_only_ids: t.englishOnly,
    local_only_ids: t.localOnly,
    unpaired: { english: t.unpairedEnglish.length, local: t.unpairedLocal.length },
  };
}

/** The block for every language with a pair in the run (subsets with scored records); languages in run order. */
export function localVsEnglish(subsets: readonly RolledSubset[]): LocalVsEnglish {
  const scored = subsets.filter((s) => s.records.length > 0);
  const localOf = new Map(scored.filter((s) => !s.aggregate.translated).map((s) => [s.aggregate.language, s]));
  const english = localOf.get('english');
  const out: LocalVsEnglish = {};
  const put = (language: string, direction: 'to_english' | 'from_english', a: LokalSubsetAggregate, value: LocalVsEnglishPair) => {
    const entry = (out[language] ??= {});
    (entry[direction] ??= {})[a.translation ?? 'human'] = value;
  };
  for (const s of scored) {
    const a = s.aggregate;
    if (!a.translated || a.translation === undefined) continue;
    if (a.questionLanguage === 'english' && a.sourceLanguage !== 'english') {
      const local = localOf.get(a.sourceLanguage);
      if (local) put(a.sourceLanguage, 'to_english', a, pair(s, local));
    } else if (a.sourceLanguage === 'english' && a.questionLanguage !== 'english' && english) {
      put(a.questionLanguage, 'from_english', a, pair(english, s));
    }
  }
  return out;
}
