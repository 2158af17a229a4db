// The writing system most of a text's letters belong to, by the Unicode Script property (\p{Script=…}).

/**
 * Unicode Script values (the `Script` property as is, not Script_Extensions) covering the 31 MultiLoKo languages and
 * their neighbours; letters of any other script, and letters whose Script is Common or Inherited (e.g. Japanese `ー`),
 * count as `other`. Japanese is not merged: kana and kanji are Hiragana, Katakana and Han, and the most letters win.
 */
const LETTER_SCRIPTS = [
  'Latin', 'Cyrillic', 'Greek', 'Arabic', 'Hebrew', 'Devanagari', 'Bengali', 'Tamil', 'Telugu', 'Gujarati', 'Kannada',
  'Malayalam', 'Gurmukhi', 'Oriya', 'Sinhala', 'Thai', 'Lao', 'Khmer', 'Myanmar', 'Han', 'Hiragana', 'Katakana',
  'Hangul', 'Georgian', 'Armenian', 'Ethiopic', 'Tibetan', 'Mongolian', 'Thaana', 'Syriac',
] as const;
type LetterScript = (typeof LETTER_SCRIPTS)[number] | 'other';

// One alternative per script, then any other letter: the group that matched names a letter's script.
const LETTER = new RegExp([...LETTER_SCRIPTS.map((s) => `(\\p{Script=${s}})`), '(\\p{L})'].join('|'), 'u');

/** Not a letter (LETTER matches one code point or none, so a text's letters are its code points classified one by one). */
const NOT_LETTER = -1;
/** Not classified yet (a BMP code point's table entry before its first use). */
const UNKNOWN = -2;
// Code point → index in LETTER_SCRIPTS (its length: another script's letter) or NOT_LETTER, filled as code points come:
// a byte per BMP code point (64 KiB, read far faster than a Map), a Map for the rest.
const bmpIndexes = new Int8Array(0x10000).fill(UNKNOWN);
const astralIndexes = new Map<number, number>();
/** Letters per script of the text being read (dominantScript is synchronous: one text at a time). */
const counts = new Int32Array(LETTER_SCRIPTS.length + 1);

const IS_LETTER = /^\p{L}$/u;

function classify(codePoint: number): number {
  const char = String.fromCodePoint(codePoint);
  // Only letters count: \p{Script=Devanagari} alone would take in its digits and vowel signs too.
  if (!IS_LETTER.test(char)) return NOT_LETTER;
  const match = LETTER.exec(char);
  if (match) for (let g = 1; g < match.length; g++) if (match[g] !== undefined) return g - 1;
  return NOT_LETTER;
}

function scriptIndex(codePoint: number): number {
  // ASCII: its letters are Latin, the rest no letter (the common case, without a lookup).
  if (codePoint < 0x80) return (codePoint | 0x20) >= 0x61 && (codePoint | 0x20) <= 0x7a ? 0 : NOT_LETTER;
  if (codePoint < 0x10000) {
    let index = bmpIndexes[codePoint]!;
    if (index === UNKNOWN) bmpIndexes[codePoint] = index = classify(codePoint);
    return index;
  }
  let index = astralIndexes.get(codePoint);
  if (index === undefined) astralIndexes.set(codePoint, (index = classify(codePoint)));
  return index;
}

/** The Script with the most letters in `text` (ties: the earlier in LETTER_SCRIPTS, `other` last); null without letters. */
export function dominantScript(text: string): LetterScript | null {
  // ASCII text (most Latin answers): Latin when it has a letter, else no script, without counting.
  let ascii = 0;
  let asciiLetter = false;
  for (; ascii < text.length; ascii++) {
    const unit = text.charCodeAt(ascii);
    if (unit >= 0x80) break;
    if ((unit | 0x20) >= 0x61 && (unit | 0x20) <= 0x7a) asciiLetter = true;
  }
  if (ascii === text.length) return asciiLetter ? 'Latin' : null;
  counts.fill(0);
  for (let i = 0; i < text.length; i++) {
    let codePoint = text.charCodeAt(i);
    // A surrogate pair is one code point (a lone surrogate is no letter, as for-of over the text reads it).
    if (codePoint >= 0xd800 && codePoint <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        codePoint = 0x10000 + ((codePoint - 0xd800) << 10) + (low - 0xdc00);
        i++;
      }
    }
    const index = scriptIndex(codePoint);
    if (index !== NOT_LETTER) counts[index]!++;
  }
  let best = -1;
  for (let i = 0; i < counts.length; i++) if (counts[i]! > 0 && (best < 0 || counts[i]! > counts[best]!)) best = i;
  if (best < 0) return null;
  return best < LETTER_SCRIPTS.length ? LETTER_SCRIPTS[best]! : 'other';
}
