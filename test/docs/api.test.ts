// docs/api.md lists exactly the names each entry point of package.json's `exports` gives: the TypeScript checker
// reads each entry file's exports, and the page's list under each entry point's heading must equal them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { REPO_ROOT } from '../support/installedPackage.ts';

const PACKAGE = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { name: string; exports: Record<string, { source: string }> };

/** Entry point (`vitest-lokal`, `vitest-lokal/vitest`, …) → its source file, from package.json's `exports`. */
const ENTRIES = Object.entries(PACKAGE.exports).map(([subpath, target]) => ({
  entry: subpath === '.' ? PACKAGE.name : `${PACKAGE.name}/${subpath.replace(/^\.\//u, '')}`,
  file: path.join(REPO_ROOT, target.source),
}));

/** Each entry file's exported names, as the checker sees them (re-exports and `export *` resolved). */
function exportedNames(): Map<string, string[]> {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(REPO_ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  const program = ts.createProgram(ENTRIES.map((e) => e.file), parsed!.options);
  const checker = program.getTypeChecker();
  return new Map(ENTRIES.map(({ entry, file }) => {
    const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
    return [entry, checker.getExportsOfModule(module).map((s) => s.name).sort()];
  }));
}

/** The page's names per entry point: the `- \`name\`: …` lines under each `## \`entry\`` heading. */
export function documentedNames(markdown: string): Map<string, string[]> {
  const names = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of markdown.split('\n')) {
    const heading = /^## `([^`]+)`/u.exec(line);
    if (heading) names.set(heading[1]!, (current = []));
    else if (line.startsWith('## ')) current = undefined;
    const item = /^- `([^`]+)`:/u.exec(line);
    if (item && current) current.push(item[1]!);
  }
  for (const [entry, list] of names) names.set(entry, list.sort());
  return names;
}

describe('docs/api.md', () => {
  const page = readFileSync(path.join(REPO_ROOT, 'docs', 'api.md'), 'utf8');
  const documented = documentedNames(page);
  const exported = exportedNames();

  test('has a section for each entry point of package.json, and no other', () => {
    expect([...documented.keys()].sort()).toEqual(ENTRIES.map((e) => e.entry).sort());
  });

  test.each(ENTRIES.map((e) => e.entry))('%s: the page lists exactly its exports', (entry) => {
    const exports = exported.get(entry)!;
    const listed = documented.get(entry) ?? [];
    expect(exports.length).toBeGreaterThan(0);
    const missing = exports.filter((name) => !listed.includes(name));
    const notExported = listed.filter((name) => !exports.includes(name));
    const duplicated = listed.filter((name, i) => listed.indexOf(name) !== i);
    expect({ missingFromPage: missing, listedButNotExported: notExported, listedTwice: duplicated }).toEqual({ missingFromPage: [], listedButNotExported: [], listedTwice: [] });
  });

  test('the parser reads the page format (so an empty list cannot pass for an equal one)', () => {
    const sample = documentedNames('## `pkg`\n\nText:\n\n- `a`: one.\n- `b`: two.\n\n## `pkg/x`\n\n- `c`: three.\n\n## Other\n\n- `d`: not an entry.\n');
    expect([...sample]).toEqual([['pkg', ['a', 'b']], ['pkg/x', ['c']]]);
  });
});
