// Stable names: one describe per subset, one test per item, one gate test per subset — so `-t` filters and
// baselines line up from run to run.
import type { MultiLoKoQuestion } from '../data/schema.ts';
import type { MultiLoKoSubset } from '../data/multiloko.ts';
import { subsetLanguage as keyLanguage, subsetTitle, type SubsetKey } from '../data/subsetKey.ts';
import { shorten } from '../../../core/shorten.ts';

type SubsetShape = Pick<MultiLoKoSubset, 'key' | 'folder' | 'sourceLanguage' | 'questionLanguage' | 'translated' | 'translation'>;

function keyOf(subset: SubsetShape): SubsetKey {
  if (!subset.translated || subset.translation === undefined) return { key: subset.key, kind: 'local', language: subset.folder };
  return { key: subset.key, kind: 'translated', sourceLanguage: subset.sourceLanguage, questionLanguage: subset.questionLanguage, translation: subset.translation };
}

/** The subset's language for selection and tables: its non-English side (English only for the English local set). */
export function subsetLanguage(subset: SubsetShape): string {
  return keyLanguage(keyOf(subset));
}

/** `italian · local`, `italian → english · human`, `english → italian · machine`. */
export function subsetName(subset: SubsetShape): string {
  return subsetTitle(keyOf(subset));
}

export const GATE_TEST_NAME = 'gate';
export const QUESTION_IN_NAME = 60;

/** `004_tg_norba_24.txt · Quando è stato lanciato il TG Norba 24?` (question cut at 60 code points). */
export function itemTestName(item: Pick<MultiLoKoQuestion, 'id' | 'question'>): string {
  const question = item.question === undefined ? '' : shorten(item.question, QUESTION_IN_NAME);
  return question === '' ? String(item.id) : `${String(item.id)} · ${question}`;
}

/** The key a replay file answers by: `multiloko/<eval.py language key>/<id>`. */
export function multilokoItemKey(subsetKey: string, id: string | number): string {
  return `multiloko/${subsetKey}/${String(id)}`;
}
