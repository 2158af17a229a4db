// eval.py's normalize_answer (docs/metrics.md#normalisation): lower, delete punctuation, blank English articles, fix whitespace.
import { MULTILOKO_PUNCTUATION_CLASS } from './multilokoPunctuation.ts';
import { pythonLower } from '../core/python/pythonLower.ts';
import { pythonSplitJoin } from '../core/python/pythonWhitespace.ts';
import { PY_WORD_CLASS_V } from '../core/python/pythonWordClass.ts';

const PUNCTUATION = new RegExp(`[${MULTILOKO_PUNCTUATION_CLASS}]`, 'gu');
// Python's `\b(a|an|the)\b` with Unicode word characters; plain JS `\b` is ASCII-only.
const ARTICLES = new RegExp(`(?<!${PY_WORD_CLASS_V})(?:a|an|the)(?!${PY_WORD_CLASS_V})`, 'gv');

/** Deletes the 111 punctuation code points. */
export function removeMultilokoPunctuation(text: string): string {
  return text.replace(PUNCTUATION, '');
}

/** Replaces each standalone `a`, `an`, `the` by a space (any language, as the reference does). */
export function blankEnglishArticles(text: string): string {
  // Every article holds an `a` or is `the`: text with neither (most non-Latin text) skips the look-behind search.
  if (!text.includes('a') && !text.includes('the')) return text;
  return text.replace(ARTICLES, ' ');
}

/** The official normalisation, quirks included: applied to predictions and targets before every metric. */
export function normalizeAnswer(text: string): string {
  if (typeof text !== 'string') throw new TypeError(`normalizeAnswer: expected a string, got ${typeof text}`);
  return pythonSplitJoin(blankEnglishArticles(removeMultilokoPunctuation(pythonLower(text))));
}
