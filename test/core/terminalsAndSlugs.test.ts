// Terminals and file names: `lokal compare` escapes each run's summary.model on its "Runs:" lines (an OSC title
// change, a screen clear and U+202E never reach the terminal); the direction marks U+200E, U+200F and U+061C are
// escaped like the other bidirectional controls; a model whose slug would be `compare.html` (or any name ending in
// .html/.json) gets a folder name no file of the run has.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { modelSlugs } from '../../src/core/modelList.ts';
import { terminalText } from '../../src/data/terminalText.ts';
import { REPO_ROOT } from '../vitest/helpers.ts';
import { lokalBin } from '../support/installedPackage.ts';

// The built package's bin, as users run it (test/support/installedPackage.ts).
const LOKAL_BIN = await lokalBin();

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-terminal-slugs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('lokal compare "Runs:" lines', () => {
  test("a hostile summary.model is printed escaped, as every other line is", () => {
    const hostile = 'm\u001b]0;pwned\u0007\u001b[2J\u202eevil\u200fx';
    const results = (model: string) => JSON.stringify({ italian: { q0: { em: 1, prediction: 'a' }, em: 1 }, summary: { model } });
    const a = path.join(dir, 'a.json');
    const b = path.join(dir, 'b.json');
    writeFileSync(a, results('plain'));
    writeFileSync(b, results(hostile));
    const run = spawnSync(process.execPath, [LOKAL_BIN, 'compare', a, b, '--no-html'], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('  #2 m\\u001b]0;pwned\\u0007\\u001b[2J\\u202eevil\\u200fx  ');
    expect(run.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202e\u200f]/u);
  });
});

describe('direction marks', () => {
  test('U+200E, U+200F and U+061C are escaped; other text is kept', () => {
    expect(terminalText('a\u200eb\u200fc\u061cd')).toBe('a\\u200eb\\u200fc\\u061cd');
    expect(terminalText('مرحبا שלום')).toBe('مرحبا שלום');
  });
});

describe('model folder names', () => {
  test('a model path whose slug would be compare.html, report.html or multiloko.json gets another name', () => {
    // Dots are kept in slugs, and leading ones trimmed: 88 of them before the name leave the name alone in the last 100.
    const specs = [`replay:x/${'.'.repeat(88)}compare.html`, `replay:y/${'.'.repeat(89)}report.html`, `replay:z/${'.'.repeat(86)}multiloko.json`];
    const slugs = modelSlugs(specs);
    expect(slugs).toEqual(['compare.html-model', 'report.html-model', 'multiloko.json-model']);
    for (const slug of slugs) expect(slug).not.toMatch(/\.(?:html|json)$/u);
    // Ordinary slugs are unchanged.
    expect(modelSlugs(['replay:runs/a.jsonl', 'openai:gpt-4o-mini'])).toEqual(['replay-runs-a.jsonl', 'openai-gpt-4o-mini']);
  });
});
