// Token F1 as eval.py's f1 computes it, over words instead of whitespace tokens: ICU word segments (Intl.Segmenter,
// word granularity), word-like ones only. Not an official metric: it gives partial credit in scripts written without
// spaces (Chinese, Japanese, Thai, Khmer), where eval.py's f1 sees one token per answer.
import { requireTargets } from '../../../metrics/requireTargets.ts';
import { tokenF1Single } from '../../../metrics/tokenF1.ts';

// Latin-script letters, ASCII digits and spaces only: Unicode word boundaries (UAX 29) never break between letters and
// digits (WB5, WB8–WB10) and always around a space (WB3d joins only spaces), so the words are the space-separated
// pieces, found without ICU (every Latin-script code point is a word letter to ICU; the tests check it against Intl).
const LATIN_WORDS = /^[\p{Script=Latin}0-9 ]*$/u;

/** The word-like segments of a (normalised) text, in order; punctuation, symbols and spaces are dropped. */
export function wordTokens(text: string, segmenter: Intl.Segmenter): string[] {
  if (LATIN_WORDS.test(text)) return text.split(' ').filter((w) => w !== '');
  const words: string[] = [];
  for (const s of segmenter.segment(text)) if (s.isWordLike) words.push(s.segment);
  return words;
}

/** Max over targets of token F1 over word segments (on normalised strings, like eval.py's f1); 0 without a common word. */
export function f1Words(pred: string, targets: readonly string[], segmenter: Intl.Segmenter): number {
  requireTargets(targets, 'f1Words');
  const predWords = wordTokens(pred, segmenter);
  let best = -Infinity;
  for (const t of targets) {
    const f = tokenF1Single(predWords, wordTokens(t, segmenter));
    if (f > best) best = f;
  }
  return best;
}
