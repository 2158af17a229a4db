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

// One alternative per script, then any other letter: the group that matched names the letter's script.
const LETTER = new RegExp([...LETTER_SCRIPTS.map((s) => `(\\p{Script=${s}})`), '(\\p{L})'].join('|'), 'u');

const IS_LETTER = /^\p{L}$/u;

/** Not a letter (LETTER matches one code point or none, so a text's letters are its code points classified one by one). */
const NOT_LETTER = -1;
/** Code point → index in LETTER_SCRIPTS (its length: another script's letter), NOT_LETTER; filled as code points come. */
const scriptIndexes = new Map<number, number>();

function scriptIndex(codePoint: number): number {
  // ASCII: its letters are Latin, the rest no letter (the common case, without a lookup).
  if (codePoint < 0x80) return (codePoint | 0x20) >= 0x61 && (codePoint | 0x20) <= 0x7a ? 0 : NOT_LETTER;
  let index = scriptIndexes.get(codePoint);
  if (index === undefined) {
    const char = String.fromCodePoint(codePoint);
    // Only letters count: \p{Script=Devanagari} alone would take in its digits and vowel signs too.
    const match = IS_LETTER.test(char) ? LETTER.exec(char) : null;
    index = NOT_LETTER;
    if (match) for (let g = 1; g < match.length; g++) if (match[g] !== undefined) { index = g - 1; break; }
    scriptIndexes.set(codePoint, index);
  }
  return index;
}

/** The Script with the most letters in `text` (ties: the earlier in LETTER_SCRIPTS, `other` last); null without letters. */
export function dominantScript(text: string): LetterScript | null {
  const counts = new Array<number>(LETTER_SCRIPTS.length + 1).fill(0);
  for (const char of text) {
    const index = scriptIndex(char.codePointAt(0)!);
    if (index !== NOT_LETTER) counts[index]!++;
  }
  let best = -1;
  for (let i = 0; i < counts.length; i++) if (counts[i]! > 0 && (best < 0 || counts[i]! > counts[best]!)) best = i;
  if (best < 0) return null;
  return best < LETTER_SCRIPTS.length ? LETTER_SCRIPTS[best]! : 'other';
}
