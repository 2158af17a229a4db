import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, vi } from 'vitest';
import { ReplayProvider } from '../../src/models/replay.ts';
import { ModelPool, lokalTest } from '../../src/vitest/fixtures.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-fixture-'));
const file = path.join(dir, 'answers.jsonl');
writeFileSync(file, `${JSON.stringify({ language: 'italian', id: 1, prediction: 'Roma' })}\n`);
// The worker fixture reads LOKAL_MODEL when first used, i.e. in the first test below.
vi.stubEnv('LOKAL_MODEL', `replay:${file}`);
afterAll(() => {
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

let first: unknown;

describe('the model fixture', () => {
  lokalTest('is the provider named by LOKAL_MODEL', async ({ model }) => {
    first = model;
    expect(model).toBeInstanceOf(ReplayProvider);
    const [answer] = await model.generate([{ prompt: 'Capitale?', itemKey: 'multiloko/italian/1' }]);
    expect(answer!.text).toBe('Roma');
  });

  lokalTest('is built once per worker', ({ model }) => {
    expect(model).toBe(first);
  });
});

describe('ModelPool', () => {
  lokalTest('reuses a provider per string and options, retries failures, closes what it built', async () => {
    const pool = new ModelPool();
    const a = await pool.get(`replay:${file}`);
    expect(await pool.get(`replay:${file}`)).toBe(a);
    expect(await pool.get(`replay:${file}`, { replay: { onMissing: 'fail' } })).not.toBe(a);
    const absent = path.join(dir, 'later.jsonl');
    await expect(pool.get(`replay:${absent}`)).rejects.toThrow(/cannot read predictions file/);
    writeFileSync(absent, `${JSON.stringify({ language: 'x', id: 1, prediction: 'y' })}\n`);
    await expect(pool.get(`replay:${absent}`)).resolves.toBeInstanceOf(ReplayProvider);
    const closed: string[] = [];
    (a as ReplayProvider & { close?: () => Promise<void> }).close = async () => void closed.push('a');
    await pool.close();
    expect(closed).toEqual(['a']);
  });
});
