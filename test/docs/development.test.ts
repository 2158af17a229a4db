// docs/development.md's Layout names every folder of the repository a contributor works in, so a folder added or
// removed without a line there fails here: the `src/…/` folders it names are exactly the folders of src/.
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
});
