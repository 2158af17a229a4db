// Which runs share one worker: a local model anywhere in the run's settings (shared model, a
// benchmark's own, the default) means one worker without isolation; remote and replay models keep Vitest's defaults.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { lokalEvalsProjectTest } from '../../src/vitest/config.ts';
import { runUsesLocalModel } from '../../src/vitest/localModelRun.ts';
import { multiloko } from '../../src/benchmarks/index.ts';

const cwd = mkdtempSync(path.join(tmpdir(), 'lokal-local-run-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

describe('runUsesLocalModel', () => {
  const local = (env: Record<string, string>, settings = {}) => runUsesLocalModel(settings, { cwd, env });

  test('transformers:, llama: and the default model are local; openai: and replay: are not', () => {
    expect(local({})).toBe(true);
    expect(local({ LOKAL_MODEL: 'transformers:/models/tiny' })).toBe(true);
    expect(local({ LOKAL_MODEL: 'llama:/models/tiny.gguf' })).toBe(true);
    expect(local({ LOKAL_MODEL: 'openai:gpt-4o-mini' })).toBe(false);
    expect(local({ LOKAL_MODEL: 'replay:predictions.jsonl' })).toBe(false);
  });

  test('a list, a benchmark of its own model, options and lokal.config.json count', () => {
    expect(local({ LOKAL_MODEL: 'openai:a,transformers:/models/tiny' })).toBe(true);
    expect(local({ LOKAL_MODEL: 'openai:a', LOKAL_KALAHI_MODEL: 'llama:/m.gguf' })).toBe(true);
    expect(local({}, { model: 'replay:p.jsonl' })).toBe(false);
    writeFileSync(path.join(cwd, 'lokal.config.json'), JSON.stringify({ model: 'openai:served' }));
    expect(local({})).toBe(false);
    expect(local({ LOKAL_MODEL: 'transformers:/models/tiny' })).toBe(true);
    rmSync(path.join(cwd, 'lokal.config.json'));
  });

  test('a config file that does not parse is left out (the run reports the error later)', () => {
    writeFileSync(path.join(cwd, 'lokal.config.json'), '{"model": "openai:served",');
    expect(local({ LOKAL_MODEL: 'openai:a' })).toBe(false);
    expect(local({})).toBe(true);
    rmSync(path.join(cwd, 'lokal.config.json'));
  });

  test('the settings decide which model wins: LOKAL_MODEL over options and the config file, a benchmark’s own variable over its section', () => {
    // options name a local model, the environment a server: the environment wins (as before this read the settings)
    expect(local({ LOKAL_MODEL: 'openai:a' }, { model: 'transformers:/models/tiny' })).toBe(false);
    expect(local({}, { model: 'transformers:/models/tiny' })).toBe(true);
    // lokal.config.json gives Kalahi a local model, LOKAL_KALAHI_MODEL a server: Kalahi asks the server, no model is local
    writeFileSync(path.join(cwd, 'lokal.config.json'), JSON.stringify({ model: 'openai:served', kalahi: { model: 'llama:/m.gguf' } }));
    expect(local({})).toBe(true);
    expect(local({ LOKAL_KALAHI_MODEL: 'openai:other' })).toBe(false);
    rmSync(path.join(cwd, 'lokal.config.json'));
  });

  test('a benchmark the config registers counts with its own model; an unknown LOKAL_* variable leaves the others read', () => {
    const capitals = { ...multiloko, name: 'capitals', settings: { ...multiloko.settings, key: 'capitals', env: { LOKAL_CAPITALS_MODEL: { field: 'model', parse: (text: string) => text } } } };
    expect(runUsesLocalModel({}, { cwd, env: { LOKAL_MODEL: 'openai:a', LOKAL_CAPITALS_MODEL: 'transformers:/models/tiny' }, benchmarks: [capitals] })).toBe(true);
    expect(runUsesLocalModel({}, { cwd, env: { LOKAL_MODEL: 'openai:a', LOKAL_CAPITALS_MODEL: 'openai:b' }, benchmarks: [capitals] })).toBe(false);
    // not registered here (an eval file registers it): its variable is left out, LOKAL_MODEL still counts
    expect(local({ LOKAL_MODEL: 'openai:a', LOKAL_CAPITALS_MODEL: 'transformers:/models/tiny' })).toBe(false);
    expect(local({ LOKAL_MODEL: 'transformers:/models/tiny', LOKAL_CAPITALS_MODEL: 'openai:b' })).toBe(true);
  });

  test('a benchmark section of options or the config file with a local model of its own counts', () => {
    expect(local({ LOKAL_MODEL: 'openai:a' }, { kalahi: { model: 'transformers:/models/tiny' } })).toBe(true);
    writeFileSync(path.join(cwd, 'lokal.config.json'), JSON.stringify({ model: 'openai:served', multiloko: { model: 'llama:/m.gguf' } }));
    expect(local({})).toBe(true);
    rmSync(path.join(cwd, 'lokal.config.json'));
  });
});

describe('lokalEvalsProjectTest', () => {
  test('oneWorker: one worker, files one after another, no isolation; false keeps Vitest’s defaults', () => {
    expect(lokalEvalsProjectTest({ oneWorker: true })).toMatchObject({ isolate: false, fileParallelism: false });
    const isolated = lokalEvalsProjectTest({ oneWorker: false });
    expect(isolated).not.toHaveProperty('isolate');
    expect(isolated).not.toHaveProperty('fileParallelism');
  });

  test('by default it follows the run’s model', () => {
    expect(lokalEvalsProjectTest({ settings: { model: 'transformers:/models/tiny' } })).toMatchObject({ isolate: false, fileParallelism: false });
    expect(lokalEvalsProjectTest({ settings: { model: 'openai:served' } })).not.toHaveProperty('isolate');
  });
});
