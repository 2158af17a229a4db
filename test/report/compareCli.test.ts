// `lokal compare` through the real bin on hand-made results files whose paired tests are worked out by hand:
// McNemar's exact p = 2·0.5^k with k discordant pairs all one way, Holm over two subsets doubles the smaller p.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { compareRuns } from '../../src/report/compareRuns.ts';
import { REPO_ROOT } from '../vitest/helpers.ts';
import { KALAHI_MC1, hostileKalahi } from './fixtures.ts';
import { lokalBin } from '../support/installedPackage.ts';
import { SECTIONS } from './sections.ts';

// The built package's bin, as users run it (test/support/installedPackage.ts).
const LOKAL_BIN = await lokalBin();

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-compare-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const range = (from: number, to: number) => new Set(Array.from({ length: to - from }, (_, i) => from + i));

/** A results file of 30 Italian and 30 French items, right where the index is in the set. */
function results(model: string, italian: Set<number>, french: Set<number>): string {
  const subset = (prefix: string, right: Set<number>) => Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`${prefix}${i}`, { em: right.has(i) ? 1 : 0, prediction: 'p', targets: ['t'] }]));
  return JSON.stringify({ italian: subset('it', italian), french: subset('fr', french), summary: { model } });
}

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

function lokal(args: string[]) {
  const run = spawnSync(process.execPath, [LOKAL_BIN, ...args], { cwd: dir, encoding: 'utf8' });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

// #1: Italian 15/30 right, French 10/30. #2 loses Italian items 0–9 (10 right → wrong). #3 gains French items 10–12.
const a = write('a.json', results('model-a', range(0, 15), range(0, 10)));
const b = write('b.json', results('model-b', range(10, 15), range(0, 10)));
mkdirSync(path.join(dir, 'run-c'));
write('run-c/multiloko.json', results('model-c|<b>', range(0, 15), range(0, 13)));

describe('lokal compare', () => {
  test('side by side per language with the paired tests against the first run, and the HTML report', () => {
    const html = path.join(dir, 'out', 'compare.html');
    mkdirSync(path.dirname(html), { recursive: true });
    const run = lokal(['compare', a, b, path.join(dir, 'run-c'), '-o', html]);
    expect(run.code, run.stderr).toBe(0);
    const rows = run.stdout.split('\n').map((l) => l.trim().split(/\s{2,}/u));
    const p2 = 2 * 0.5 ** 10; // #2, Italian: 10 discordant pairs all worse
    const p3 = 2 * 0.5 ** 3; // #3, French: 3 all better
    // The baseline gate's family: Italian, French and the two local subsets pooled (60 items, the same discordant pairs,
    // so the same p); Holm over those three multiplies the two equal smallest p by 3.
    expect(rows.find((r) => r[0] === 'italian')).toEqual(['italian', '50.00', '16.67', `-33.33 (p ${(3 * p2).toFixed(3)}*)`, '50.00', '0.00 (p 1.000)']);
    expect(rows.find((r) => r[0] === 'french')).toEqual(['french', '33.33', '33.33', '0.00 (p 1.000)', '43.33', `+10.00 (p ${(3 * p3).toFixed(3)})`]);
    // The average over the two languages, and the pooled test, in the same Holm family.
    expect(rows.find((r) => r[0] === 'average')).toEqual(['average', '41.67', '25.00', `-16.67 (p ${(3 * p2).toFixed(3)}*) pooled`, '46.67', `+5.00 (p ${(3 * p3).toFixed(3)}) pooled`]);
    expect(run.stdout).toContain('#3 model-c|<b>');

    const page = readFileSync(html, 'utf8');
    expect(page).not.toContain('<script');
    expect(page).not.toContain('<b>');
    expect(page).toContain('#3 model-c|&lt;b&gt;');
    // The chart: one bar per language and run.
    const bars = /<g class="mark-rect role-mark[^"]*"[^>]*>([\s\S]*?)<\/g>/u.exec(page)![1]!;
    expect(bars.match(/<path/gu)).toHaveLength(6);
    // #2's paired table: Italian adjusted by Holm with the pooled row.
    const row = (table: string, key: string) => {
      const section = page.slice(page.indexOf(`id="${table}"`));
      const pattern = new RegExp(`<tr class="([a-z]*)" data-key="${key}" data-diff="([^"]+)" data-p="([^"]+)" data-p-adjusted="([^"]+)"`, 'u');
      const [, cls, diff, p, adjusted] = pattern.exec(section)!;
      return { cls, diff: Number(diff), p: Number(p), adjusted: Number(adjusted) };
    };
    const italian2 = row('compare-multiloko-2', 'italian');
    expect(italian2.cls).toBe('significant');
    expect(italian2.diff).toBeCloseTo(-1 / 3, 12);
    expect(italian2.p).toBeCloseTo(p2, 12);
    expect(italian2.adjusted).toBeCloseTo(3 * p2, 12);
    const french3 = row('compare-multiloko-3', 'french');
    expect(french3.cls).toBe('');
    expect(french3.diff).toBeCloseTo(0.1, 12);
    expect(french3.p).toBeCloseTo(p3, 12);
    expect(french3.adjusted).toBeCloseTo(3 * p3, 12);
  });

  test('--no-html writes nothing; wrong counts, unreadable and foreign files exit 2 naming the problem', () => {
    const quiet = lokal(['compare', a, b, '--no-html']);
    expect(quiet.code).toBe(0);
    expect(existsSync(path.join(dir, 'compare.html'))).toBe(false);
    expect(lokal(['compare', a]).stderr).toContain('give 2 to 10 runs (got 1)');
    const eleven = lokal(['compare', ...Array.from({ length: 11 }, () => a)]);
    expect(eleven.code).toBe(2);
    expect(eleven.stderr).toContain('(got 11)');
    const missing = lokal(['compare', a, path.join(dir, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`${path.join(dir, 'nope.json')}: cannot be read as a results file or folder (ENOENT)`);
    const empty = mkdtempSync(path.join(dir, 'empty-'));
    const folder = lokal(['compare', a, empty]);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain('cannot be read');
    expect(lokal(['compare', '--help']).stdout).toContain('usage: lokal compare');
  });

  test('`name=path` labels a run as LOKAL_MODEL does; a file really named `x=y` is read as one', () => {
    write('q=a.json', results('model-q', range(0, 15), range(0, 10)));
    const run = lokal(['compare', `first=${a}`, 'q=a.json', `c-model=${path.join(dir, 'run-c')}`, '--no-html']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('#1 first ');
    // The existing file `q=a.json` is a path, labelled by the model its results name.
    expect(run.stdout).toContain('#2 model-q ');
    expect(run.stdout).toContain('#3 c-model');
    expect(run.stdout).not.toContain('model-c|<b>');
    // A label before a path that does not exist names the path, not the argument.
    const missing = lokal(['compare', a, 'x=nope.json', '--no-html']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope.json: cannot be read as a results file or folder (ENOENT)');
    expect(missing.stderr).not.toContain('x=nope.json');
  });

  test('Kalahi runs: each variant figure side by side; an identical run differs by 0 with p = 1', () => {
    const c = compareRuns(
      [
        { label: '#1', source: 'x', results: { benchmarks: { kalahi: hostileKalahi() } } },
        { label: '#2', source: 'y', results: { benchmarks: { kalahi: hostileKalahi() } } },
      ],
      SECTIONS,
    );
    const mc1 = c.sections.find((s) => s.name === 'kalahi')!.shown!.rows.find((f) => f.name === 'full MC1')!;
    expect(mc1.values[0]!.value).toBeCloseTo(KALAHI_MC1.reduce((s, v) => s + v, 0) / KALAHI_MC1.length, 12);
    expect(mc1.versusFirst[0]).toBeUndefined();
    expect(mc1.versusFirst[1]!.diff).toBe(0);
    expect(mc1.versusFirst[1]!.p).toBe(1);
    expect(() => compareRuns([{ label: '#1', source: 'x', results: {} }], SECTIONS)).toThrow('compare takes 2 to 10 runs, not 1');
  });
});
