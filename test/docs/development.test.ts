// docs/development.md's Layout names every folder of the repository a contributor works in, so a folder added or
// removed without a line there fails here: the `src/…/` folders it names are exactly the folders of src/, and the
// files it says read `LOKAL_*` variables are exactly those whose code reads one.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { REPO_ROOT } from '../support/installedPackage.ts';

const development = readFileSync(path.join(REPO_ROOT, 'docs/development.md'), 'utf8');

/** Every folder under `dir` (relative to the repository, with a trailing slash), `dir` itself included. */
function foldersUnder(dir: string): string[] {
  const found = [`${dir}/`];
  for (const entry of readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true })) {
    if (entry.isDirectory()) found.push(...foldersUnder(`${dir}/${entry.name}`));
  }
  return found;
}

/** The folders the page names: code spans that are a path under `root` ending in a slash (`src/core/`). */
function namedFolders(root: string): string[] {
  return [...development.matchAll(/`([^`\s]+\/)`/gu)].map((m) => m[1]!).filter((name) => name.startsWith(`${root}/`));
}

/** Code files of the package (src/, reporters/, bin/, scripts/), relative to the repository. */
function codeFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true })) {
    if (entry.isDirectory()) found.push(...codeFiles(`${dir}/${entry.name}`));
    else if (/\.(?:ts|mts|mjs|js)$/u.test(entry.name)) found.push(`${dir}/${entry.name}`);
  }
  return found;
}

/**
 * A line of code that reads a `LOKAL_*` variable: `process.env.LOKAL_X`, `vars.LOKAL_X` / `env.LOKAL_X` of an
 * environment object, `env[SOME_ENV]` with a name constant, or every `LOKAL_` name at once (settings.ts,
 * localModelRun.ts). Not `${{ env.LOKAL_MODEL }}` in the text of a generated GitHub workflow.
 */
const READS_LOKAL = /(?<!\{\{ )(?:process\.env|\bvars|\benv)(?:\.LOKAL_[A-Z_]+|\[[A-Z_]*_ENV\])|startsWith\('LOKAL_'\)|\^LOKAL_/u;

describe('docs/development.md names the folders', () => {
  test('the src/ folders it names are exactly the folders of src/ (both ways)', () => {
    const real = foldersUnder('src').sort();
    expect(real.length).toBeGreaterThan(20);
    expect([...new Set(namedFolders('src'))].sort()).toEqual(real);
  });

  test('every top-level folder with code, and every folder of test/, is named', () => {
    for (const folder of ['reporters/', 'bin/', 'scripts/', 'examples/', 'bench/', 'evals/', 'test/', 'data/']) {
      expect(development, folder).toContain(`\`${folder}\``);
    }
    const testFolders = readdirSync(path.join(REPO_ROOT, 'test'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(testFolders.length).toBeGreaterThan(10);
    expect(testFolders.filter((name) => !development.includes(`\`${name}\``) && !development.includes(`\`test/${name}/\``))).toEqual([]);
  });

  test('the files it says read LOKAL_* variables are the files whose code reads one', () => {
    const readers = ['src', 'reporters', 'bin', 'scripts']
      .flatMap(codeFiles)
      .filter((file) => readFileSync(path.join(REPO_ROOT, file), 'utf8').split('\n').some((line) => !/^\s*(?:\/\/|\*|\/\*)/u.test(line) && READS_LOKAL.test(line)))
      .sort();
    expect(readers.length).toBeGreaterThan(10);
    const paragraph = development.slice(development.indexOf('Environment variables:'), development.indexOf('`npm run build` compiles'));
    const named = [...new Set([...paragraph.matchAll(/`((?:src|reporters|bin|scripts)\/[^`\s]+\.(?:ts|mts|mjs|js))`/gu)].map((m) => m[1]!))].sort();
    expect(named).toEqual(readers);
  });
});
