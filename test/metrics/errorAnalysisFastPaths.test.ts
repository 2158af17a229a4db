// The fast error category and f1_words against their plain definitions (plainErrorAnalysis.ts: every text through
// Intl.Segmenter, every letter's Script by regex) on generated answers in the 31 languages' scripts and adversarial ones.
import { describe, expect, test } from 'vitest';
import { errorCategory } from '../../src/metrics/errorCategory.ts';
import { dominantScript } from '../../src/metrics/dominantScript.ts';
import { scoreExample } from '../../src/metrics/scoreExample.ts';
import { f1Words, wordTokens } from '../../src/benchmarks/multiloko/metrics/f1Words.ts';
import { wordSegmenter } from '../../src/benchmarks/multiloko/metrics/wordSegmenter.ts';
import { MULTILOKO_LANGUAGE_TAGS } from '../../src/benchmarks/multiloko/metrics/multilokoLanguageTags.ts';
import { errorAnalysisItems } from '../../bench/errorAnalysis.ts';
import { seededRandom } from '../support/seededRandom.ts';
import { plainDominantScript, plainErrorCategory, plainF1Words, plainWordTokens } from './plainErrorAnalysis.ts';

/** Words per language in its own script (places, phrases, a number or two), so dictionaries and spaces both come up. */
const WORDS: Record<string, string[]> = {
  arabic: ['القاهرة', 'مدينة', 'الكبرى', 'مصر', '١٩٥٢'],
  bengali: ['ঢাকা', 'শহরের', 'কেন্দ্র', 'বাংলাদেশ', '১৯৭১'],
  cantonese: ['香港', '特別行政區', '九龍', '維多利亞港'],
  czech: ['praha', 'hlavní', 'město', 'brno', 'řeka'],
  dutch: ['amsterdam', 'stad', 'de', 'ijsselmeer'],
  english: ['london', 'city', 'of', 'thames', '1666'],
  farsi: ['تهران', 'شهر', 'بزرگ', 'اصفهان', '۱۳۵۷'],
  french: ['paris', 'ville', 'île', 'de', 'françois'],
  german: ['berlin', 'stadt', 'straße', 'münchen'],
  hebrew: ['ירושלים', 'העיר', 'העתיקה', 'תל', 'אביב'],
  hindi: ['दिल्ली', 'नई', 'शहर', 'भारत', '१९४७'],
  indonesian: ['jakarta', 'kota', 'raya', 'bandung'],
  italian: ['roma', 'città', 'di', 'garibaldi'],
  japanese: ['東京', '山梨県富士吉田市', 'とうきょう', 'カタカナ', 'ラーメン', '徳川家康'],
  khmer: ['ភ្នំពេញ', 'រាជធានី', 'កម្ពុជា', 'សៀមរាប'],
  korean: ['서울', '특별시', '중구', '부산광역시', '5년'],
  malay: ['kuala', 'lumpur', 'bandar', 'raya'],
  marathi: ['मुंबई', 'शहराचा', 'भाग', 'पुणे'],
  polish: ['warszawa', 'miasto', 'stołeczne', 'łódź'],
  portuguese: ['são', 'paulo', 'cidade', 'a'],
  romanian: ['bucurești', 'orașul', 'iași'],
  russian: ['москва', 'город', 'на', 'реке', 'ёлка'],
  simplified_mandarin: ['北京', '海淀区', '中华人民共和国', '北京大学'],
  spanish: ['madrid', 'ciudad', 'españa'],
  swedish: ['stockholm', 'staden', 'göteborg'],
  tagalog: ['maynila', 'lungsod', 'ng', 'ang'],
  thai: ['กรุงเทพ', 'มหานคร', 'วัดพระแก้ว', 'แม่น้ำเจ้าพระยา', 'ประเทศไทย'],
  traditional_mandarin: ['臺北', '臺北市中正區', '高雄', '故宮博物院'],
  turkish: ['istanbul', 'şehri', 'ankara', 'ığdır'],
  urdu: ['لاہور', 'شہر', 'کا', 'مرکز'],
  vietnamese: ['hà', 'nội', 'thành', 'phố', 'hồ'],
};

/** Pieces that break the easy cases: other scripts, symbols normalisation keeps, emoji, marks, joiners, scripts without spaces. */
const ADVERSARIAL = [
  'ရန်ကုန်', 'မြန်မာ', 'ວຽງຈັນ', 'ཐིམ་ཕུ', 'αθήνα', 'երևան', 'თბილისი', 'அடிசு', 'abc123', '٣٤', '5년', '4°', '·', '€', '©',
  '😀', '👩\u200d💻', '🇮🇹', '👍🏽', 'e\u0301', '\u0301a', 'क्\u200dष', 'ک\u200cه', '\u200c', '\u200d', 'x\u00adz', '\u0e31',
  'ー', '々', 'ｶﾀｶﾅ', 'ﾞ', '\u{16fe4}', '\u200b', '\u3000', '_', 'don\'t', '3.14', '1,000', 'a:b', 'tab\there', '\u00a0', 'ﬀ', 'Ⅻ', '\u{1d400}',
];

function generated(random: () => number, language: string): { prediction: string; targets: string[] } {
  const own = WORDS[language]!;
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const piece = () => (random() < 0.75 ? pick(own) : random() < 0.5 ? pick(ADVERSARIAL) : pick(WORDS[pick(Object.keys(WORDS))]!));
  // Some pieces glued without a space, as in scripts written without spaces.
  const text = () => Array.from({ length: 1 + Math.floor(random() * 4) }, piece).reduce((a, b) => a + (random() < 0.3 ? '' : ' ') + b);
  const targets = Array.from({ length: 1 + Math.floor(random() * 3) }, text);
  const kind = Math.floor(random() * 6);
  const first = targets[0]!;
  const prediction =
    kind === 0 ? first
    : kind === 1 ? `${first} ${piece()}`
    : kind === 2 ? first.slice(0, Math.max(0, first.length - 1 - Math.floor(random() * 3)))
    : kind === 3 ? `${piece()}${first}`
    : kind === 4 ? ''
    : text();
  return { prediction, targets };
}

/** Every field of both methods on one item, scored as `lokal score` scores it (normalised, edit similarity from scoreExample). */
function compare(language: string, rawPrediction: string, rawTargets: readonly string[]): string[] {
  const { prediction, targets, scores } = scoreExample(rawPrediction, rawTargets);
  const { segmenter } = wordSegmenter(language);
  const odd: string[] = [];
  const fast = { error: errorCategory(prediction, targets, scores.edit_similarity), f1: f1Words(prediction, targets, segmenter) };
  const plain = { error: plainErrorCategory(prediction, targets, scores.edit_similarity), f1: plainF1Words(prediction, targets, segmenter) };
  if (fast.error !== plain.error || !Object.is(fast.f1, plain.f1)) odd.push(`${language} ${JSON.stringify([prediction, targets])}: ${JSON.stringify(fast)} vs ${JSON.stringify(plain)}`);
  for (const text of [prediction, ...targets]) {
    if (wordTokens(text, segmenter).join('|') !== plainWordTokens(text, segmenter).join('|')) odd.push(`${language} words of ${JSON.stringify(text)}`);
    if (dominantScript(text) !== plainDominantScript(text)) odd.push(`script of ${JSON.stringify(text)}`);
  }
  return odd;
}

describe('fast error category and f1_words equal the plain definitions', () => {
  test('the errors bench items (31 languages, every kind of prediction it makes)', () => {
    const odd: string[] = [];
    for (const item of errorAnalysisItems(10)) odd.push(...compare(item.language, item.prediction, item.targets));
    expect(odd).toEqual([]);
  });

  test('4,000 generated items per language group: own words, glued words, other scripts, symbols, emoji, marks, joiners', () => {
    const languages = Object.keys(MULTILOKO_LANGUAGE_TAGS);
    expect(languages.sort()).toEqual(Object.keys(WORDS).sort());
    const random = seededRandom(2026);
    const odd: string[] = [];
    const categories = new Set<string>();
    let partial = 0;
    for (let i = 0; i < 4000 * 4; i++) {
      const language = languages[i % languages.length]!;
      const { prediction, targets } = generated(random, language);
      odd.push(...compare(language, prediction, targets));
      const scored = scoreExample(prediction, targets);
      categories.add(errorCategory(scored.prediction, scored.targets, scored.scores.edit_similarity));
      const f = f1Words(scored.prediction, scored.targets, wordSegmenter(language).segmenter);
      if (f > 0 && f < 1) partial++;
    }
    expect(odd.slice(0, 20)).toEqual([]);
    // Every rule came up, and partial word overlaps, not only 0 and 1.
    expect([...categories].sort()).toEqual(['correct', 'empty', 'near', 'truncated', 'verbose', 'wrong', 'wrong_script']);
    expect(partial).toBeGreaterThan(1000);
  });

  test('a space before each code point that attaches to the character before it (WB4): the text is segmented whole, as ICU does', () => {
    // ICU joins some of them to the space into one word-like segment (the Khitan filler U+16FE4: "a 𖿤" gives "a", " 𖿤"),
    // which the piece after the space alone would not give.
    const attaching = /^[\p{Grapheme_Extend}\p{Mc}\p{Emoji_Modifier}\p{Cf}]$/u;
    const odd: string[] = [];
    let checked = 0;
    const chars: string[] = [];
    for (let cp = 0; cp < 0x110000; cp++) if (attaching.test(String.fromCodePoint(cp))) chars.push(String.fromCodePoint(cp));
    for (const language of ['thai', 'japanese', 'hindi']) {
      const { segmenter } = wordSegmenter(language);
      for (const ch of chars) {
        for (const text of [`a ${ch}`, `東京 ${ch}กรุงเทพ`, `서울 ${ch}a`]) {
          checked++;
          if (wordTokens(text, segmenter).join('|') !== plainWordTokens(text, segmenter).join('|')) odd.push(`${language} ${JSON.stringify(text)}`);
        }
      }
    }
    expect(odd.slice(0, 20)).toEqual([]);
    expect(checked).toBeGreaterThan(3 * 3 * 2000);
    expect(plainWordTokens('a \u{16fe4}', wordSegmenter('thai').segmenter)).toEqual(['a', ' \u{16fe4}']);
  });

  test('strings of random characters from every script at once, segmented in every language, twice (the second time from any cache)', () => {
    const alphabet = Array.from(new Set([...Object.values(WORDS).flat(), ...ADVERSARIAL].join('').concat('  ')));
    const languages = Object.keys(MULTILOKO_LANGUAGE_TAGS);
    const odd: string[] = [];
    for (let round = 0; round < 2; round++) {
      // The same strings each round: the second round's answers may come from a cache filled in the first.
      const again = seededRandom(99);
      for (let i = 0; i < 3000; i++) {
        const text = Array.from({ length: Math.floor(again() * 16) }, () => alphabet[Math.floor(again() * alphabet.length)]).join('');
        const { segmenter } = wordSegmenter(languages[i % languages.length]!);
        if (wordTokens(text, segmenter).join('|') !== plainWordTokens(text, segmenter).join('|')) odd.push(JSON.stringify(text));
        if (dominantScript(text) !== plainDominantScript(text)) odd.push(`script ${JSON.stringify(text)}`);
      }
    }
    expect(odd.slice(0, 20)).toEqual([]);
  });
});
