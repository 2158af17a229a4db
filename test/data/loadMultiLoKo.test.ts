// loadMultiLoKo on the self-authored fixture: folder, parent folder, archive, default locations, layout rules.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DataError } from '../../src/data/index.ts';
import { loadMultiLoKo, type MultiLoKoDataset } from '../../src/benchmarks/multiloko/index.ts';
import { buildArchive, entriesOfFolder, fixtureAsBenchmarkData, fixtureDir, removeDir, tempDir } from './helpers.ts';

// Expected layout of data/fixtures/multiloko for split "dev", written down by hand from the files and
// eval.py's rules: folders sorted, `*debug*` skipped, key = basename without .jsonl with "dev" → folder.
const EXPECTED_DEV = [
  { key: 'english', folder: 'english', file: 'english/dev.jsonl', sourceLanguage: 'english', questionLanguage: 'english', translated: false, translation: undefined, count: 2 },
  { key: 'english_translated_human_italian', folder: 'english', file: 'english/dev_translated_human_italian.jsonl', sourceLanguage: 'english', questionLanguage: 'italian', translated: true, translation: 'human', count: 2 },
  { key: 'english_translated_human_simplified_mandarin', folder: 'english', file: 'english/dev_translated_human_simplified_mandarin.jsonl', sourceLanguage: 'english', questionLanguage: 'simplified_mandarin', translated: true, translation: 'human', count: 2 },
  { key: 'english_translated_machine_italian', folder: 'english', file: 'english/dev_translated_machine_italian.jsonl', sourceLanguage: 'english', questionLanguage: 'italian', translated: true, translation: 'machine', count: 2 },
  { key: 'italian', folder: 'italian', file: 'italian/dev.jsonl', sourceLanguage: 'italian', questionLanguage: 'italian', translated: false, translation: undefined, count: 3 },
  { key: 'italian_translated_human_english', folder: 'italian', file: 'italian/dev_translated_human_english.jsonl', sourceLanguage: 'italian', questionLanguage: 'english', translated: true, translation: 'human', count: 3 },
  { key: 'italian_translated_machine_english', folder: 'italian', file: 'italian/dev_translated_machine_english.jsonl', sourceLanguage: 'italian', questionLanguage: 'english', translated: true, translation: 'machine', count: 3 },
  { key: 'simplified_mandarin', folder: 'simplified_mandarin', file: 'simplified_mandarin/dev.jsonl', sourceLanguage: 'simplified_mandarin', questionLanguage: 'simplified_mandarin', translated: false, translation: undefined, count: 2 },
  { key: 'simplified_mandarin_translated_human_english', folder: 'simplified_mandarin', file: 'simplified_mandarin/dev_translated_human_english.jsonl', sourceLanguage: 'simplified_mandarin', questionLanguage: 'english', translated: true, translation: 'human', count: 2 },
];

function summary(dataset: MultiLoKoDataset) {
  return dataset.subsets.map((s) => ({
    key: s.key,
    folder: s.folder,
    file: s.file,
    sourceLanguage: s.sourceLanguage,
    questionLanguage: s.questionLanguage,
    translated: s.translated,
    translation: s.translation,
    count: s.items.length,
  }));
}

function checkFixtureDev(dataset: MultiLoKoDataset): void {
  expect(dataset.split).toBe('dev');
  expect(summary(dataset)).toEqual(EXPECTED_DEV);
  expect(Object.keys(dataset.fewshot).sort()).toEqual(['english', 'italian']);
  expect(dataset.fewshot.italian!.map((x) => x.answer)).toEqual(['Palermo', '20']);
  expect(dataset.fewshot.english!.map((x) => x.question)).toEqual(['What is the capital of Scotland?']);
  const italian = dataset.subsets.find((s) => s.key === 'italian')!;
  expect(italian.items.map((i) => i.id)).toEqual(['001_colosseo.txt', '002_po.txt', '003_repubblica.txt']);
  expect(italian.items[1]!.targets).toEqual(['652 km', '652 chilometri', 'seicentocinquantadue chilometri']);
  expect(italian.items[2]!.output_type).toBe('una data');
  // JSON number ids stay numbers (eval.py keeps the JSON type).
  expect(dataset.subsets.find((s) => s.key === 'english')!.items.map((i) => i.id)).toEqual([101, 102]);
  expect(dataset.subsets.find((s) => s.key === 'english_translated_human_simplified_mandarin')!.items[1]!.targets).toEqual(['泰晤士河']);
}

let work: string;
beforeAll(async () => {
  work = await tempDir();
});
afterAll(async () => {
  await removeDir(work);
});

describe('the three kinds of location', () => {
  test('the extracted folder itself', async () => {
    const dataset = await loadMultiLoKo(fixtureDir, 'dev');
    expect(dataset.location).toBe(fixtureDir);
    checkFixtureDev(dataset);
  });

  test('the parent of benchmark_data/', async () => {
    const parent = path.join(work, 'parent');
    await mkdir(parent);
    const inner = await fixtureAsBenchmarkData(parent);
    const dataset = await loadMultiLoKo(parent, 'dev');
    expect(dataset.location).toBe(inner);
    checkFixtureDev(dataset);
  });

  test('the encrypted archive, read in memory; same content as the folder', async () => {
    const archive = path.join(work, 'fixture.tar.xz.enc');
    await writeFile(archive, await buildArchive(await entriesOfFolder(fixtureDir, 'benchmark_data')));
    const dataset = await loadMultiLoKo(archive, 'dev');
    expect(dataset.location).toBe(archive);
    checkFixtureDev(dataset);
    const fromFolder = await loadMultiLoKo(fixtureDir, 'dev');
    expect(dataset.subsets).toEqual(fromFolder.subsets);
    expect(dataset.fewshot).toEqual(fromFolder.fewshot);
  });

  test('an archive whose entries carry a ./ prefix, or no benchmark_data/ folder', async () => {
    const entries = await entriesOfFolder(fixtureDir, 'benchmark_data');
    const dotted = path.join(work, 'dotted.enc');
    await writeFile(dotted, await buildArchive(entries.map((e) => ({ ...e, name: `./${e.name}` }))));
    checkFixtureDev(await loadMultiLoKo(dotted));
    const bare = path.join(work, 'bare.enc');
    await writeFile(bare, await buildArchive(await entriesOfFolder(fixtureDir, '.')));
    checkFixtureDev(await loadMultiLoKo(bare));
  });

  test('a folder that holds only the archive', async () => {
    const dir = path.join(work, 'only-archive');
    await mkdir(dir);
    await writeFile(path.join(dir, 'benchmark_data.tar.xz.enc'), await buildArchive(await entriesOfFolder(fixtureDir, 'benchmark_data')));
    const dataset = await loadMultiLoKo(dir);
    expect(dataset.location).toBe(path.join(dir, 'benchmark_data.tar.xz.enc'));
    checkFixtureDev(dataset);
  });
});

describe('layout rules', () => {
  test('another split only takes its own files', async () => {
    const dataset = await loadMultiLoKo(fixtureDir, 'test');
    expect(summary(dataset)).toEqual([
      { key: 'italian', folder: 'italian', file: 'italian/test.jsonl', sourceLanguage: 'italian', questionLanguage: 'italian', translated: false, translation: undefined, count: 1 },
    ]);
    expect(dataset.subsets[0]!.items[0]!.targets).toEqual(['Lago di Garda', 'Garda']);
  });

  test('translated files load without the local file; keys replace every occurrence of the split name', async () => {
    const root = path.join(work, 'partial');
    await mkdir(path.join(root, 'hindi'), { recursive: true });
    await mkdir(path.join(root, 'debug_lang'), { recursive: true });
    const row = JSON.stringify({ id: 'q1', targets: ['x'] });
    // Split "dev" inside the language name "devanagari": eval.py's str.replace turns both into the folder name.
    await writeFile(path.join(root, 'hindi', 'dev_translated_human_devanagari_dev.jsonl'), `${row}\n`);
    await writeFile(path.join(root, 'hindi', 'dev_translated_machine_english.jsonl'), `${row}\n`);
    await writeFile(path.join(root, 'debug_lang', 'dev.jsonl'), 'not json at all\n');
    await writeFile(path.join(root, 'dev.jsonl'), 'a plain file at the top is skipped\n');
    const dataset = await loadMultiLoKo(root);
    expect(summary(dataset)).toEqual([
      { key: 'hindi_translated_human_hindianagari_hindi', folder: 'hindi', file: 'hindi/dev_translated_human_devanagari_dev.jsonl', sourceLanguage: 'hindi', questionLanguage: 'devanagari_dev', translated: true, translation: 'human', count: 1 },
      { key: 'hindi_translated_machine_english', folder: 'hindi', file: 'hindi/dev_translated_machine_english.jsonl', sourceLanguage: 'hindi', questionLanguage: 'english', translated: true, translation: 'machine', count: 1 },
    ]);
    expect(dataset.fewshot).toEqual({});
  });

  test('unknown fields are kept', async () => {
    const root = path.join(work, 'extra-fields');
    await mkdir(path.join(root, 'polish'), { recursive: true });
    await writeFile(path.join(root, 'polish', 'dev.jsonl'), `${JSON.stringify({ id: 7, targets: ['Wisła'], translator_note: 'n', rank: 3 })}\n`);
    const [subset] = (await loadMultiLoKo(root)).subsets;
    expect(subset!.items).toEqual([{ id: 7, targets: ['Wisła'], translator_note: 'n', rank: 3 }]);
  });

  test('a split with no files is an error that names the split and the folders seen', async () => {
    const error = await loadMultiLoKo(fixtureDir, 'validation').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataError);
    expect((error as DataError).file).toBe(fixtureDir);
    expect((error as DataError).message).toContain('"validation"');
    expect((error as DataError).message).toContain('validation.jsonl');
    expect((error as DataError).message).toContain('english, italian, italian_debug, simplified_mandarin');
  });

  test('an empty split name is refused (str.replace("") would rewrite every key)', async () => {
    await expect(loadMultiLoKo(fixtureDir, '')).rejects.toThrow(/invalid split name ""/);
  });

  test('a translated-looking file with an unknown pattern is named', async () => {
    const root = path.join(work, 'odd-name');
    await mkdir(path.join(root, 'czech'), { recursive: true });
    await writeFile(path.join(root, 'czech', 'dev.jsonl'), `${JSON.stringify({ id: 1, targets: ['a'] })}\n`);
    await writeFile(path.join(root, 'czech', 'dev_translated_by_hand.jsonl'), `${JSON.stringify({ id: 1, targets: ['a'] })}\n`);
    const error = (await loadMultiLoKo(root).catch((e: unknown) => e)) as DataError;
    expect(error).toBeInstanceOf(DataError);
    expect(error.file).toBe(path.join(root, 'czech', 'dev_translated_by_hand.jsonl'));
    expect(error.message).toContain('dev_translated_{human|machine}_<language>.jsonl');
  });
});

describe('default location', () => {
  test('LOKAL_MULTILOKO wins', async () => {
    const dataset = await loadMultiLoKo(undefined, 'dev', { env: { LOKAL_MULTILOKO: fixtureDir }, cwd: work });
    expect(dataset.location).toBe(fixtureDir);
  });

  test('LOKAL_MULTILOKO pointing nowhere is named, with the ways to provide the data', async () => {
    const missing = path.join(work, 'nope.enc');
    const error = (await loadMultiLoKo(undefined, 'dev', { env: { LOKAL_MULTILOKO: missing } }).catch((e: unknown) => e)) as DataError;
    expect(error).toBeInstanceOf(DataError);
    expect(error.code).toBe('not-found');
    expect(error.file).toBe(missing);
    expect(error.message).toContain('from LOKAL_MULTILOKO');
    expect(error.message).toContain('npx lokal data fetch');
  });

  test('then ./data/benchmark_data.tar.xz.enc, then ./data/benchmark_data/', async () => {
    const cwdArchive = path.join(work, 'cwd-archive');
    await mkdir(path.join(cwdArchive, 'data'), { recursive: true });
    await writeFile(path.join(cwdArchive, 'data', 'benchmark_data.tar.xz.enc'), await buildArchive(await entriesOfFolder(fixtureDir, 'benchmark_data')));
    await fixtureAsBenchmarkData(path.join(cwdArchive, 'data'));
    expect((await loadMultiLoKo(undefined, 'dev', { env: {}, cwd: cwdArchive })).location).toBe(path.join(cwdArchive, 'data', 'benchmark_data.tar.xz.enc'));

    const cwdFolder = path.join(work, 'cwd-folder');
    await mkdir(path.join(cwdFolder, 'data'), { recursive: true });
    const folder = await fixtureAsBenchmarkData(path.join(cwdFolder, 'data'));
    const dataset = await loadMultiLoKo(undefined, 'dev', { env: {}, cwd: cwdFolder });
    expect(dataset.location).toBe(folder);
    checkFixtureDev(dataset);
  });

  test('nothing anywhere: the error says exactly how to provide the files', async () => {
    const empty = path.join(work, 'empty-cwd');
    await mkdir(empty);
    const error = (await loadMultiLoKo(undefined, 'dev', { env: {}, cwd: empty }).catch((e: unknown) => e)) as DataError;
    expect(error).toBeInstanceOf(DataError);
    expect(error.code).toBe('not-found');
    expect(error.message).toContain('set LOKAL_MULTILOKO');
    expect(error.message).toContain('run `npx lokal data fetch`');
    expect(error.message).toContain(path.join('data', 'benchmark_data.tar.xz.enc'));
    expect(error.message).toContain(path.join(empty, 'data', 'benchmark_data.tar.xz.enc'));
  });

  test('a folder with nothing MultiLoKo in it is named', async () => {
    const dir = path.join(work, 'unrelated');
    await mkdir(path.join(dir, 'photos'), { recursive: true });
    await writeFile(path.join(dir, 'photos', 'a.txt'), 'x');
    const error = (await loadMultiLoKo(dir).catch((e: unknown) => e)) as DataError;
    expect(error.file).toBe(dir);
    expect(error.message).toContain('holds no MultiLoKo data');
  });
});
