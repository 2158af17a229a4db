// eval.py's language keys and Python's sort order, checked against python3 itself (second method).
import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { compareCodePoints, subsetKey } from '../../src/benchmarks/multiloko/data/layout.ts';
import { hasCommand } from './helpers.ts';

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
