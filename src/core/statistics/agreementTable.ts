// Two subsets holding the same questions (a question and its translation), compared item by item: which questions the
// model got right in both, in one only, in neither (EM), and McNemar's exact test of the two one-sided cells.
import { mcnemarExact } from './paired.ts';

/** An item as both sides give it: its id and its EM (1 right, anything else wrong; a missing answer scores 0). */
export interface AgreementItem {
  id: string | number;
  em: number;
}

export interface AgreementTable {
  /** Questions in both subsets (paired by id as the results file keys them: String(id)). */
  paired: number;
  bothRight: string[];
  /** Right in the English subset only, and right in the other language only. */
  englishOnly: string[];
  localOnly: string[];
  bothWrong: string[];
  /** McNemar's exact two-sided p of englishOnly against localOnly (1 when no question differs). */
  p: number;
  /** Ids of each side with no counterpart on the other, left out of the table. */
  unpairedEnglish: string[];
  unpairedLocal: string[];
}

/** The 2×2 table of `english` against `local`, ids in the local subset's order (each id once: its last item). */
export function agreementTable(english: readonly AgreementItem[], local: readonly AgreementItem[]): AgreementTable {
  const englishRight = new Map<string, boolean>();
  for (const item of english) englishRight.set(String(item.id), item.em === 1);
  const localRight = new Map<string, boolean>();
  for (const item of local) localRight.set(String(item.id), item.em === 1);
  const table: AgreementTable = { paired: 0, bothRight: [], englishOnly: [], localOnly: [], bothWrong: [], p: 1, unpairedEnglish: [], unpairedLocal: [] };
  for (const [id, rightLocally] of localRight) {
    const rightInEnglish = englishRight.get(id);
    if (rightInEnglish === undefined) {
      table.unpairedLocal.push(id);
      continue;
    }
    table.paired++;
    if (rightInEnglish) (rightLocally ? table.bothRight : table.englishOnly).push(id);
    else (rightLocally ? table.localOnly : table.bothWrong).push(id);
  }
  for (const id of englishRight.keys()) if (!localRight.has(id)) table.unpairedEnglish.push(id);
  table.p = mcnemarExact(table.englishOnly.length, table.localOnly.length);
  return table;
}
