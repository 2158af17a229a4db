// Error categories on crafted cases: every rule, the rule order, and a text in each script of the 31 MultiLoKo
// languages. Each expected value is worked out by hand from the rules in docs/multiloko.md (the comment says how).
import { describe, expect, test } from 'vitest';
import { ERROR_CATEGORIES, countErrorCategories, errorCategory } from '../../src/metrics/errorCategory.ts';
import { dominantScript } from '../../src/metrics/dominantScript.ts';

describe('errorCategory: each rule, first that holds', () => {
  const cases: Array<[why: string, prediction: string, targets: string[], similarity: number, expected: string]> = [
    ['equals a target', 'roma', ['rome', 'roma'], 1, 'correct'],
    ['an empty prediction equal to an empty target is still EM 1', '', [''], 1, 'correct'],
    ['nothing said', '', ['roma'], 0, 'empty'],
    ['the target inside a longer answer', 'la città di roma', ['roma'], 0.4, 'verbose'],
    ['verbose before truncated: "roma" is inside the prediction, the prediction inside the second target', 'roma antica', ['roma', 'roma antica imperiale'], 0.6, 'verbose'],
    ['an empty target is inside every text but never makes an answer verbose', 'parigi', ['', 'roma'], 0.2, 'wrong'],
    ['the answer cut short', 'giuseppe', ['giuseppe garibaldi'], 0.6, 'truncated'],
    ['truncated before near', 'garibald', ['garibaldi'], 0.94, 'truncated'],
    ['a misspelling', 'garibaldy', ['garibaldi'], 8 / 9, 'near'],
    ['0.7 is near', 'abcdefx', ['abcdefg'], 0.7, 'near'],
    ['just under 0.7 is not', 'abcdefx', ['abcdefg'], 0.6999999, 'wrong'],
    ['near before wrong_script', 'moskva', ['москва'], 0.75, 'near'],
    ['transliterated: Latin letters against a Cyrillic target', 'moskva', ['москва'], 0, 'wrong_script'],
    ['only the first target decides the script', 'питер', ['moscow', 'москва'], 0.2, 'wrong_script'],
    ['a second target in the prediction\'s script does not help', 'moskva', ['москва', 'moscow'], 0.3, 'wrong_script'],
    ['same script, wrong answer', 'parigi', ['roma'], 0.2, 'wrong'],
    ['digits have no script', '1990', ['москва'], 0, 'wrong'],
    ['a target without letters has no script', 'москва', ['1990'], 0, 'wrong'],
    ['most letters win: 5 Latin letters, 2 Cyrillic, against a Cyrillic target', 'paris ам', ['москва'], 0.1, 'wrong_script'],
    ['most letters win: 2 Latin letters, 6 Cyrillic, against a Cyrillic target', 'ok москва', ['санкт'], 0.1, 'wrong'],
  ];
  test.each(cases)('%s', (_why, prediction, targets, similarity, expected) => {
    expect(errorCategory(prediction, targets, similarity)).toBe(expected);
  });

  test('seven categories in rule order', () => {
    expect(ERROR_CATEGORIES).toEqual(['correct', 'empty', 'verbose', 'truncated', 'near', 'wrong_script', 'wrong']);
  });

  test('counts have every category', () => {
    expect(countErrorCategories(['wrong', 'correct', 'wrong'])).toEqual({ correct: 1, empty: 0, verbose: 0, truncated: 0, near: 0, wrong_script: 0, wrong: 2 });
  });
});

describe('a text in each script of the 31 languages', () => {
  // [language, a normalised answer in it, its script]; a Latin answer ("abc") to it is wrong_script unless it is Latin.
  const languages: Array<[string, string, string]> = [
    ['arabic', 'القاهرة', 'Arabic'],
    ['bengali', 'ঢাকা', 'Bengali'],
    ['cantonese', '香港', 'Han'],
    ['czech', 'praha', 'Latin'],
    ['dutch', 'amsterdam', 'Latin'],
    ['english', 'london', 'Latin'],
    ['farsi', 'تهران', 'Arabic'],
    ['french', 'île de france', 'Latin'],
    ['german', 'münchen', 'Latin'],
    ['hebrew', 'ירושלים', 'Hebrew'],
    ['hindi', 'दिल्ली', 'Devanagari'],
    ['indonesian', 'jakarta', 'Latin'],
    ['italian', 'città', 'Latin'],
    ['japanese', '山梨県富士吉田市', 'Han'],
    ['khmer', 'ភ្នំពេញ', 'Khmer'],
    ['korean', '서울', 'Hangul'],
    ['malay', 'kuala lumpur', 'Latin'],
    ['marathi', 'मुंबई', 'Devanagari'],
    ['polish', 'łódź', 'Latin'],
    ['portuguese', 'são paulo', 'Latin'],
    ['romanian', 'bucurești', 'Latin'],
    ['russian', 'москва', 'Cyrillic'],
    ['simplified_mandarin', '北京', 'Han'],
    ['spanish', 'españa', 'Latin'],
    ['swedish', 'göteborg', 'Latin'],
    ['tagalog', 'maynila', 'Latin'],
    ['thai', 'กรุงเทพ', 'Thai'],
    ['traditional_mandarin', '臺北', 'Han'],
    ['turkish', 'istanbul', 'Latin'],
    ['urdu', 'لاہور', 'Arabic'],
    ['vietnamese', 'hà nội', 'Latin'],
  ];
  test('all 31', () => expect(new Set(languages.map(([l]) => l)).size).toBe(31));
  test.each(languages)('%s: %s is %s', (_language, text, script) => {
    expect(dominantScript(text)).toBe(script);
    expect(errorCategory('abc', [text], 0)).toBe(script === 'Latin' ? 'wrong' : 'wrong_script');
    expect(errorCategory(text, ['abc'], 0)).toBe(script === 'Latin' ? 'wrong' : 'wrong_script');
  });

  const japanese: Array<[string, string, string]> = [
    ['hiragana only', 'とうきょう', 'Hiragana'],
    ['katakana only', 'カタカナ', 'Katakana'],
    ['4 hiragana, 2 Han', 'ひらがな漢字', 'Hiragana'],
    ['ー is Script=Common: 3 Katakana, 1 other', 'ラーメン', 'Katakana'],
    ['2 Han, 1 hiragana', '東京の', 'Han'],
  ];
  test.each(japanese)('Japanese, Script as is: %s', (_why, text, script) => expect(dominantScript(text)).toBe(script));
  test('Japanese kana against a kanji target is another script', () => {
    expect(errorCategory('とうきょう', ['東京'], 0)).toBe('wrong_script');
  });

  const others: Array<[string, string]> = [
    ['αθήνα', 'Greek'], ['சென்னை', 'Tamil'], ['హైదరాబాద్', 'Telugu'], ['અમદાવાદ', 'Gujarati'], ['ಬೆಂಗಳೂರು', 'Kannada'],
    ['കൊച്ചി', 'Malayalam'], ['ਅੰਮ੍ਰਿਤਸਰ', 'Gurmukhi'], ['ရန်ကုန်', 'Myanmar'], ['თბილისი', 'Georgian'], ['երևան', 'Armenian'],
    ['አዲስ', 'Ethiopic'], ['කොළඹ', 'Sinhala'], ['ᚠᚢᚦ', 'other'],
  ];
  test.each(others)('%s is %s', (text, script) => expect(dominantScript(text)).toBe(script));
  test('ties go to the script listed first; no letters, no script', () => {
    expect(dominantScript('ab αβ')).toBe('Latin');
    expect(dominantScript('1990 ,')).toBeNull();
    // Digits and marks of a listed script are no letters either: Devanagari digits 1947, Arabic-Indic 1952, Thai's
    // vowel sign mai han-akat alone, the Latin-script Roman numeral ⅻ (a number, Nl); beside them, the letter क (its
    // vowel sign ि is a mark) makes the text Devanagari.
    expect(dominantScript('१९४७ ١٩٥٢ \u0e31 ⅻ')).toBeNull();
    expect(dominantScript('१९४७ कि')).toBe('Devanagari');
    expect(errorCategory('१९४७', ['london'], 0)).toBe('wrong');
    expect(dominantScript('')).toBeNull();
  });
});
