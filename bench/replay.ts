// Benchmark: a replay evals run over 7,500 generated items (30 languages × 250), timed end to end as a child
// `vitest run --project evals` — startup, collection, 7,500 item tests, the runner's aggregates and the roll-up reporter.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const VITEST_BIN = path.join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs');

export interface ReplayBenchOptions {
  languages?: number;
  itemsPerLanguage?: number;
}

const ANSWERS = [['Roma', 'la città di Roma'], ['25 ottobre 2010', '2010-10-25'], ['São Paulo'], ['東京', '東京都'], ['Jean-Paul Sartre', 'Sartre'], ['1969']];

/** Writes the dataset (local subsets only, like the 7,500-item leaderboard run) and a replay file answering every item. */
export function writeInputs(dir: string, languages: number, perLanguage: number): { dataset: string; predictions: string } {
  const dataset = path.join(dir, 'benchmark_data');
  const rows: string[] = [];
  for (let l = 0; l < languages; l++) {
    const language = `lang${String(l).padStart(2, '0')}`;
    mkdirSync(path.join(dataset, language), { recursive: true });
    const items: string[] = [];
    for (let i = 0; i < perLanguage; i++) {
      const id = `${String(i).padStart(3, '0')}_${language}.txt`;
      const targets = ANSWERS[(l + i) % ANSWERS.length]!;
      items.push(JSON.stringify({ id, question: `Question ${i} of ${language}: which place or date is meant here?`, targets }));
      const variant = (l * 7 + i * 13) % 5;
      const prediction = variant === 0 ? targets[0]! : variant === 1 ? `The ${targets[0]!}.` : variant === 2 ? `${targets[0]!} circa` : variant === 3 ? 'non lo so' : '';
      rows.push(JSON.stringify({ language, id, prediction }));
    }
    writeFileSync(path.join(dataset, language, 'dev.jsonl'), `${items.join('\n')}\n`);
  }
  const predictions = path.join(dir, 'predictions.jsonl');
  writeFileSync(predictions, `${rows.join('\n')}\n`);
  return { dataset, predictions };
}

function run(args: string[], env: Record<string, string>, cwd = REPO_ROOT): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [VITEST_BIN, ...args], { cwd, env: { ...process.env, CI: '1', NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** Times one replay evals run (default 30 × 250 = 7,500 items); throws if the run fails or scores a different count. */
export async function benchReplay(options: ReplayBenchOptions = {}): Promise<{ items: number; seconds: number }> {
  const languages = options.languages ?? 30;
  const perLanguage = options.itemsPerLanguage ?? 250;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-bench-'));
  try {
    const { dataset, predictions } = writeInputs(dir, languages, perLanguage);
    const output = path.join(dir, 'results');
    const start = process.hrtime.bigint();
    const { code, output: log } = await run(['run', '--project', 'evals', 'evals/multiloko.eval.ts'], {
      LOKAL_MULTILOKO: dataset,
      LOKAL_MODEL: `replay:${predictions}`,
      LOKAL_OUTPUT: output,
      LOKAL_LANGUAGES: '',
      LOKAL_SUBSETS: '',
      LOKAL_LIMIT: '',
      LOKAL_THRESHOLDS: '',
      LOKAL_BASELINE: '',
    });
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    if (code !== 0) throw new Error(`replay bench: vitest exited with ${code}\n${log.slice(-3000)}`);
    const results = JSON.parse(readFileSync(path.join(output, 'multiloko.json'), 'utf8')) as { summary: { items: { scored: number } } };
    const items = results.summary.items.scored;
    if (items !== languages * perLanguage) throw new Error(`replay bench: scored ${items} items, expected ${languages * perLanguage}`);
    return { items, seconds };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Vitest's own floor for the same shape of run, with no lokal code: 30 describes × 250 concurrent tests, each
 * storing a meta record and (by default) one annotation, as our item tests do. Runs in a temporary project whose
 * node_modules links to this repository's, so it uses the very Vitest the evals run on.
 */
export async function benchVitestFloor(options: ReplayBenchOptions & { annotate?: boolean } = {}): Promise<{ tests: number; seconds: number }> {
  const languages = options.languages ?? 30;
  const perLanguage = options.itemsPerLanguage ?? 250;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-bench-floor-'));
  try {
    symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    writeFileSync(path.join(dir, 'vitest.config.mjs'), `export default { test: { include: ['floor.test.mjs'], maxConcurrency: 16 } };\n`);
    writeFileSync(
      path.join(dir, 'floor.test.mjs'),
      [
        `import { describe, test } from 'vitest';`,
        `const annotate = ${options.annotate !== false};`,
        `for (let l = 0; l < ${languages}; l++) describe('lang' + l, () => {`,
        `  for (let i = 0; i < ${perLanguage}; i++) test.concurrent('item ' + i + ' · which place or date is meant here?', async ({ task, annotate: note }) => {`,
        `    task.meta.item = { id: i, prediction: 'Roma', targets: ['roma'], scores: { em: 1, f1: 1, chrf: 100 }, latencyMs: 0, cached: false };`,
        `    if (annotate) await note('✓ EM 1 · F1 1 · chrF 100.0 · said "Roma" · targets "roma"', 'correct');`,
        `  });`,
        `});`,
      ].join('\n'),
    );
    const start = process.hrtime.bigint();
    const { code, output: log } = await run(['run'], {}, dir);
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const tests = languages * perLanguage;
    if (code !== 0 || !log.includes(`${tests} passed`)) throw new Error(`vitest floor bench: exit ${code}\n${log.slice(-2000)}`);
    return { tests, seconds };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { items, seconds } = await benchReplay();
  process.stdout.write(`replay evals run: ${items} items in ${seconds.toFixed(2)} s\n`);
}
