// writeFileAtomic: the whole file or nothing, and a failure names the path and leaves no temporary file behind.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { FileWriteError, writeFileAtomic } from '../../src/core/io.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-io-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('writeFileAtomic', () => {
  test('writes the content, creating folders', async () => {
    const file = path.join(dir, 'a', 'b', 'out.json');
    await writeFileAtomic(file, '{"x":1}\n');
    expect(readFileSync(file, 'utf8')).toBe('{"x":1}\n');
  });

  test('a target that is a folder fails naming it (EISDIR) and leaves no temporary file', async () => {
    const target = path.join(dir, 'folder.json');
    mkdirSync(target);
    writeFileSync(path.join(target, 'keep'), '');
    const failure = writeFileAtomic(target, 'x');
    await expect(failure).rejects.toThrow(FileWriteError);
    await expect(failure).rejects.toThrow(`cannot write ${target} (EISDIR)`);
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  test('a parent that is a file fails naming the target', async () => {
    const parent = path.join(dir, 'plain');
    writeFileSync(parent, '');
    await expect(writeFileAtomic(path.join(parent, 'out.json'), 'x')).rejects.toThrow(`cannot write ${path.join(parent, 'out.json')} (`);
  });
});
