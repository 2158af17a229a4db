// eval.py's language keys: every form (local, to English, from English, between two other languages) for each of
// MultiLoKo's 31 languages, parsed, written back, and read as the report and the normaliser read them.
import { expect, test } from 'vitest';
import { contentLanguage, formatSubsetKey, parseSubsetKey, subsetDirection, subsetLanguage, subsetTitle } from '../../src/benchmarks/multiloko/data/subsetKey.ts';
import { subsetKey } from '../../src/benchmarks/multiloko/data/layout.ts';
import { MULTILOKO_LANGUAGE_TAGS } from '../../src/benchmarks/multiloko/metrics/multilokoLanguageTags.ts';

// Written out here (not taken from the code) so a language dropped from the tag table shows.
const LANGUAGES = [
  'arabic', 'bengali', 'cantonese', 'czech', 'dutch', 'english', 'farsi', 'french', 'german', 'hebrew', 'hindi', 'indonesian', 'italian', 'japanese', 'khmer', 'korean',
  'malay', 'marathi', 'polish', 'portuguese', 'romanian', 'russian', 'simplified_mandarin', 'spanish', 'swedish', 'tagalog', 'thai', 'traditional_mandarin', 'turkish', 'urdu', 'vietnamese',
];

test('the 31 languages are the tag table\'s', () => {
  expect(LANGUAGES).toHaveLength(31);
  expect(Object.keys(MULTILOKO_LANGUAGE_TAGS).sort()).toEqual([...LANGUAGES].sort());
});

test.each(LANGUAGES)('%s: local, to English and from English, both kinds', (language) => {
  const local = parseSubsetKey(language);
  expect(local).toEqual({ key: language, kind: 'local', language });
  expect(formatSubsetKey(local)).toBe(language);
  expect([subsetLanguage(local), contentLanguage(language), subsetDirection(local), subsetTitle(local)]).toEqual([language, language, undefined, `${language} · local`]);
  for (const translation of ['human', 'machine'] as const) {
    // The key data/layout.ts gives the file `<language>/dev_translated_<kind>_english.jsonl`.
    const toKey = subsetKey(`dev_translated_${translation}_english.jsonl`, 'dev', language);
    expect(toKey).toBe(`${language}_translated_${translation}_english`);
    const to = parseSubsetKey(toKey);
    expect(to).toEqual({ key: toKey, kind: 'translated', sourceLanguage: language, questionLanguage: 'english', translation });
    expect(formatSubsetKey(to)).toBe(toKey);
    expect([subsetLanguage(to), contentLanguage(toKey), subsetDirection(to), subsetTitle(to)]).toEqual([language, 'english', 'to-english', `${language} → english · ${translation}`]);
    if (language === 'english') continue;
    const fromKey = subsetKey(`dev_translated_${translation}_${language}.jsonl`, 'dev', 'english');
    const from = parseSubsetKey(fromKey);
    expect(from).toEqual({ key: `english_translated_${translation}_${language}`, kind: 'translated', sourceLanguage: 'english', questionLanguage: language, translation });
    expect(formatSubsetKey(from)).toBe(fromKey);
    expect([subsetLanguage(from), contentLanguage(fromKey), subsetDirection(from), subsetTitle(from)]).toEqual([language, language, 'from-english', `english → ${language} · ${translation}`]);
  }
});

test('a translation between two other languages has no direction; its language is the source', () => {
  const parsed = parseSubsetKey('italian_translated_human_simplified_mandarin');
  expect(parsed).toEqual({ key: 'italian_translated_human_simplified_mandarin', kind: 'translated', sourceLanguage: 'italian', questionLanguage: 'simplified_mandarin', translation: 'human' });
  expect([subsetDirection(parsed), subsetLanguage(parsed), contentLanguage(parsed.key)]).toEqual([undefined, 'italian', 'simplified_mandarin']);
});

test('English to English counts as to English (the mother-tongue side)', () => {
  const parsed = parseSubsetKey('english_translated_machine_english');
  expect([subsetDirection(parsed), subsetLanguage(parsed)]).toEqual(['to-english', 'english']);
});

test('a key that is not of the translated form is a local key, whatever it holds', () => {
  for (const key of ['italian_translated', 'italian_translated_other_english', '_translated_human_', 'italian_translated_human_', 'my-own folder']) {
    expect(parseSubsetKey(key)).toEqual({ key, kind: 'local', language: key });
  }
});

test('the first marker splits a key (the folder is a language name; the rest is the file\'s)', () => {
  const parsed = parseSubsetKey('italian_translated_human_x_translated_machine_english');
  expect(parsed).toMatchObject({ sourceLanguage: 'italian', questionLanguage: 'x_translated_machine_english', translation: 'human' });
});
