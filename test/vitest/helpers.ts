// Shared by the e2e tests: a small generated MultiLoKo dataset, replay predictions for it, and child Vitest runs.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const VITEST_BIN = path.join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs');
/** Path filter for child runs: the MultiLoKo eval file only (the evals project also holds other benchmarks' files). */
export const MULTILOKO_EVAL = 'evals/multiloko.eval.ts';

export interface GeneratedItem {
  id: string | number;
  question: string;
  targets: string[];
}

export interface GeneratedSubset {
  key: string;
  folder: string;
  fileName: string;
  items: GeneratedItem[];
}

/** A deterministic pseudo-random sequence (LCG), so generated answers are the same in every run. */
export function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const TARGET_POOL = [
  ['Roma', 'la città di Roma'],
  ['25 ottobre 2010', '2010-10-25'],
  ['The Beatles', 'Beatles'],
  ['São Paulo'],
  ['Ñandú', 'ñandu'],
  ['東京', '東京都'],
  ['Jean-Paul Sartre', 'Sartre'],
  ['İstanbul'],
  ['1969'],
  ['a Tale of Two Cities'],
  ['😀 smile'],
  ['Mont Blanc', 'Monte Bianco'],
];

/** Subsets of three local languages and four translated files (both directions, both kinds). */
export function datasetSpec(itemsPerSubset: number, seed = 7): GeneratedSubset[] {
  const random = lcg(seed);
  const make = (prefix: string, numeric: boolean): GeneratedItem[] =>
    Array.from({ length: itemsPerSubset }, (_, i) => {
      const targets = TARGET_POOL[Math.floor(random() * TARGET_POOL.length)]!;
      return {
        id: numeric ? 100 + i : `${String(i).padStart(3, '0')}_${prefix}.txt`,
        question: `${prefix} question ${i}: which answer is it?\n(second line)`,
        targets,
      };
    });
  return [
    { key: 'english', folder: 'english', fileName: 'dev.jsonl', items: make('en', false) },
    { key: 'english_translated_human_italian', folder: 'english', fileName: 'dev_translated_human_italian.jsonl', items: make('en-it', false) },
    { key: 'french', folder: 'french', fileName: 'dev.jsonl', items: make('fr', true) },
    { key: 'italian', folder: 'italian', fileName: 'dev.jsonl', items: make('it', false) },
    { key: 'italian_translated_human_english', folder: 'italian', fileName: 'dev_translated_human_english.jsonl', items: make('it-en', false) },
    { key: 'italian_translated_machine_english', folder: 'italian', fileName: 'dev_translated_machine_english.jsonl', items: make('it-en-m', false) },
  ];
}

/** Writes `<dir>/benchmark_data/<folder>/<file>` for every subset; returns the dataset folder. */
export function writeDataset(dir: string, subsets: readonly GeneratedSubset[]): string {
  const root = path.join(dir, 'benchmark_data');
  for (const s of subsets) {
    mkdirSync(path.join(root, s.folder), { recursive: true });
    writeFileSync(path.join(root, s.folder, s.fileName), s.items.map((item) => JSON.stringify(item)).join('\n') + '\n');
  }
  return root;
}

export interface PredictionLine {
  language: string;
  id: string | number;
  prediction: string;
}

/**
 * A prediction per item in dataset order, mixing exact, re-cased/punctuated, partial and wrong answers. With
 * `dropLast`, each subset's last item has none (so `lokal score`, which appends missing items, keeps the same order).
 */
export function predictionsFor(subsets: readonly GeneratedSubset[], options: { seed?: number; dropLast?: boolean } = {}): PredictionLine[] {
  const random = lcg(options.seed ?? 11);
  const lines: PredictionLine[] = [];
  for (const s of subsets) {
    s.items.forEach((item, i) => {
      if (options.dropLast && i === s.items.length - 1) return;
      const target = item.targets[Math.floor(random() * item.targets.length)]!;
      const r = random();
      const prediction =
        r < 0.35 ? target
        : r < 0.5 ? `The ${target.toUpperCase()}!`
        : r < 0.65 ? `${target} (circa)`
        : r < 0.8 ? Array.from(target).reverse().join('')
        : r < 0.9 ? 'non lo so'
        : '';
      lines.push({ language: s.key, id: item.id, prediction });
    });
  }
  return lines;
}

export function writeJsonl(file: string, rows: readonly object[]): void {
  writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
}

export interface ChildRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** This process's environment without what Vitest set for its worker and without LOKAL_* settings. */
export function childEnvironment(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (name.startsWith('VITEST') || name.startsWith('LOKAL_') || name === 'TEST' || name === 'FORCE_COLOR') delete env[name];
  }
  return env;
}

/** Runs the repo's Vitest CLI (what `npx vitest` runs) in a child process with extra environment variables. */
export function runVitest(args: readonly string[], env: Record<string, string>, cwd = REPO_ROOT): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [VITEST_BIN, ...args], {
      cwd,
      // CI=1 makes progress non-interactive; it would also switch redaction on (LOKAL_REDACT=auto), which tests ask for themselves.
      env: { ...childEnvironment(), CI: '1', NO_COLOR: '1', LOKAL_REDACT: 'off', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
