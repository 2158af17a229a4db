// Output settings are checked before any model call: a child Vitest run of the toy benchmark against the fake OpenAI
// server, with an output folder or a response cache that cannot be written, stops at start naming the setting, and
// the server sees no request. The control run (good settings) shows the same run does ask the server.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cacheFileProblem, folderProblem, requireOutputFolder } from '../../src/models/outputCheck.ts';
import { startFakeOpenAIServer, type FakeServer } from '../support/fakeOpenAIServer.ts';
import { unprivilegedJson, unprivilegedUnavailable } from '../support/unprivileged.ts';
import { runVitest } from './helpers.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-output-check-'));
let server: FakeServer;
beforeAll(async () => {
  server = await startFakeOpenAIServer();
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const plainFile = path.join(dir, 'plain.txt');
writeFileSync(plainFile, 'not a folder\n');

async function toyRun(env: Record<string, string>) {
  const before = server.stats.requests;
  const run = await runVitest(['run', '--config', 'test/toy/vitest.config.ts'], {
    LOKAL_MODEL: 'openai:toy-model',
    OPENAI_BASE_URL: server.url,
    OPENAI_API_KEY: 'sk-test',
    LOKAL_OUTPUT: path.join(dir, 'out'),
    LOKAL_CACHE_FILE: path.join(dir, 'cache', 'responses.jsonl'),
    ...env,
  });
  return { ...run, requests: server.stats.requests - before, show: `${run.stdout}\n${run.stderr}` };
}

describe('a child run with unusable output settings', () => {
  test('control: good settings, the server is asked once per item', { timeout: 120_000 }, async () => {
    const run = await toyRun({ LOKAL_CACHE: 'off' });
    expect(run.requests, run.show).toBe(5);
  });

  test('an output folder that is a file: error at start naming LOKAL_OUTPUT, no model call', { timeout: 120_000 }, async () => {
    const run = await toyRun({ LOKAL_OUTPUT: plainFile });
    expect(run.code, run.show).toBe(1);
    expect(run.show).toContain(`LOKAL_OUTPUT (setting "output"): ${plainFile}: is a file, not a folder (checked before any model call)`);
    expect(run.requests).toBe(0);
  });

  // The reporter's start-of-run check of LOKAL_OUTPUT (requireOutputFolder), which the child run above shows stops the
  // run with exit 1 before any model call, here on a folder under a file.
  test('an output folder under a file: error naming the file in the way', () => {
    const folder = path.join(plainFile, 'results');
    expect(() => requireOutputFolder(folder)).toThrow(`LOKAL_OUTPUT (setting "output"): ${folder}: cannot be created: ${plainFile} is a file, not a folder (checked before any model call)`);
  });

  test('a cache file that cannot be created: error naming LOKAL_CACHE_FILE, no model call', { timeout: 120_000 }, async () => {
    const cache = path.join(plainFile, 'responses.jsonl');
    const run = await toyRun({ LOKAL_CACHE_FILE: cache });
    expect(run.code, run.show).toBe(1);
    expect(run.show).toContain(`LOKAL_CACHE_FILE (setting "cacheFile"): ${cache}: its folder is a file, not a folder (LOKAL_CACHE=readwrite; checked before any model call)`);
    expect(run.requests).toBe(0);
  });
});

describe('the checks', () => {
  test('folders: absent under a folder is fine; a file, or a file above, is named', () => {
    expect(folderProblem(path.join(dir, 'new', 'deeper'))).toBeUndefined();
    expect(folderProblem(plainFile)).toBe('is a file, not a folder');
    expect(folderProblem(path.join(plainFile, 'a', 'b'))).toBe(`cannot be created: ${plainFile} is a file, not a folder`);
  });

  test('cache files: a folder, a file above; a missing file is fine to read; off is never checked', () => {
    const folder = path.join(dir, 'cache-folder.jsonl');
    mkdirSync(folder);
    expect(cacheFileProblem(folder, 'readwrite')).toBe('is a folder (EISDIR); give a file name');
    expect(cacheFileProblem(folder, 'read')).toBe('is a folder (EISDIR); give a file name');
    expect(cacheFileProblem(folder, 'off')).toBeUndefined();
    expect(cacheFileProblem(path.join(plainFile, 'c.jsonl'), 'write')).toBe('its folder is a file, not a folder');
    expect(cacheFileProblem(path.join(plainFile, 'c.jsonl'), 'read')).toBeUndefined();
    expect(cacheFileProblem(path.join(dir, 'fresh', 'c.jsonl'), 'readwrite')).toBeUndefined();
  });

  test.skipIf(unprivilegedUnavailable !== undefined)(`a folder without write permission is named with EACCES (as an unprivileged user${unprivilegedUnavailable ? `; skipped: ${unprivilegedUnavailable}` : ''})`, () => {
    const locked = path.join(dir, 'locked');
    mkdirSync(locked);
    chmodSync(locked, 0o555);
    chmodSync(dir, 0o755); // the child must reach the folder to be refused writing in it
    try {
      const problems = unprivilegedJson<string[]>(`
        import { cacheFileProblem, folderProblem } from './src/models/outputCheck.ts';
        const locked = ${JSON.stringify(locked)};
        process.stdout.write(JSON.stringify([folderProblem(locked), folderProblem(locked + '/sub'), cacheFileProblem(locked + '/c.jsonl', 'write'), cacheFileProblem(locked + '/sub/c.jsonl', 'write')]));`);
      expect(problems).toEqual([
        'is not writable (EACCES)',
        `cannot be created: ${locked} is not writable (EACCES)`,
        'its folder is not writable (EACCES)',
        `its folder cannot be created: ${locked} is not writable (EACCES)`,
      ]);
    } finally {
      chmodSync(locked, 0o700);
    }
  });
});
