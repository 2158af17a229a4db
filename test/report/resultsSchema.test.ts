// The results files' schemas on files the real writers produced (a MultiLoKo replay run, a Kalahi replay run), on
// copies edited to be wrong (the error names the file and the field), and the readers that parse with them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { MultiLoKoResultsSchema } from '../../src/benchmarks/multiloko/resultsSchema.ts';
import { KalahiResultsSchema } from '../../src/benchmarks/kalahi/resultsSchema.ts';
import { parseBaseline } from '../../src/benchmarks/multiloko/run/baseline.ts';
import { parseKalahiBaseline } from '../../src/benchmarks/kalahi/run/baselineGate.ts';
import { fieldPath, parseResultsFile } from '../../src/core/resultsFile.ts';
import { GROUPS_LAYOUT } from '../../src/report/groupsResults.ts';
import { readRunResults } from '../../src/report/index.ts';
import { haveKalahiData, hostileKalahi, hostileMultiLoKo, kalahiReplayRun, sharedMultilokoReplayRun } from './fixtures.ts';
import { SECTIONS } from './sections.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-schema-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `value` written as `<folder>/<name>`; returns the folder. */
function folderWith(folder: string, name: string, value: unknown): string {
  const at = path.join(dir, folder);
  mkdirSync(at, { recursive: true });
  writeFileSync(path.join(at, name), JSON.stringify(value));
  return at;
}

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

test('field paths read as a reader writes them', () => {
  expect(fieldPath(['summary', 'gates', 0, 'pass'])).toBe('summary.gates[0].pass');
  expect(fieldPath(['italian', '004_tg norba.txt', 'em'])).toBe('italian["004_tg norba.txt"].em');
  expect(fieldPath([])).toBe('(the top level)');
});

describe('multiloko.json', () => {
  test('a replay run\'s file parses, and reads as it is written (languages in the file\'s order)', async () => {
    const { results } = await sharedMultilokoReplayRun();
    expect(MultiLoKoResultsSchema.safeParse(results).error?.issues).toBeUndefined();
    const read = readRunResults(folderWith('ml-good', 'multiloko.json', results), SECTIONS);
    expect(Object.keys(read.benchmarks!.multiloko!)).toEqual(Object.keys(results));
    expect(read.benchmarks!.multiloko).toEqual(results);
  });

  test('an item\'s em as a string: the error names the file and the item\'s field', async () => {
    const results = copy((await sharedMultilokoReplayRun()).results) as Record<string, Record<string, Record<string, unknown>>>;
    const [language, entry] = Object.entries(results).find(([key]) => key !== 'summary' && key !== 'group_metrics' && key !== 'lokal')!;
    const id = Object.keys(entry).find((k) => typeof entry[k] === 'object')!;
    entry[id]!.em = '1';
    const folder = folderWith('ml-bad-em', 'multiloko.json', results);
    expect(() => readRunResults(folder, SECTIONS)).toThrow(`${path.join(folder, 'multiloko.json')}: ${fieldPath([language, id, 'em'])}: Invalid input: expected number, received string`);
  });

  test('a gate outcome\'s pass as a string, and its baseline read', async () => {
    const results = copy((await sharedMultilokoReplayRun()).results);
    expect(results.summary!.gates!.length).toBeGreaterThan(0);
    (results.summary!.gates![0] as Record<string, unknown>).pass = 'yes';
    const file = path.join(folderWith('ml-bad-gate', 'multiloko.json', results), 'multiloko.json');
    expect(() => readRunResults(file, SECTIONS)).toThrow(`${file}: summary.gates[0].pass: Invalid input: expected boolean, received string`);
    expect(() => parseBaseline(JSON.stringify(results), file)).toThrow(`baseline ${file} field "summary.gates[0].pass": Invalid input: expected boolean, received string`);
  });

  test('the hand-made file of hostile strings parses too', () => {
    expect(() => parseResultsFile(MultiLoKoResultsSchema, hostileMultiLoKo(), 'hostile.json')).not.toThrow();
  });
});

describe('kalahi.json', () => {
  test('the hand-made file parses; a record\'s metric acc as a string names its path', () => {
    const results = hostileKalahi();
    expect(KalahiResultsSchema.safeParse(results).error?.issues).toBeUndefined();
    const bad = copy(results);
    (bad.variants!.full!.records![3]!.generation!.metrics!.bleu as Record<string, unknown>).acc = 'one';
    const file = path.join(folderWith('ka-bad', 'kalahi.json', bad), 'kalahi.json');
    expect(() => readRunResults(file, SECTIONS)).toThrow(`${file}: variants.full.records[3].generation.metrics.bleu.acc: Invalid input: expected number, received string`);
    expect(() => parseKalahiBaseline(JSON.stringify(bad), file)).toThrow(`baseline ${file} field "variants.full.records[3].generation.metrics.bleu.acc"`);
  });

  test.skipIf(!haveKalahiData)('a replay run\'s file parses (needs ../shared/data/kalahi)', async () => {
    const results = await kalahiReplayRun(path.join(dir, 'kalahi-run'), 6);
    expect(KalahiResultsSchema.safeParse(results).error?.issues).toBeUndefined();
    expect(readRunResults(folderWith('ka-good', 'kalahi.json', results), SECTIONS).benchmarks!.kalahi).toEqual(results);
  }, 120_000);
});

test('a file in the groups layout with a wrong field is an error, not a file skipped', () => {
  const folder = folderWith('groups-bad', 'capitals.json', { layout: GROUPS_LAYOUT, benchmark: 'capitals', title: 'Capitals', confidence: 0.95, figures: [], overall: {}, groups: [], gates: 'none' });
  expect(() => readRunResults(folder, SECTIONS)).toThrow(`${path.join(folder, 'capitals.json')}: overall.selected: Invalid input: expected number, received undefined`);
});
