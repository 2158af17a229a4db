// A folder's README.md is its map: every .ts file of the folder is named in it (a new file gets its line), and every
// source or doc file it names exists (a renamed or deleted file does not linger there).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { REPO_ROOT } from '../support/installedPackage.ts';

/** Every README.md under src/, relative to the repository. */
function readmes(dir = 'src'): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true })) {
    if (entry.isDirectory()) found.push(...readmes(`${dir}/${entry.name}`));
    else if (entry.name === 'README.md') found.push(`${dir}/README.md`);
  }
  return found.sort();
}

/** A source or documentation file's name (other extensions are mostly run outputs: `kalahi.json`, `report.html`). */
const SOURCE_FILE = /^(?:[\w.-]+\/)*[\w.-]+\.(?:ts|mts|mjs|js|md)$/u;

/**
 * The files a README names: code spans and link targets that are a file name or path, and paths with a folder in
 * plain text (`src/core/settings.ts`). A name is looked up in the README's folder, a path also from the repository root.
 */
export function namedFiles(readme: string, text: string): { name: string; resolved: string | undefined }[] {
  const folder = path.posix.dirname(readme);
  const names = new Set<string>();
  for (const [, span] of text.matchAll(/`([^`\n]+)`/gu)) if (SOURCE_FILE.test(span!)) names.add(span!);
  for (const [, target] of text.matchAll(/\]\(([^)\s#]+)(?:#[^)\s]*)?\)/gu)) if (SOURCE_FILE.test(target!) || target!.startsWith('../')) names.add(target!);
  const plain = text.replace(/`[^`\n]*`/gu, ' ').replace(/\]\([^)]*\)/gu, ' ');
  for (const [path_] of plain.matchAll(/(?<![\w./-])(?:[\w.-]+\/)+[\w.-]+\.(?:ts|mts|mjs|js|md)(?![\w/])/gu)) names.add(path_);
  return [...names].map((name) => {
    const candidates = [path.posix.normalize(path.posix.join(folder, name)), ...(name.includes('/') && !name.startsWith('.') ? [name] : [])];
    return { name, resolved: candidates.find((c) => existsSync(path.join(REPO_ROOT, c))) };
  });
}

describe('folder READMEs name their files', () => {
  const found = readmes();

  test('the READMEs of src/ are found', () => {
    expect(found).toEqual(expect.arrayContaining(['src/vitest/README.md', 'src/benchmarks/multiloko/README.md', 'src/benchmarks/kalahi/README.md']));
  });

  test.each(found)('%s names every .ts file of its folder, and every file it names exists', (readme) => {
    const text = readFileSync(path.join(REPO_ROOT, readme), 'utf8');
    const folder = path.posix.dirname(readme);
    const named = namedFiles(readme, text);
    expect(named.filter((n) => n.resolved === undefined).map((n) => n.name)).toEqual([]);
    const resolved = new Set(named.map((n) => n.resolved));
    const own = readdirSync(path.join(REPO_ROOT, folder)).filter((f) => f.endsWith('.ts')).map((f) => `${folder}/${f}`);
    expect(own.length).toBeGreaterThan(0);
    expect(own.filter((file) => !resolved.has(file))).toEqual([]);
  });

  test('the name rules: a bare name in its folder, a path from the root or the folder, run outputs not checked', () => {
    const names = (text: string) => namedFiles('src/vitest/README.md', text).map((n) => [n.name, n.resolved ?? null]);
    expect(names('`runner.ts` and `reporters/console-reporter.ts`, see src/core/settings.ts; writes `kalahi.json`')).toEqual([
      ['runner.ts', 'src/vitest/runner.ts'],
      ['reporters/console-reporter.ts', 'reporters/console-reporter.ts'],
      ['src/core/settings.ts', 'src/core/settings.ts'],
    ]);
    expect(names('`gone.ts`')).toEqual([['gone.ts', null]]);
  });
});
