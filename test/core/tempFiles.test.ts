// A failed or killed write leaves no temp file behind: the HTML report writer removes its temp file when the write
// fails (as the results writer does), a later write of a file removes the temp files that killed writes of it left
// (only when their writer process is gone), and a step summary append that fails part-way is cut back off.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { appendFileOrRestore, removeStaleTemps, writeFileAtomic, writeFileAtomicSync } from '../../src/core/io.ts';
import { writeHtmlReport } from '../../src/report/index.ts';
import { SECTIONS } from '../report/sections.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-temp-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const folder = () => {
  const sub = path.join(dir, `t${n++}`);
  mkdirSync(sub);
  return sub;
};

/** The id of a process that has exited (a child that ran and was reaped). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('the report writer', () => {
  test('a write that fails (a folder where the report goes) throws naming the file and leaves no temp file', async () => {
    const base = folder();
    const target = path.join(base, 'report.html');
    mkdirSync(target);
    writeFileSync(path.join(target, 'inside.txt'), 'x');
    await expect(writeHtmlReport(target, { benchmarks: { multiloko: { italian: { a: { em: 1, f1: 1 } }, em: 1, f1: 1 } } }, SECTIONS)).rejects.toThrow(`cannot write ${target}`);
    expect(readdirSync(base)).toEqual(['report.html']);
    expect(readdirSync(target)).toEqual(['inside.txt']);
  });
});

describe('stale temp files of killed writes', () => {
  test('a later write removes those whose writer is gone, keeps a running writer\'s and other files\' temps', async () => {
    const base = folder();
    const file = path.join(base, 'toy.json');
    const dead = deadPid();
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    try {
      const live = sleeper.pid!;
      const stale = [`.toy.json.${dead}.1700000000000.tmp`, `toy.json.${dead}.tmp`];
      const kept = [`.toy.json.${live}.1700000000000.tmp`, `.other.json.${dead}.1700000000000.tmp`, `toy.json.notapid.tmp`];
      for (const name of [...stale, ...kept]) writeFileSync(path.join(base, name), 'half a file');
      await writeFileAtomic(file, '{"a":1}\n');
      expect(readdirSync(base).sort()).toEqual([...kept, 'toy.json'].sort());
      expect(readFileSync(file, 'utf8')).toBe('{"a":1}\n');
      // The blocking writer (lokal score's) does the same.
      writeFileSync(path.join(base, stale[0]!), 'half a file');
      writeFileAtomicSync(file, '{"a":2}\n');
      expect(existsSync(path.join(base, stale[0]!))).toBe(false);
      expect(removeStaleTemps(file)).toEqual([]);
    } finally {
      sleeper.kill('SIGKILL');
    }
  });
});

describe('the step summary', () => {
  test('an append that fails part-way (a full disk) is cut back to the previous content', async () => {
    const file = path.join(folder(), 'summary.md');
    writeFileSync(file, '# an earlier step\n');
    const halfThenFull = async (target: string, text: string) => {
      await appendFile(target, text.slice(0, Math.floor(text.length / 2)));
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    };
    await expect(appendFileOrRestore(file, '| a | b |\n| - | - |\n| 1 | 2 |\n', halfThenFull)).rejects.toThrow('ENOSPC');
    expect(readFileSync(file, 'utf8')).toBe('# an earlier step\n');
    // A summary file that did not exist before is removed rather than left half-written.
    const fresh = path.join(folder(), 'new.md');
    await expect(appendFileOrRestore(fresh, '| a | b |\n', halfThenFull)).rejects.toThrow('ENOSPC');
    expect(existsSync(fresh)).toBe(false);
    // And an append that works appends.
    await appendFileOrRestore(file, 'more\n');
    expect(readFileSync(file, 'utf8')).toBe('# an earlier step\nmore\n');
  });
});
