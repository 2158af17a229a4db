// What the code and docs cite must be readable by whoever reads them: the metric definitions are docs/metrics.md's
// sections (or the reference itself), never the private specification files the project was written from, and no
// comment points at an issue of this project's tracker (a reader of a clone or of the package cannot follow it).
// Other trackers' issues, written as `project#1234` (lm-eval#3357, HELM#2298), are fine.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { REPO_ROOT } from '../support/installedPackage.ts';

/** The private files' names, spelled so that this file does not cite them itself. */
const PRIVATE_FILES = [['METRICS', 'md'], ['DESIGN', 'md']].map((parts) => parts.join('.'));
const PRIVATE_FILE = new RegExp(`\\b(?:${PRIVATE_FILES.map((f) => f.replace('.', '\\.')).join('|')})\\b`, 'u');
/** `issue #NN`, `issue NN`, `issues #NN` (NN digits): an issue named as one, with or without `#`. */
const ISSUE_WORD = /\bissues?\s*#?\s*\d+/iu;
/**
 * A bare `#NN` (two digits or more) standing on its own: not glued to a word (`lm-eval#3357`, `PKCS#7`), an entity
 * (`&#39;`), a path or a quoted CSS colour (`'#222'`). One-digit `#1`…`#9` are `lokal compare`'s run labels.
 */
const BARE_NUMBER = /(?<![\w&/.|'"-])#\d{2,}(?![\w;])/u;

/** Text files a reader of the repository reads: source, scripts, tests and documentation (not upstream data). */
const TEXT_EXTENSIONS = new Set(['.ts', '.mts', '.mjs', '.cjs', '.js', '.py', '.md', '.sh', '.yml', '.yaml']);

/** This checkout's files, tracked and untracked but not ignored (new files count before their first commit). */
function checkoutTextFiles(): string[] {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`git ls-files failed in ${REPO_ROOT}: ${listed.stderr || listed.error?.message}`);
  return listed.stdout
    .split('\0')
    .filter((f) => f && (TEXT_EXTENSIONS.has(path.extname(f)) || f === '.ci/run') && existsSync(path.join(REPO_ROOT, f)))
    .sort();
}

/** `file:line: text` of every line matching `pattern`. */
function citing(files: readonly string[], pattern: RegExp): string[] {
  const found: string[] = [];
  for (const file of files) {
    readFileSync(path.join(REPO_ROOT, file), 'utf8')
      .split('\n')
      .forEach((line, index) => {
        if (pattern.test(line)) found.push(`${file}:${index + 1}: ${line.trim().slice(0, 160)}`);
      });
  }
  return found;
}

describe('citations', () => {
  const files = checkoutTextFiles();

  test('the scan reads the source, tests, scripts and docs (so an empty result means something)', () => {
    expect(files.length).toBeGreaterThan(400);
    for (const folder of ['src/', 'test/', 'docs/', 'bench/', 'reporters/', 'scripts/', 'bin/', 'examples/', 'evals/']) {
      expect(files.some((f) => f.startsWith(folder)), folder).toBe(true);
    }
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/metrics.md', 'src/index.ts', 'test/docs/citations.test.ts', 'bench/eval_port.py']));
  });

  test('the patterns catch what they are meant to, and leave other trackers, entities, colours and run labels alone', () => {
    for (const name of PRIVATE_FILES) expect(PRIVATE_FILE.test(`// exact to the reference (${name} §9.2)`), name).toBe(true);
    expect(PRIVATE_FILE.test('// see docs/metrics.md#token-f1')).toBe(false);
    for (const cited of [`issue #${35}'s goals`, `(issue ${37}, part 6)`, `Issues #${21}`]) expect(ISSUE_WORD.test(cited), cited).toBe(true);
    for (const cited of [`fixed in #${35}`, `(#${21})`, `#${37}'s goals`, `see #${30}.`]) expect(BARE_NUMBER.test(cited), cited).toBe(true);
    for (const fine of [`lm-eval#${3357}`, `HELM#${2298}`, `PKCS#7`, `&#${39};`, `color: '#${222}'`, `Δ vs #1 (p)`, `#2's paired table`]) {
      expect(BARE_NUMBER.test(fine) || ISSUE_WORD.test(fine), fine).toBe(false);
    }
  });

  test('no file cites the private specification files: docs/metrics.md or the reference instead', () => {
    expect(citing(files, PRIVATE_FILE)).toEqual([]);
  });

  test('every anchor of docs/metrics.md that a file cites is a heading of that page (its anchors are stable)', () => {
    const page = readFileSync(path.join(REPO_ROOT, 'docs/metrics.md'), 'utf8').replace(/^ *```[\s\S]*?^ *```/gmu, '');
    // GitHub's anchor of a heading (as test/docs/pages.test.ts computes it).
    const headings = new Set([...page.matchAll(/^#{1,6} (.+)$/gmu)].map((m) => m[1]!.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/gu, '-')));
    const cited: string[] = [];
    for (const file of files) {
      for (const [, anchors] of readFileSync(path.join(REPO_ROOT, file), 'utf8').matchAll(/docs\/metrics\.md((?:#[\w-]+)(?:,\s*#[\w-]+)*)/gu)) {
        for (const [, anchor] of anchors!.matchAll(/#([\w-]+)/gu)) cited.push(`${file}: #${anchor}`);
      }
    }
    expect(cited.length).toBeGreaterThan(50);
    expect(cited.filter((c) => !headings.has(c.slice(c.lastIndexOf('#') + 1)))).toEqual([]);
  });

  test("no file cites an issue of this project's tracker", () => {
    expect(citing(files, ISSUE_WORD)).toEqual([]);
    expect(citing(files, BARE_NUMBER)).toEqual([]);
  });
});
