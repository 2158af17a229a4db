// NOT the official normalisation: a language-aware variant (docs/metrics.md#multiloko-quirks) that removes English articles only from
// English text, so `a` (Spanish/Portuguese/Italian preposition) and friends survive in other languages.
import { blankEnglishArticles, removeMultilokoPunctuation } from '../../../metrics/normalizeAnswer.ts';
import { pythonLower } from '../../../core/python/pythonLower.ts';
import { pythonSplit } from '../../../core/python/pythonWhitespace.ts';

/** The language a subset key's text is written in: `x_translated_{human|machine}_y` holds `y`; a folder name itself. */
export function contentLanguage(languageKey: string): string {
  for (const marker of ['_translated_human_', '_translated_machine_']) {
    const at = languageKey.lastIndexOf(marker);
    if (at >= 0) return languageKey.slice(at + marker.length);
  }
  return languageKey;
}

/** Variant normaliser: as normalizeAnswer, but article removal only when the key's content language is English. */
export function normalizeAnswerForLanguage(text: string, languageKey: string): string {
  const cleaned = removeMultilokoPunctuation(pythonLower(text));
  const withoutArticles = contentLanguage(languageKey) === 'english' ? blankEnglishArticles(cleaned) : cleaned;
  return pythonSplit(withoutArticles).join(' ');
}
