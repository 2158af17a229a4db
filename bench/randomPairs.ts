// Deterministic multilingual (prediction, targets) pairs for the parity test and the benchmarks.

import { seededRandom } from '../test/support/seededRandom.ts';


// Words in the scripts of MultiLoKo's 31 languages, plus the characters the normaliser treats specially.
const WORDS = [
  'the', 'a', 'an', 'The', 'AN', 'Roma', 'città', 'São', 'Paulo', 'ñandú', 'Ærø', 'İstanbul', 'ıi', 'Straße', 'Łódź',
  'Москва', 'улица', 'Ελλάδα', 'ΟΔΟΣ', 'القاهرة', 'مصر', 'ירושלים', 'שלום', 'दिल्ली', 'मराठी', 'বাংলা', 'ঢাকা',
  'กรุงเทพ', 'ภาษาไทย', 'ភ្នំពេញ', 'ខ្មែរ', '東京', '北京市', '香港', 'ひらがな', 'カタカナ', '서울', '한국어', 'Hà', 'Nội',
  'Việt', 'Nam', 'تهران', 'اردو', 'Türkiye', 'Ağrı', 'Kraków', 'Praha', 'Bucureşti', 'Jakarta', 'Kuala', 'Lumpur',
  'Maynila', 'Stockholm', 'Amsterdam', '1969', '3.5', '1,000', '12-13', 'e\u0301', 'a\u0301', '😀', '𝒜', 'x_a_y',
  "l'a", 'the-end', '«Roma»', '「東京」', '(approx.)', 'U.S.A.', '&amp;', '—', '…', '·', '•', '،', '؟', '।', 'Ｔｏｋｙｏ',
];
const SEPARATORS = [' ', ' ', ' ', ' ', '  ', '\u00a0', '\u3000', ', ', '. ', '-', '\u200b', '\t'];

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

function phrase(random: () => number, words: number): string {
  let text = '';
  for (let i = 0; i < words; i++) text += (i ? pick(random, SEPARATORS) : '') + pick(random, WORDS);
  return text;
}

function mutate(random: () => number, text: string): string {
  const chars = Array.from(text);
  const edits = 1 + Math.floor(random() * 3);
  for (let e = 0; e < edits && chars.length > 0; e++) {
    const at = Math.floor(random() * chars.length);
    const kind = random();
    if (kind < 0.33) chars.splice(at, 1);
    else if (kind < 0.66) chars.splice(at, 0, pick(random, Array.from(pick(random, WORDS))));
    else chars[at] = pick(random, Array.from(pick(random, WORDS)));
  }
  return chars.join('');
}

export interface Pair {
  prediction: string;
  targets: string[];
}

/** `count` pairs: exact answers, near misses, unrelated answers, empty answers and a few long (autojunk) strings. */
export function randomPairs(count: number, seed = 20261202): Pair[] {
  const random = seededRandom(seed);
  const pairs: Pair[] = [];
  for (let i = 0; i < count; i++) {
    const long = random() < 0.03;
    const length = long ? 40 + Math.floor(random() * 40) : 1 + Math.floor(random() * 5);
    const targets = Array.from({ length: 1 + Math.floor(random() * 3) }, () => phrase(random, length));
    const kind = random();
    let prediction: string;
    if (kind < 0.25) prediction = pick(random, targets);
    else if (kind < 0.55) prediction = mutate(random, pick(random, targets));
    else if (kind < 0.7) prediction = `${pick(random, ['The answer is ', 'A: ', ''])}${pick(random, targets)}${pick(random, ['.', '!', ''])}`;
    else if (kind < 0.95) prediction = phrase(random, length);
    else prediction = pick(random, ['', ' ', '...', 'the']);
    pairs.push({ prediction, targets });
  }
  return pairs;
}
