// Token F1 as eval.py's f1 computes it, over words instead of whitespace tokens: ICU word segments (Intl.Segmenter,
// word granularity), word-like ones only. Not an official metric: it gives partial credit in scripts written without
// spaces (Chinese, Japanese, Thai, Khmer), where eval.py's f1 sees one token per answer.
import { requireTargets } from '../../../metrics/requireTargets.ts';
import { tokenF1Single } from '../../../metrics/tokenF1.ts';

// Latin-script code points, the letters and digits of the alphabets written with spaces and segmented by ICU without a
// dictionary (Cyrillic, Greek, Armenian, Georgian, Hebrew, Arabic, Devanagari, Bengali), ASCII digits, and marks and
// joiners after any of them: Unicode word boundaries (UAX 29) never break between letters and digits (WB5, WB8–WB10),
// nor before a mark or joiner (WB4), so a piece of them between spaces is one word, found without ICU (the tests check
// every such code point against ICU).
const SPACED_SCRIPTS = '\\p{Script=Cyrillic}\\p{Script=Greek}\\p{Script=Armenian}\\p{Script=Georgian}\\p{Script=Hebrew}\\p{Script=Arabic}\\p{Script=Devanagari}\\p{Script=Bengali}';
const WORD_CHARACTER = new RegExp(`^[\\p{Script=Latin}[[\\p{L}\\p{Nd}]&&[${SPACED_SCRIPTS}]]0-9]$`, 'v');
const MARK_CHARACTER = new RegExp(`^[[\\p{M}\\u200c\\u200d]&&[\\p{Script=Inherited}\\p{Script=Latin}${SPACED_SCRIPTS}]]$`, 'v');
// A code point Unicode's word rules attach to the character before it, a space too (WB4: Word_Break Extend, Format,
// ZWJ; \p{Cf} takes in every Format character and the joiners).
const ATTACHING = /^[\p{Grapheme_Extend}\p{Mc}\p{Emoji_Modifier}\p{Cf}]$/u;

// A UTF-16 unit's kind: its class (the low bits) and whether it attaches to a space before it, by the expressions
// above, kept in a byte per unit as units come (reading the byte is far cheaper than matching the Unicode classes).
const OTHER = 0;
const WORD = 1;
const MARK = 2;
const HANGUL = 3; // a Hangul syllable: ICU joins them to each other only (5년 is 5 · 년)
const CLASS = 3;
const ATTACHES = 4;
const UNCLASSIFIED = 0xff;
const unitKinds = new Uint8Array(0x10000).fill(UNCLASSIFIED);

function classifyUnit(unit: number): number {
  // A surrogate alone is no character: OTHER, so a piece holding one goes to ICU.
  if (unit >= 0xd800 && unit <= 0xdfff) return OTHER;
  const char = String.fromCharCode(unit);
  const kind = WORD_CHARACTER.test(char) ? WORD : MARK_CHARACTER.test(char) ? MARK : unit >= 0xac00 && unit <= 0xd7a3 ? HANGUL : OTHER;
  return ATTACHING.test(char) ? kind | ATTACHES : kind;
}

/** Pieces ICU segmented, per segmenter, cleared when full: an answer's pieces come back in its targets and later items. */
const pieceWords = new WeakMap<Intl.Segmenter, Map<string, readonly string[]>>();
const CACHED_PIECES = 4096;

/**
 * The word-like segments of a (normalised) text, in order; punctuation, symbols and spaces are dropped. The array may
 * be shared with later calls: read it, do not change it.
 */
export function wordTokens(text: string, segmenter: Intl.Segmenter): readonly string[] {
  // A space is a word boundary on both sides (UAX 29's WB3d joins it only to spaces, and ICU's dictionaries work
  // within runs of letters), so the words of a text are its space-separated pieces' words, one after the other; unless
  // a piece begins with a character that attaches to the space before it (WB4), when the text is segmented whole.
  const words: string[] = [];
  let start = 0;
  let spaced = true;
  let hangul = true;
  for (let i = 0; i <= text.length; i++) {
    const unit = i < text.length ? text.charCodeAt(i) : 0x20;
    if (unit !== 0x20) {
      let kind = unitKinds[unit]!;
      if (kind === UNCLASSIFIED) unitKinds[unit] = kind = classifyUnit(unit);
      const unitClass = kind & CLASS;
      if (i === start) {
        if (start > 0 && ((kind & ATTACHES) !== 0 || (unit >= 0xd800 && unit <= 0xdbff && ATTACHING.test(String.fromCodePoint(text.codePointAt(i)!))))) {
          return icuWordTokens(text, segmenter);
        }
        spaced = unitClass === WORD;
        hangul = unitClass === HANGUL;
      } else {
        spaced &&= unitClass === WORD || unitClass === MARK;
        hangul &&= unitClass === HANGUL;
      }
      continue;
    }
    if (i > start) {
      const whole = start === 0 && i === text.length;
      const piece = whole ? text : text.slice(start, i);
      if (spaced || hangul) {
        words.push(piece);
      } else {
        const found = cachedIcuWordTokens(piece, segmenter);
        if (whole) return found;
        for (let w = 0; w < found.length; w++) words.push(found[w]!);
      }
    }
    start = i + 1;
  }
  return words;
}

/** ICU's words of a piece without spaces, from the segmenter's cache when it was segmented before. */
function cachedIcuWordTokens(piece: string, segmenter: Intl.Segmenter): readonly string[] {
  let cache = pieceWords.get(segmenter);
  if (cache === undefined) pieceWords.set(segmenter, (cache = new Map()));
  let words = cache.get(piece);
  if (words === undefined) {
    words = icuWordTokens(piece, segmenter);
    if (cache.size >= CACHED_PIECES) cache.clear();
    cache.set(piece, words);
  }
  return words;
}

/** ICU's word-like segments of the text. */
function icuWordTokens(text: string, segmenter: Intl.Segmenter): string[] {
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
  // A target equal to the prediction has the same words: F1 exactly 1, the most any target can give.
  for (let t = 0; t < targets.length; t++) if (targets[t] === pred) return 1;
  let best = -Infinity;
  for (let t = 0; t < targets.length; t++) {
    const target = targets[t]!;
    let f: number;
    // A word both have is a substring of both texts: when no prediction word is one of the target's, F1 is 0.
    if (!containsAny(target, predWords)) f = 0;
    else f = tokenF1Single(predWords, wordTokens(target, segmenter));
    if (f > best) best = f;
  }
  return best;
}

function sharesCharacter(text: string, targets: readonly string[]): boolean {
  for (let t = 0; t < targets.length; t++) {
    const target = targets[t]!;
    // Short texts unit by unit (no one-unit string made per unit of a non-Latin text); long ones by includes().
    if (text.length * target.length > 4096) {
      for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) !== 0x20 && target.includes(text[i]!)) return true;
      continue;
    }
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      if (unit === 0x20) continue;
      for (let j = 0; j < target.length; j++) if (target.charCodeAt(j) === unit) return true;
    }
  }
  return false;
}

function containsAny(text: string, words: readonly string[]): boolean {
  for (let w = 0; w < words.length; w++) if (text.includes(words[w]!)) return true;
  return false;
}
