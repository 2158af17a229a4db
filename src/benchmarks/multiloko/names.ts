// Stable names: one describe per subset, one test per item, one gate test per subset — so `-t` filters and
// baselines line up from run to run.
import type { MultiLoKoItem } from './data/schema.ts';
import type { MultiLoKoSubset } from './data/multiloko.ts';
import { shorten } from '../../core/shorten.ts';

type SubsetShape = Pick<MultiLoKoSubset, 'folder' | 'sourceLanguage' | 'questionLanguage' | 'translated' | 'translation'>;

/** The subset's language for selection and tables: its non-English side (English only for the English local set). */
export function subsetLanguage(subset: SubsetShape): string {
  if (!subset.translated) return subset.folder;
  return subset.sourceLanguage === 'english' ? subset.questionLanguage : subset.sourceLanguage;
}

/** `italian · local`, `italian → english · human`, `english → italian · machine`. */
export function subsetName(subset: SubsetShape): string {
  if (!subset.translated) return `${subset.folder} · local`;
  return `${subset.sourceLanguage} → ${subset.questionLanguage} · ${subset.translation ?? 'translated'}`;
}

export const GATE_TEST_NAME = 'gate';
export const QUESTION_IN_NAME = 60;

/** `004_tg_norba_24.txt · Quando è stato lanciato il TG Norba 24?` (question cut at 60 code points). */
export function itemTestName(item: Pick<MultiLoKoItem, 'id' | 'question'>): string {
  const question = item.question === undefined ? '' : shorten(item.question, QUESTION_IN_NAME);
  return question === '' ? String(item.id) : `${String(item.id)} · ${question}`;
}

/** The key a replay file answers by: `multiloko/<eval.py language key>/<id>`. */
export function multilokoItemKey(subsetKey: string, id: string | number): string {
  return `multiloko/${subsetKey}/${String(id)}`;
}
