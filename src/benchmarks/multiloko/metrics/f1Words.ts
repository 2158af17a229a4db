// Token F1 as eval.py's f1 computes it, over words instead of whitespace tokens: ICU word segments (Intl.Segmenter,
// word granularity), word-like ones only. Not an official metric: it gives partial credit in scripts written without
// spaces (Chinese, Japanese, Thai, Khmer), where eval.py's f1 sees one token per answer.
import { requireTargets } from '../../../metrics/requireTargets.ts';
import { tokenF1Single } from '../../../metrics/tokenF1.ts';

// Latin-script code points, the letters of the alphabets written with spaces (Cyrillic, Greek, Armenian, Georgian,
// Hebrew, Arabic), ASCII digits and spaces only: Unicode word boundaries (UAX 29) never break between letters and digits
// (WB5, WB8–WB10) and always around a space (WB3d joins only spaces), so the words are the space-separated pieces,
// found without ICU (each such code point is a word letter to ICU next to letters and digits; the tests check it).
const SPACED_WORDS = new RegExp('^[\\p{Script=Latin}[\\p{L}&&[\\p{Script=Cyrillic}\\p{Script=Greek}\\p{Script=Armenian}\\p{Script=Georgian}\\p{Script=Hebrew}\\p{Script=Arabic}]]0-9 ]*$', 'v');

/** The word-like segments of a (normalised) text, in order; punctuation, symbols and spaces are dropped. */
export function wordTokens(text: string, segmenter: Intl.Segmenter): string[] {
  if (SPACED_WORDS.test(text)) return text.split(' ').filter((w) => w !== '');
  const words: string[] = [];
  // Segment by segment through containing(): the same segments as iterating, without an iterator result per segment
  // (about a third less time for a short answer).
  const segments = segmenter.segment(text);
  for (let at = 0; at < text.length; ) {
    const s = segments.containing(at)!;
    if (s.isWordLike) words.push(s.segment);
    at = s.index + s.segment.length;
  }
  return words;
}

/**
 * Max over targets of token F1 over word segments (on normalised strings, like eval.py's f1); 0 without a common word.
 * A target is segmented only when it can share a word: segmenting (ICU) costs more than the rest of the item's scoring.
 */
export function f1Words(pred: string, targets: readonly string[], segmenter: Intl.Segmenter): number {
  requireTargets(targets, 'f1Words');
  // A word both have is a substring of both texts: a prediction sharing no character but spaces with any target
  // scores 0 against each, and is not segmented (a wrong answer, often in another script).
  if (!sharesCharacter(pred, targets)) return 0;
  const predWords = wordTokens(pred, segmenter);
  // No word in the prediction: 0 against every target (tokenF1Single's first rule).
  if (predWords.length === 0) return 0;
  let best = -Infinity;
  for (let t = 0; t < targets.length; t++) {
    const target = targets[t]!;
    let f: number;
    // The same text has the same words: precision = recall = 1, F1 exactly 1.
    if (target === pred) f = 1;
    // A word both have is a substring of both texts: when no prediction word is one of the target's, F1 is 0.
    else if (!containsAny(target, predWords)) f = 0;
    else f = tokenF1Single(predWords, wordTokens(target, segmenter));
    if (f > best) best = f;
  }
  return best;
}

function sharesCharacter(text: string, targets: readonly string[]): boolean {
  for (let i = 0; i < text.length; i++) {
    const unit = text[i]!;
    if (unit === ' ') continue;
    for (let t = 0; t < targets.length; t++) if (targets[t]!.includes(unit)) return true;
  }
  return false;
}

function containsAny(text: string, words: readonly string[]): boolean {
  for (let w = 0; w < words.length; w++) if (text.includes(words[w]!)) return true;
  return false;
}
