// The shared-fixture helper (test/support/sharedFixture.ts): a fixture is built once per run however many files or
// concurrent callers ask, a failed build is reported and retried by the next caller, and the shared tiny model is
// the same files writeTinyModel writes.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { sharedFixture, sharedTinyEncoder, sharedTinyModel } from './support/sharedFixture.ts';
import { writeTinyEncoder } from './support/tinyEncoder.ts';
import { writeTinyModel } from './support/tinyModel.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'lokal-shared-fixture-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const unique = `${process.pid}-${Date.now()}`;

/** Every file under a folder (relative paths, sorted) with its bytes. */
function files(root: string): Array<[string, Buffer]> {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name !== '.built')
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .sort()
    .map((f) => [f, readFileSync(path.join(root, f))]);
}

describe('sharedFixture', () => {
  test('concurrent callers get one folder under the provided sharedFixturesDir, built once', async () => {
    let builds = 0;
    const build = async (folder: string) => {
      builds++;
      await new Promise((resolve) => setTimeout(resolve, 50));
      await import('node:fs').then((fs) => fs.writeFileSync(path.join(folder, 'value.txt'), 'built'));
    };
    const folders = await Promise.all([sharedFixture(`once-${unique}`, build), sharedFixture(`once-${unique}`, build), sharedFixture(`once-${unique}`, build)]);
    expect(builds).toBe(1);
    expect(new Set(folders).size).toBe(1);
    expect(path.dirname(folders[0]!)).toBe(inject('sharedFixturesDir'));
    expect(readFileSync(path.join(folders[0]!, 'value.txt'), 'utf8')).toBe('built');
    expect(await sharedFixture(`once-${unique}`, build)).toBe(folders[0]);
    expect(builds).toBe(1);
  });

  test('a failing build rejects with its error, leaves nothing behind, and the next caller builds again', async () => {
    const name = `fails-${unique}`;
    await expect(sharedFixture(name, () => { throw new Error('no weights today'); })).rejects.toThrow('no weights today');
    expect(readdirSync(inject('sharedFixturesDir')).filter((f) => f.startsWith(name))).toEqual([]);
    const folder = await sharedFixture(name, (f) => import('node:fs').then((fs) => fs.writeFileSync(path.join(f, 'ok'), '1')));
    expect(readFileSync(path.join(folder, 'ok'), 'utf8')).toBe('1');
  });

  test('a name that is not a plain folder name is refused', () => {
    expect(() => sharedFixture('../escape', () => undefined)).toThrow(/use letters, digits/u);
  });

  test('sharedTinyModel and sharedTinyEncoder write what writeTinyModel and writeTinyEncoder write; equal specs share a folder', async () => {
    const model = await sharedTinyModel({ seed: 41, layers: 1, hidden: 16, vocab: 300 });
    expect(await sharedTinyModel({ vocab: 300, hidden: 16, layers: 1, seed: 41 })).toBe(model);
    writeTinyModel(path.join(dir, 'model'), { seed: 41, layers: 1, hidden: 16, vocab: 300 });
    expect(files(model)).toEqual(files(path.join(dir, 'model')));
    const encoder = await sharedTinyEncoder({ kind: 'regression', seed: 42 });
    writeTinyEncoder(path.join(dir, 'encoder'), { kind: 'regression', seed: 42 });
    expect(files(encoder)).toEqual(files(path.join(dir, 'encoder')));
    expect(await sharedTinyModel({ seed: 43, layers: 1, hidden: 16, vocab: 300 })).not.toBe(model);
  });
});
