// NOT the official normalisation: a language-aware variant (docs/metrics.md#multiloko-quirks) that removes English articles only from
// English text, so `a` (Spanish/Portuguese/Italian preposition) and friends survive in other languages.
import { blankEnglishArticles, removeMultilokoPunctuation } from '../../../metrics/normalizeAnswer.ts';
import { pythonLower } from '../../../core/python/pythonLower.ts';
import { pythonSplit } from '../../../core/python/pythonWhitespace.ts';
import { contentLanguage } from '../data/subsetKey.ts';

/** Variant normaliser: as normalizeAnswer, but article removal only when the key's content language is English. */
export function normalizeAnswerForLanguage(text: string, languageKey: string): string {
  const cleaned = removeMultilokoPunctuation(pythonLower(text));
  const withoutArticles = contentLanguage(languageKey) === 'english' ? blankEnglishArticles(cleaned) : cleaned;
  return pythonSplit(withoutArticles).join(' ');
}
