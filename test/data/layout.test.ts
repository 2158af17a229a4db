// eval.py's language keys and Python's sort order, checked against python3 itself (second method).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { compareCodePoints, subsetKey } from '../../src/benchmarks/multiloko/data/layout.ts';
import { loadMultiLoKo } from '../../src/benchmarks/multiloko/data/multiloko.ts';
import { DataError } from '../../src/data/errors.ts';
import { fixtureDir, hasCommand } from './helpers.ts';

const CASES: Array<[name: string, split: string, folder: string]> = [
  ['dev_translated_human_english.jsonl', 'dev', 'italian'],
  ['dev_translated_machine_simplified_mandarin.jsonl', 'dev', 'english'],
  ['dev_translated_human_devanagari_dev.jsonl', 'dev', 'hindi'],
  ['de_translated_human_german.jsonl', 'de', 'deutsch'],
  ['test_translated_machine_english.jsonl', 'test', 'czech'],
  ['dev_translated_human_english.jsonl.jsonl', 'dev', 'farsi'],
  ['dev_translated_human_english.jsonl', 'ev', 'x'],
];

describe('subsetKey', () => {
  test('hand-derived: the official example', () => {
    // README + eval.py: italian/dev_translated_human_english.jsonl → italian_translated_human_english
    expect(subsetKey('dev_translated_human_english.jsonl', 'dev', 'italian')).toBe('italian_translated_human_english');
    expect(subsetKey('dev_translated_machine_italian.jsonl', 'dev', 'english')).toBe('english_translated_machine_italian');
  });

  test.skipIf(!hasCommand('python3', ['--version']))('equals Python: name.split(".jsonl")[0].replace(split, folder)', () => {
    const py = spawnSync(
      'python3',
      ['-c', 'import json,sys\nprint(json.dumps([n.split(".jsonl")[0].replace(s, f) for n, s, f in json.loads(sys.stdin.read())]))'],
      { input: JSON.stringify(CASES), encoding: 'utf8' },
    );
    expect(py.stderr).toBe('');
    expect(CASES.map(([n, s, f]) => subsetKey(n, s, f))).toEqual(JSON.parse(py.stdout));
  });
});

describe('compareCodePoints', () => {
  test.skipIf(!hasCommand('python3', ['--version']))("sorts like Python's sorted() (code points, not UTF-16 units)", () => {
    const names = ['italian', 'Italian', 'english', 'simplified_mandarin', 'ｆｕｌｌ', '😀emoji', 'z', 'ä', 'a_b', 'ab', ''];
    const py = spawnSync('python3', ['-c', 'import json,sys\nprint(json.dumps(sorted(json.loads(sys.stdin.read())), ensure_ascii=True))'], {
      input: JSON.stringify(names),
      encoding: 'utf8',
    });
    expect([...names].sort(compareCodePoints)).toEqual(JSON.parse(py.stdout));
    // The plain JS sort differs here (U+FF46 > U+D83D as units, < U+1F600 as code points).
    expect([...names].sort()).not.toEqual(JSON.parse(py.stdout));
  });
});

describe('language folders a results file cannot hold', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-layout-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A dataset of the fixture's Italian questions under `italian/` and under `language/`. */
  function dataset(language: string): string {
    const root = path.join(dir, `d-${language}`);
    for (const folder of ['italian', language]) {
      mkdirSync(path.join(root, folder), { recursive: true });
      copyFileSync(path.join(fixtureDir, 'italian', 'dev.jsonl'), path.join(root, folder, 'dev.jsonl'));
    }
    return root;
  }

  // Loaded by the one loader, so a Vitest run and `lokal score` give the same error.
  for (const [language, why] of [
    ['summary', 'the results file keeps its own "summary" beside the languages'],
    ['group_metrics', 'the results file keeps its own "group_metrics" beside the languages'],
    ['lokal', 'the results file keeps its own "lokal" beside the languages'],
    ['__proto__', 'every JavaScript object already has a member of that name'],
    ['constructor', 'every JavaScript object already has a member of that name'],
  ] as const) {
    test(`${language}: a layout DataError naming the folder`, async () => {
      const root = dataset(language);
      const error = await loadMultiLoKo(root, 'dev').then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(DataError);
      expect((error as DataError).code).toBe('layout');
      expect((error as Error).message).toBe(`${path.join(root, language)}: gives the language key ${JSON.stringify(language)}, which cannot be one: ${why}${why.startsWith('the results') ? ' (group_metrics, summary, lokal)' : ''}; rename the folder`);
    });
  }

  test('control: names that only look alike load', async () => {
    for (const language of ['Summary', 'summary_x', 'proto']) {
      const loaded = await loadMultiLoKo(dataset(language), 'dev');
      expect(loaded.subsets.map((s) => s.key).sort()).toEqual(['italian', language].sort());
    }
  });
});
