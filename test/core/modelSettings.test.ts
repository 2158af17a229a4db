// `multiloko.model` / `kalahi.model` (LOKAL_MULTILOKO_MODEL / LOKAL_KALAHI_MODEL) beside the shared model.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { KALAHI_SETTINGS } from '../../src/benchmarks/kalahi/settings.ts';
import { MULTILOKO_SETTINGS } from '../../src/benchmarks/multiloko/settings.ts';
import { benchmarkModel, LokalConfigError, resolveSettingsTree, sectionSettings } from '../../src/core/settings.ts';
import { ReplayProvider } from '../../src/models/replay.ts';

const SECTIONS = [MULTILOKO_SETTINGS, KALAHI_SETTINGS];
const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-model-settings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a model per benchmark', () => {
  test('kalahi.model in the file and LOKAL_MULTILOKO_MODEL override the shared model for their benchmark only', () => {
    writeFileSync(path.join(dir, 'lokal.config.json'), JSON.stringify({ model: 'replay:a.jsonl', kalahi: { model: 'openai:qwen' } }));
    const tree = resolveSettingsTree(SECTIONS, {}, { cwd: dir, env: { LOKAL_MULTILOKO_MODEL: 'replay:b.jsonl' } });
    expect(benchmarkModel(tree, KALAHI_SETTINGS)).toEqual({ model: 'openai:qwen', setting: 'LOKAL_KALAHI_MODEL' });
    expect(benchmarkModel(tree, MULTILOKO_SETTINGS)).toEqual({ model: 'replay:b.jsonl', setting: 'LOKAL_MULTILOKO_MODEL' });
    expect(sectionSettings<{ model?: string }>(tree, KALAHI_SETTINGS).model).toBe('openai:qwen');
    expect(tree.model).toBe('replay:a.jsonl');
  });

  test('without one, the shared model (named by LOKAL_MODEL)', () => {
    const tree = resolveSettingsTree(SECTIONS, {}, { cwd: path.join(dir, 'none'), env: { LOKAL_MODEL: 'replay:a.jsonl' } });
    expect(benchmarkModel(tree, KALAHI_SETTINGS)).toEqual({ model: 'replay:a.jsonl', setting: 'LOKAL_MODEL' });
  });

  test('a bad model list in LOKAL_KALAHI_MODEL is an error naming that variable', () => {
    expect(() => resolveSettingsTree(SECTIONS, {}, { cwd: path.join(dir, 'none'), env: { LOKAL_KALAHI_MODEL: 'replay:a.jsonl,replay:a.jsonl' } })).toThrow(LokalConfigError);
    expect(() => resolveSettingsTree(SECTIONS, {}, { cwd: path.join(dir, 'none'), env: { LOKAL_KALAHI_MODEL: 'replay:a.jsonl,replay:a.jsonl' } })).toThrow(/^LOKAL_KALAHI_MODEL: .*twice/);
  });
});

describe('which benchmarks a predictions file serves', () => {
  const names = ['multiloko', 'kalahi'];
  const file = (languages: string[]) => new ReplayProvider('p.jsonl', languages.map((language, i) => ({ language, id: i, prediction: 'x', line: i + 1 })));
  test('MultiLoKo rows (eval.py language keys) serve MultiLoKo only', () => {
    const replay = file(['italian', 'italian_translated_human_english']);
    expect(replay.servesBenchmark('multiloko', names)).toBe(true);
    expect(replay.servesBenchmark('kalahi', names)).toBe(false);
  });
  test('Kalahi rows serve Kalahi only; both kinds serve both', () => {
    expect(file(['kalahi']).servesBenchmark('multiloko', names)).toBe(false);
    expect(file(['kalahi']).servesBenchmark('kalahi', names)).toBe(true);
    expect(file(['kalahi', 'french']).servesBenchmark('multiloko', names)).toBe(true);
    expect(file(['kalahi', 'french']).servesBenchmark('kalahi', names)).toBe(true);
  });
});
