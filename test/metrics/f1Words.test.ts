// f1_words: eval.py's token F1 over ICU word segments. Expected segments are written by hand (the words of each
// name, as a reader of the language splits them and as ICU's dictionaries give them); F1 values are worked out from
// them beside each case.
import { describe, expect, test } from 'vitest';
import { f1Words, wordTokens } from '../../src/benchmarks/multiloko/metrics/f1Words.ts';
import { segmenterForTag, wordSegmenter, wordSegmenterFallbackLine } from '../../src/benchmarks/multiloko/metrics/wordSegmenter.ts';
import { MULTILOKO_LANGUAGE_TAGS, multilokoLanguageTag } from '../../src/benchmarks/multiloko/metrics/multilokoLanguageTags.ts';
import { tokenF1, tokenF1Single } from '../../src/metrics/tokenF1.ts';
import { normalizeAnswer } from '../../src/metrics/normalizeAnswer.ts';
import { seededRandom } from '../support/seededRandom.ts';

const words = (language: string, text: string) => wordTokens(text, wordSegmenter(language).segmenter);
const f1w = (language: string, pred: string, targets: string[]) => f1Words(pred, targets, wordSegmenter(language).segmenter);

describe('word segments of scripts written without spaces', () => {
  test('Thai: a sentence and names split into their words', () => {
    // "Bangkok is the capital of Thailand": กรุงเทพมหานคร (Bangkok) · เป็น (is) · เมือง (city) · หลวง (royal: เมืองหลวง,
    // capital) · ของ (of) · ประเทศไทย (Thailand); the space is not word-like.
    expect(words('thai', 'กรุงเทพมหานคร เป็นเมืองหลวงของประเทศไทย')).toEqual(['กรุงเทพมหานคร', 'เป็น', 'เมือง', 'หลวง', 'ของ', 'ประเทศไทย']);
    // Wat Phra Kaew: วัด (temple) · พระ (holy, Buddha image) · แก้ว (jewel).
    expect(words('thai', 'วัดพระแก้ว')).toEqual(['วัด', 'พระ', 'แก้ว']);
    // The Chao Phraya river: แม่น้ำ (river) · เจ้าพระยา (the river's name).
    expect(words('thai', 'แม่น้ำเจ้าพระยา')).toEqual(['แม่น้ำ', 'เจ้าพระยา']);
  });

  test('Japanese: prefecture, city and person names', () => {
    // Fujiyoshida, Yamanashi: 山梨 (Yamanashi) · 県 (prefecture) · 富士吉田 (Fujiyoshida) · 市 (city).
    expect(words('japanese', '山梨県富士吉田市')).toEqual(['山梨', '県', '富士吉田', '市']);
    expect(words('japanese', '富士吉田市')).toEqual(['富士吉田', '市']);
    // Tokugawa Ieyasu: family name 徳川, given name 家康.
    expect(words('japanese', '徳川家康')).toEqual(['徳川', '家康']);
  });

  test('Chinese: a state name and an institution', () => {
    // 中华 (China) · 人民 (people's) · 共和国 (republic); 北京 (Beijing) · 大学 (university).
    expect(words('simplified_mandarin', '中华人民共和国')).toEqual(['中华', '人民', '共和国']);
    expect(words('simplified_mandarin', '人民共和国')).toEqual(['人民', '共和国']);
    expect(words('simplified_mandarin', '北京大学')).toEqual(['北京', '大学']);
  });

  test('partial credit where whitespace F1 sees one token per answer', () => {
    // 4 words against 2, both of the target's shared: P = 2/4, R = 2/2, F = 2·(1/2)·1 / (3/2) = 2/3.
    expect(tokenF1('山梨県富士吉田市', ['富士吉田市'])).toBe(0);
    expect(f1w('japanese', '山梨県富士吉田市', ['富士吉田市'])).toBe((2 * (2 / 4) * (2 / 2)) / (2 / 4 + 2 / 2));
    // 2 words against 1, the one shared: P = 1/2, R = 1, F = 2/3.
    expect(tokenF1('แม่น้ำเจ้าพระยา', ['เจ้าพระยา'])).toBe(0);
    expect(f1w('thai', 'แม่น้ำเจ้าพระยา', ['เจ้าพระยา'])).toBe((2 * (1 / 2) * 1) / (1 / 2 + 1));
    // 3 words against 2, both shared: P = 2/3, R = 1, F = 0.8; the max over targets takes it over the unrelated one.
    expect(f1w('simplified_mandarin', '中华人民共和国', ['北京大学', '人民共和国'])).toBe((2 * (2 / 3) * 1) / (2 / 3 + 1));
    // The same answer is 1.0 by both.
    expect(f1w('simplified_mandarin', '北京大学', ['北京大学'])).toBe(1);
  });

  test('no word-like segment scores 0, as eval.py scores no token (empty against empty too)', () => {
    expect(f1w('italian', '', [''])).toBe(0);
    expect(tokenF1('', [''])).toBe(0);
    // `·` survives normalisation and is one whitespace token, so f1 gives 1.0; it is no word.
    expect(tokenF1('·', ['·'])).toBe(1);
    expect(f1w('italian', '·', ['·'])).toBe(0);
  });
});

describe('equals eval.py f1 on space-separated Latin text', () => {
  const LETTERS = 'abcdefghijklmnopqrstuvwxyzàéèìòùçñüößø0123456789';
  const VOCABULARY = ['roma', 'milano', 'torino', 'san', 'marco', 'piazza', '1861', 'giuseppe', 'verdi', 'straße', 'ørsted'];

  function word(random: () => number): string {
    if (random() < 0.6) return VOCABULARY[Math.floor(random() * VOCABULARY.length)]!;
    let out = '';
    const n = 1 + Math.floor(random() * 8);
    for (let i = 0; i < n; i++) out += LETTERS[Math.floor(random() * LETTERS.length)];
    return out;
  }
  const text = (random: () => number) => Array.from({ length: Math.floor(random() * 6) }, () => word(random)).join(' ');

  test('3,000 generated answers with 1–3 targets each, in four Latin-script languages', () => {
    const random = seededRandom(40);
    const languages = ['italian', 'french', 'german', 'swedish'];
    for (let i = 0; i < 3000; i++) {
      const language = languages[i % languages.length]!;
      // Normalised as eval.py normalises, so what both metrics see is what a run scores.
      const pred = normalizeAnswer(text(random));
      const targets = Array.from({ length: 1 + Math.floor(random() * 3) }, () => normalizeAnswer(text(random)));
      expect(words(language, pred), pred).toEqual(pred === '' ? [] : pred.split(' '));
      expect(f1w(language, pred, targets), `${pred} | ${targets.join(' | ')}`).toBe(tokenF1(pred, targets));
    }
  });
});

describe('text in Latin and the spaced alphabets is split without ICU', () => {
  const icuWords = (segmenter: Intl.Segmenter, text: string) => [...segmenter.segment(text)].filter((s) => s.isWordLike).map((s) => s.segment);

  test('every Latin-script code point and letter of Cyrillic, Greek, Armenian, Georgian, Hebrew, Arabic is a word letter to ICU: alone, between a letter and a digit, and doubled', () => {
    const spaced = /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}\p{Script=Georgian}\p{Script=Hebrew}\p{Script=Arabic}]/u;
    const odd: string[] = [];
    let letters = 0;
    for (const language of ['italian', 'russian', 'arabic', 'japanese']) {
      const segmenter = wordSegmenter(language).segmenter;
      for (let cp = 0; cp < 0x110000; cp++) {
        const ch = String.fromCodePoint(cp);
        if (!/\p{Script=Latin}/u.test(ch) && !(spaced.test(ch) && /\p{L}/u.test(ch))) continue;
        letters++;
        for (const text of [ch, `x${ch}1`, `1${ch}x`, `${ch}${ch}`, `ж${ch}ש`]) if (icuWords(segmenter, text).join('|') !== text) odd.push(`${language} U+${cp.toString(16)}`);
        // the fast path takes exactly these code points
        if (wordTokens(ch, segmenter).join('|') !== ch) odd.push(`fast path ${language} U+${cp.toString(16)}`);
      }
    }
    expect(odd).toEqual([]);
    expect(letters).toBeGreaterThan(4 * 3000);
    // Hangul is not among them: ICU segments it otherwise (and marks and Katakana join only their own)
    expect(wordTokens('서울특별시', wordSegmenter('korean').segmenter)).toEqual(icuWords(wordSegmenter('korean').segmenter, '서울특별시'));
  });

  test('Devanagari and Bengali letters, the digits of those scripts and of Arabic, marks and joiners after a word character, and Hangul syllables: one word to ICU', () => {
    const letter = new RegExp('[[\\p{L}\\p{Nd}]&&[\\p{Script=Devanagari}\\p{Script=Bengali}\\p{Script=Arabic}]]', 'v');
    const mark = new RegExp('[[\\p{M}\\u200c\\u200d]&&[\\p{Script=Inherited}\\p{Script=Latin}\\p{Script=Cyrillic}\\p{Script=Greek}\\p{Script=Armenian}\\p{Script=Georgian}\\p{Script=Hebrew}\\p{Script=Arabic}\\p{Script=Devanagari}\\p{Script=Bengali}]]', 'v');
    const odd: string[] = [];
    const seen = { letters: 0, marks: 0, hangul: 0 };
    const texts: string[] = [];
    for (let cp = 0x80; cp < 0x110000; cp++) {
      const ch = String.fromCodePoint(cp);
      if (letter.test(ch)) (seen.letters++, texts.push(ch, `x${ch}1`, `1${ch}x`, `${ch}${ch}`, `क${ch}ঢ`, `ب${ch}`));
      else if (mark.test(ch)) (seen.marks++, texts.push(`x${ch}`, `1${ch}`, `क${ch}${ch}`, `ঢ${ch}া`, `ب${ch}ب`, `ж${ch}`));
      else if (cp >= 0xac00 && cp <= 0xd7a3) (seen.hangul++, texts.push(ch, `서${ch}`));
    }
    for (const language of ['hindi', 'korean', 'japanese']) {
      const segmenter = wordSegmenter(language).segmenter;
      for (const text of texts) {
        if (icuWords(segmenter, text).join('|') !== text) odd.push(`${language} ICU ${JSON.stringify(text)}`);
        if (wordTokens(text, segmenter).join('|') !== text) odd.push(`${language} fast path ${JSON.stringify(text)}`);
      }
    }
    expect(odd.slice(0, 20)).toEqual([]);
    expect(seen.letters).toBeGreaterThan(300);
    expect(seen.marks).toBeGreaterThan(500);
    expect(seen.hangul).toBe(11172);
    // A mark after a space or at the start, and Hangul beside a digit, are not in one word: ICU decides them.
    const hindi = wordSegmenter('hindi').segmenter;
    for (const text of ['\u093f', 'क \u093fख', '\u200cक', 'क \u200dख']) expect(wordTokens(text, hindi), JSON.stringify(text)).toEqual(icuWords(hindi, text));
    const korean = wordSegmenter('korean').segmenter;
    expect(wordTokens('5년 서울', korean)).toEqual(icuWords(korean, '5년 서울'));
    expect(icuWords(korean, '5년')).toEqual(['5', '년']);
  });

  test('the same words as Intl.Segmenter gives, on 6,000 generated strings of Latin and spaced letters, digits, marks and spaces', () => {
    const random = seededRandom(7);
    const ALPHABET = Array.from('abcXYZéßøªſﬀＡⅫʰ0189     жЁΩάաბשםعلىـ٣\u0301\u064e\u05b8\u200c\u200d۔・_कखि्\u093c१ঢাকা১서울5');
    for (let i = 0; i < 6000; i++) {
      const segmenter = wordSegmenter(['english', 'german', 'turkish', 'vietnamese', 'russian', 'hebrew', 'arabic', 'farsi', 'urdu', 'hindi', 'bengali', 'korean'][i % 12]!).segmenter;
      const text = Array.from({ length: Math.floor(random() * 20) }, () => ALPHABET[Math.floor(random() * ALPHABET.length)]).join('');
      expect(wordTokens(text, segmenter), JSON.stringify(text)).toEqual(icuWords(segmenter, text));
    }
  });
});

describe('f1Words skips segmenting what cannot share a word', () => {
  test('equals token F1 over ICU words of the prediction and of every target, on 6,000 generated answers in many scripts', () => {
    const random = seededRandom(11);
    const ALPHABET = Array.from('ab Roma 12 жЁ 東京都山梨県 กรุงเทพ שם علی ঢাকা 서울 ー°·€\u0301');
    const text = () => Array.from({ length: Math.floor(random() * 10) }, () => ALPHABET[Math.floor(random() * ALPHABET.length)]).join('');
    const languages = Object.keys(MULTILOKO_LANGUAGE_TAGS);
    let zero = 0;
    for (let i = 0; i < 6000; i++) {
      const segmenter = wordSegmenter(languages[i % languages.length]!).segmenter;
      const pred = text();
      const targets = [text(), ...(random() < 0.3 ? [pred] : []), ...(random() < 0.5 ? [`${pred} ${text()}`] : [])];
      const icu = (t: string) => [...segmenter.segment(t)].filter((s) => s.isWordLike).map((s) => s.segment);
      const expected = Math.max(...targets.map((t) => tokenF1Single(icu(pred), icu(t))));
      const got = f1Words(pred, targets, segmenter);
      expect(got, JSON.stringify([pred, targets])).toBe(expected);
      if (got === 0) zero++;
    }
    // both the shortcuts' cases and scored ones came up
    expect(zero).toBeGreaterThan(500);
    expect(zero).toBeLessThan(5500);
  });
});

describe('segmenters per language', () => {
  test('every MultiLoKo language has a tag Intl.Segmenter supports, and one segmenter is built per language', () => {
    expect(Object.keys(MULTILOKO_LANGUAGE_TAGS)).toHaveLength(31);
    for (const language of Object.keys(MULTILOKO_LANGUAGE_TAGS)) {
      const one = wordSegmenter(language);
      expect(one.fallback, language).toBeUndefined();
      expect(wordSegmenter(language)).toBe(one);
    }
    expect(multilokoLanguageTag('japanese')).toBe('ja');
    expect(multilokoLanguageTag('toString')).toBeUndefined();
  });

  test('a language without a supported tag falls back to the root locale, named once in one line', () => {
    const klingon = wordSegmenter('klingon');
    expect(klingon.tag).toBeUndefined();
    expect(klingon.fallback).toBe('no BCP-47 tag known');
    // The root rules still split Latin text on spaces and Japanese with its dictionary.
    expect(wordTokens('qapla batlh', klingon.segmenter)).toEqual(['qapla', 'batlh']);
    expect(wordTokens('山梨県富士吉田市', klingon.segmenter)).toEqual(['山梨', '県', '富士吉田', '市']);
    expect(wordSegmenterFallbackLine(['italian', 'japanese'])).toBeUndefined();
    const line = wordSegmenterFallbackLine(['italian', 'klingon', 'klingon'])!;
    expect(line).toBe(`f1_words segmented with the root locale's word rules (${klingon.locale}) for klingon (no BCP-47 tag known)`);
    // Many such folders: the first five, then a count.
    const many = wordSegmenterFallbackLine(Array.from({ length: 151 }, (_, i) => `lang${i}`))!;
    expect(many).toMatch(/for lang0 \(no BCP-47 tag known\), .*lang4 \(no BCP-47 tag known\), … \(146 more\)$/u);
  });

  test('a tag Intl.Segmenter does not support falls back to the root locale, naming the tag; a supported one does not', () => {
    // qaa is a private-use code: no ICU locale data, so Intl.Segmenter.supportedLocalesOf leaves it out
    expect(Intl.Segmenter.supportedLocalesOf(['qaa'])).toEqual([]);
    const unknown = segmenterForTag('qaa');
    expect([unknown.tag, unknown.fallback]).toEqual(['qaa', 'Intl.Segmenter does not support qaa']);
    expect(unknown.locale).toBe(new Intl.Segmenter('und').resolvedOptions().locale);
    expect(wordTokens('qapla batlh', unknown.segmenter)).toEqual(['qapla', 'batlh']);
    const japanese = segmenterForTag('ja');
    expect([japanese.fallback, japanese.locale]).toEqual([undefined, 'ja']);
  });
});
