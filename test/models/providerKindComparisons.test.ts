// Outside src/models no code compares a provider kind's string (`=== 'openai'`, `case 'replay':`, `startsWith('llama:')`):
// it reads a trait of the provider table instead, so a new provider is one file and one row.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { PROVIDERS } from '../../src/models/providers.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const KINDS = PROVIDERS.map((row) => row.kind).join('|');
/** A quoted kind, or a quoted kind with its colon (`'replay:'`), in any of the three quotes. */
const QUOTED = `(?:${['\'', '"', '`'].map((q) => `${q}(?:${KINDS}):?${q}`).join('|')})`;
const COMPARISONS = [
  // `kind === 'openai'`, `'replay' !== kind`
  new RegExp(`[!=]==?\\s*${QUOTED}|${QUOTED}\\s*[!=]==?`, 'u'),
  // `case 'replay':`
  new RegExp(`\\bcase\\s+${QUOTED}\\s*:`, 'u'),
  // `spec.startsWith('llama:')`, `kinds.includes('replay')`, `spec.slice('replay:'.length)`
  new RegExp(`\\.(?:startsWith|endsWith|includes|indexOf|slice)\\(\\s*${QUOTED}`, 'u'),
  new RegExp(`${QUOTED}\\.length`, 'u'),
];

/** The code of a line: comments left out (a comment may name `replay:` in backticks). */
function code(line: string): string {
  const trimmed = line.trim();
  if (trimmed.startsWith('//') || trimmed.startsWith('*') || trimmed.startsWith('/*')) return '';
  return line.replace(/\s\/\/\s.*$/u, '');
}

/** `file:line: text` of every comparison against a provider kind in these files. */
function kindComparisons(files: readonly string[], root: string): string[] {
  const found: string[] = [];
  for (const file of files) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (COMPARISONS.some((pattern) => pattern.test(code(line)))) found.push(`${path.relative(root, file)}:${i + 1}: ${line.trim()}`);
      });
  }
  return found;
}

/** The TypeScript files under a folder, src/models left out. */
function codeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return full === path.join(ROOT, 'src', 'models') ? [] : codeFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

const planted = mkdtempSync(path.join(tmpdir(), 'lokal-kind-comparisons-'));
afterAll(() => rmSync(planted, { recursive: true, force: true }));

test('src/ (outside src/models) and reporters/ compare no provider kind', () => {
  const files = [...codeFiles(path.join(ROOT, 'src')), ...codeFiles(path.join(ROOT, 'reporters'))];
  expect(files.length).toBeGreaterThan(100);
  expect(files.filter((file) => file.startsWith(path.join(ROOT, 'src', 'models')))).toEqual([]);
  expect(kindComparisons(files, ROOT)).toEqual([]);
});

test('the scanner names each planted comparison by file and line, and passes comments and messages', () => {
  const file = path.join(planted, 'planted.ts');
  const lines = [
    '// a comment naming `replay:` and kind === "openai" is no comparison',
    "throw new Error('use a transformers: or openai: model');",
    "if (model.kind === 'openai') ask();",
    "if ('replay' !== kind) ask();",
    '  case `llama`:',
    "const local = spec.startsWith('llama:');",
    "const file = spec.slice('replay:'.length);",
    "const any = kinds.includes(\"transformers\");",
    "const n = 'replay:'.length;",
    'const label = kind === "ollama";',
  ];
  writeFileSync(file, lines.join('\n'));
  expect(kindComparisons([file], planted).map((hit) => hit.split(': ')[0])).toEqual(['planted.ts:3', 'planted.ts:4', 'planted.ts:5', 'planted.ts:6', 'planted.ts:7', 'planted.ts:8', 'planted.ts:9']);
});
