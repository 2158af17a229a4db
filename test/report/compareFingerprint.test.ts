// `lokal compare` refuses runs whose fingerprints differ in what changes the scores, naming each field, unless
// --allow or LOKAL_BASELINE_ALLOW accepts it; a model difference is printed, never refused.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { Fingerprint } from '../../src/core/fingerprint.ts';
import { REPO_ROOT } from '../vitest/helpers.ts';
import { lokalBin } from '../support/installedPackage.ts';

// The built package's bin, as users run it (test/support/installedPackage.ts).
const LOKAL_BIN = await lokalBin();

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-compare-fingerprint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fingerprint(over: Partial<Fingerprint>): Fingerprint {
  return {
    version: 1, benchmark: 'multiloko', data: { italian: 'a'.repeat(64) }, prompt: 'base', template: { italian: 'c'.repeat(64) }, shots: 5, fewshot: 'dataset',
    extraction: true, scorer: 'v1', decoding: { max_new_tokens: 64, temperature: 0, stops: 'question token, blank line' }, protocol: null, model: { provider: 'transformers', model: 'm1' }, ...over,
  };
}

/** A results file named `<name>.json` whose summary names `model` (default: the name); `over` null: no fingerprint. */
function run(name: string, over: Partial<Fingerprint> | null, model = name): string {
  const items = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`q${i}`, { em: i % 2, prediction: 'p', targets: ['t'] }]));
  const file = path.join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ italian: { ...items, em: 0.5 }, summary: { model, ...(over ? { fingerprint: fingerprint(over) } : {}) } }));
  return file;
}

/** Characters a terminal acts on: C0 (ESC, BEL), DEL, C1, bidi overrides (U+202E). */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

function lokal(args: string[], env: Record<string, string> = {}) {
  const child = spawnSync(process.execPath, [LOKAL_BIN, 'compare', ...args, '--no-html'], { cwd: dir, encoding: 'utf8', env: { ...process.env, ...env } });
  return { code: child.status, stdout: child.stdout, stderr: child.stderr };
}

describe('lokal compare and fingerprints', () => {
  const base = run('base', {});
  const chat = run('chat', { prompt: 'chat', shots: 0, fewshot: 'none' });

  test('a run with chat prompts against one with base prompts is refused, naming every differing field', () => {
    const refused = lokal([base, chat]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.trim().split('\n')).toEqual([
      'lokal compare: #2 chat (multiloko) is left out: not comparable: prompt base→chat; shots 5→0; fewshot dataset→none (#1→#2; --allow prompt,shots,fewshot accepts it)',
      'lokal compare: nothing comparable is left (see the lines above)',
    ]);
  });

  test('--allow or LOKAL_BASELINE_ALLOW accepts the fields; the differences are still printed', () => {
    const allowed = lokal([base, chat, '--allow', 'prompt,shots,fewshot']);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stderr).toContain('#2 chat (multiloko): accepted differences: prompt base→chat; shots 5→0; fewshot dataset→none');
    expect(allowed.stdout).toContain('italian');
    expect(lokal([base, chat], { LOKAL_BASELINE_ALLOW: 'prompt,shots,fewshot' }).code).toBe(0);
    expect(lokal([base, chat], { LOKAL_BASELINE_ALLOW: 'prompt' }).code).toBe(1);
    const typo = lokal([base, chat, '--allow', 'promt']);
    expect(typo.code).not.toBe(0);
    expect(typo.stderr).toContain('LOKAL_BASELINE_ALLOW');
  });

  test('compare.html lists a run left out for its fingerprint, as stderr does, beside the runs still compared', () => {
    const other = run('other-html', { model: { provider: 'openai', model: 'm2' } });
    const output = path.join(dir, 'compare.html');
    const child = spawnSync(process.execPath, [LOKAL_BIN, 'compare', base, chat, other, '-o', output], { cwd: dir, encoding: 'utf8' });
    expect(child.status, child.stderr).toBe(0);
    const line = child.stderr.split('\n').find((l) => l.includes('(multiloko) is left out: '));
    expect(line, child.stderr).toMatch(/^lokal compare: #2 chat \(multiloko\) is left out: not comparable: prompt base→chat; shots 5→0; fewshot dataset→none \(#1→#2; --allow prompt,shots,fewshot accepts it\)$/u);
    const leftOut = /<ul class="note" id="left-out">([\s\S]*?)<\/ul>/u.exec(readFileSync(output, 'utf8'));
    expect(leftOut?.[1]).toBe(`<li>${line!.slice('lokal compare: '.length)}</li>`);
  });

  test('another model under the same protocol is compared, and the model difference is named', () => {
    const other = run('other', { model: { provider: 'openai', model: 'm2' } });
    const compared = lokal([base, other]);
    expect(compared.code, compared.stderr).toBe(0);
    expect(compared.stderr).toContain('#2 other (multiloko): models differ (reported, not refused): model.provider transformers→openai; model.model m1→m2');
  });

  test('runs on another ICU are compared, with a note naming the versions; an older file without them gets none', () => {
    const icu74 = run('icu74', { runtime: { icu: '74.2', unicode: '15.1' } });
    const icu78 = run('icu78', { runtime: { icu: '78.2', unicode: '15.1' } });
    const compared = lokal([icu74, icu78]);
    expect(compared.code, compared.stderr).toBe(0);
    expect(compared.stderr.trim().split('\n')).toEqual([
      "lokal compare: #2 icu78 (multiloko): runtime differs (a note, not refused: f1_words follows ICU's word segmentation, the script rule the Unicode version; f1 and EM depend on neither): runtime.icu 74.2→78.2",
    ]);
    expect(compared.stdout).toContain('italian');
    const older = lokal([base, icu78]);
    expect(older.code, older.stderr).toBe(0);
    expect(older.stderr).not.toContain('runtime');
  });

  test('labels and fingerprint values from the results files are printed escaped, one line each', () => {
    // An OSC title sequence ended by BEL, then a right-to-left override.
    const hostile = 'evil\u001b]0;pwned\u0007\u202egnp.exe';
    const unchecked = lokal([base, run('unchecked', null, hostile)]);
    expect(unchecked.code, unchecked.stderr).toBe(0);
    expect(unchecked.stderr).not.toMatch(RAW_CONTROL);
    expect(unchecked.stderr).toContain('#2 evil\\u001b]0;pwned\\u0007\\u202egnp.exe (multiloko): not checked for comparability (a results file without a fingerprint)');
    const models = lokal([base, run('hostile', { model: { provider: 'transformers', model: hostile } }, hostile)]);
    expect(models.code, models.stderr).toBe(0);
    expect(models.stderr).not.toMatch(RAW_CONTROL);
    expect(models.stderr).toContain(': models differ (reported, not refused): model.model m1→evil\\u001b]0;pwned\\u0007\\u202egnp.exe\n');
    const refused = lokal([base, run('hostileScorer', { scorer: hostile }, hostile)]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).not.toMatch(RAW_CONTROL);
    expect(refused.stderr).toContain('scorer v1→evil\\u001b]0;pwned\\u0007\\u202egnp.exe (#1→#2');
  });

  test('a 20 MiB fingerprint field is named by a short preview, not printed whole', () => {
    const huge = run('huge', { scorer: 'x'.repeat(20 * 1024 * 1024) });
    const refused = lokal([base, huge]);
    expect(refused.code).toBe(1);
    expect(refused.stderr.length).toBeLessThan(500);
    expect(refused.stderr).toContain(`scorer v1→${'x'.repeat(60)}… (20971520 characters) (#1→#2; --allow scorer accepts it)`);
    const allowed = lokal([base, huge, '--allow', 'scorer']);
    expect(allowed.code, allowed.stderr.slice(0, 500)).toBe(0);
    expect(allowed.stderr.length).toBeLessThan(500);
  });

  test('a malformed fingerprint is an error naming the file and field, not a run "without a fingerprint"', () => {
    const items = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`q${i}`, { em: i % 2, prediction: 'p', targets: ['t'] }]));
    const malformed = path.join(dir, 'malformed.json');
    writeFileSync(malformed, JSON.stringify({ italian: { ...items, em: 0.5 }, summary: { model: 'm', fingerprint: { ...fingerprint({}), shots: [5] } } }));
    for (const runs of [[base, malformed], [malformed, base]]) {
      const refused = lokal(runs);
      expect(refused.code).toBe(2);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toBe(`lokal compare: ${malformed} (multiloko) field "summary.fingerprint.shots": is a list; expected a string, number, boolean or null\n`);
    }
    const text = path.join(dir, 'text.json');
    writeFileSync(text, JSON.stringify({ italian: { ...items, em: 0.5 }, summary: { model: 'm', fingerprint: 'abc' } }));
    expect(lokal([base, text]).stderr).toContain(`${text} (multiloko) field "summary.fingerprint": is a string ("abc"); expected an object`);
  });
});
