// Seeded random multilingual strings for the differential tests: every script of the twelve, combining marks, the
// punctuation set and its near misses, Python-only whitespace, astral and post-Unicode-14 characters, article words.

import { seededRandom as seeded } from '../support/seededRandom.ts';

export { seeded };

export const PIECES: readonly string[] = [
  // article words and their neighbours
  'a', 'an', 'the', 'A', 'AN', 'THE', 'The', 'ant', 'then', 'n', 'e', 'h', 't', '_', '0', '7',
  // Latin with diacritics, Turkish, German, Vietnamese; case-mapping specials
  'é', 'ñ', 'São', 'Tomé', 'ß', '\u1e9e', 'İ', 'ı', 'I', 'ǅ', '\u212a', 'Đ', 'ộ', 'Ẵ', 'Hà', 'Nội',
  // combining marks (Mn/Mc) of several scripts
  '\u0301', '\u0323', '\u0302', '\u093f', '\u0e38', '\u05b8', '\u17d2', '\u0300',
  // Cyrillic, Greek (sigma contexts), Arabic and its digits, Hebrew, Devanagari, Bengali, Thai, Khmer
  'Москва', 'Ё', 'ΟΔΟΣ', 'Σ', 'σ', 'ς', 'Ναι', '\u037e', 'مصر', '١٩٦٩', 'ال', 'שלום', '\u05be', 'दिल्ली', '१९', 'ঢাকা',
  '১৯', 'กรุงเทพ', '\u1797\u17d2\u1793\u17c6', '\u17d4',
  // CJK, kana, Hangul and jamo
  '東京', '北京市', 'ひらがな', 'カタカナ', '서울', '\u1112\u1161\u11ab',
  // the deletion set and characters just outside it
  '!', '"', '#', "'", '(', ')', ',', '-', '.', '/', ':', ';', '?', '@', '[', '\\', ']', '^', '`', '{', '|', '}', '~',
  '¡', '¿', '«', '»', '–', '—', '‘', '’', '‛', '“', '”', '„', '‟', '…', '‧', '、', '。', '〃', '「', '」', '『', '』',
  '【', '】', '〜', '〰', '〾', '〿', '﹏', '！', '（', '）', '，', '－', '．', '／', '：', '［', '｀', '｛', '～', '｟', '､',
  '·', '•', '،', '؟', '।', '・', '°', '‐', '‒', '⁇', '〈', '〉', '\u2028',
  // whitespace: Python-only, shared, and look-alikes that are not whitespace
  ' ', ' ', ' ', '  ', '\u00a0', '\u3000', '\t', '\n', '\x1c', '\x85', '\u2009', '\u200b', '\ufeff', '\u180e',
  // astral: emoji, CJK extension B, mathematical letters (L) and digits (Nd)
  '😀', '👍🏽', '𠮷', '𝒜', '𝟙',
  // letters assigned after Unicode 14.0 (Python 3.11 sees unassigned code points)
  '\ua7cb', '\ua7dc', '\u{1e4d0}', '\u{10d50}', '\u{16ea0}', '\u1c89',
];

/** A random string of `count` pieces. */
export function randomText(random: () => number, count: number, pieces: readonly string[] = PIECES): string {
  let out = '';
  for (let i = 0; i < count; i++) out += pieces[Math.floor(random() * pieces.length)]!;
  return out;
}
