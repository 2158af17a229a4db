import { describe, expect, test } from 'vitest';
import type { MultiLoKoDataset, MultiLoKoSubset } from '../../src/benchmarks/multiloko/index.ts';
import { itemTestName, multilokoItemKey, subsetLanguage, subsetName } from '../../src/benchmarks/multiloko/run/names.ts';
import { shorten } from '../../src/core/shorten.ts';
import { selectSubsets } from '../../src/benchmarks/multiloko/run/select.ts';

function subset(folder: string, file: string, questionLanguage = folder, translation?: 'human' | 'machine'): MultiLoKoSubset {
  const translated = translation !== undefined;
  return {
    key: translated ? `${folder}_translated_${translation}_${questionLanguage}` : folder,
    folder, file: `${folder}/${file}`, sourceLanguage: folder, questionLanguage, translated,
    ...(translation ? { translation } : {}),
    items: [1, 2, 3].map((i) => ({ id: `${folder}-${i}`, question: `q${i}`, targets: ['t'] })),
  };
}

const dataset: MultiLoKoDataset = {
  split: 'dev',
  location: '/data',
  fewshot: {},
  subsets: [
    subset('english', 'dev.jsonl'),
    subset('english', 'dev_translated_human_italian.jsonl', 'italian', 'human'),
    subset('english', 'dev_translated_machine_italian.jsonl', 'italian', 'machine'),
    subset('french', 'dev.jsonl'),
    subset('italian', 'dev.jsonl'),
    subset('italian', 'dev_translated_human_english.jsonl', 'english', 'human'),
  ],
};

const keys = (config: Parameters<typeof selectSubsets>[1]) => selectSubsets(dataset, config).map((s) => `${s.order}:${s.subset.key}`);

describe('names', () => {
  test('describe names and languages of subsets', () => {
    expect(dataset.subsets.map(subsetName)).toEqual([
      'english · local', 'english → italian · human', 'english → italian · machine', 'french · local', 'italian · local', 'italian → english · human',
    ]);
    expect(dataset.subsets.map(subsetLanguage)).toEqual(['english', 'italian', 'italian', 'french', 'italian', 'italian']);
  });

  test('item test names: id and question, whitespace collapsed, cut at 60 code points', () => {
    expect(itemTestName({ id: 7, question: 'Quando è\n stato  lanciato?' })).toBe('7 · Quando è stato lanciato?');
    expect(itemTestName({ id: 'x', question: undefined })).toBe('x');
    const long = '😀'.repeat(70);
    expect(shorten(long, 60)).toBe('😀'.repeat(59) + '…');
    expect(Array.from(itemTestName({ id: 'x', question: long })).length).toBe('x · '.length + 60);
    expect(multilokoItemKey('italian_translated_human_english', 12)).toBe('multiloko/italian_translated_human_english/12');
  });
});

describe('selectSubsets', () => {
  test('all subsets by default, in dataset order', () => {
    expect(keys({})).toEqual(['0:english', '1:english_translated_human_italian', '2:english_translated_machine_italian', '3:french', '4:italian', '5:italian_translated_human_english']);
  });

  test('languages pick a subset by its non-English side; kinds and keys combine as a union', () => {
    expect(keys({ languages: ['italian'] })).toEqual(['1:english_translated_human_italian', '2:english_translated_machine_italian', '4:italian', '5:italian_translated_human_english']);
    expect(keys({ languages: ['english'] })).toEqual(['0:english']);
    expect(keys({ subsets: ['local'] })).toEqual(['0:english', '3:french', '4:italian']);
    expect(keys({ subsets: ['machine', 'to-english'] })).toEqual(['2:english_translated_machine_italian', '5:italian_translated_human_english']);
    expect(keys({ subsets: ['from-english'], languages: ['italian'] })).toEqual(['1:english_translated_human_italian', '2:english_translated_machine_italian']);
    expect(keys({ subsets: ['french'] })).toEqual(['3:french']);
  });

  test('LOKAL_LIMIT keeps the first items', () => {
    expect(selectSubsets(dataset, { subsets: ['local'], limit: 2 }).map((s) => s.items.map((i) => i.id))).toEqual([
      ['english-1', 'english-2'], ['french-1', 'french-2'], ['italian-1', 'italian-2'],
    ]);
  });

  test('unknown languages, selectors and empty selections are explained', () => {
    expect(() => keys({ languages: ['german'] })).toThrow('LOKAL_LANGUAGES: "german" is not in /data (split dev); it has: english, italian, french');
    expect(() => keys({ subsets: ['locals'] })).toThrow(/^LOKAL_SUBSETS: "locals" is neither a kind \(local, translated, human, machine, to-english, from-english\)/);
    expect(() => keys({ languages: ['french'], subsets: ['human'] })).toThrow(/^selection: no subset of \/data matches/);
  });
});
