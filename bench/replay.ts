// Benchmark: replay evals runs, timed end to end as a child `vitest run --project evals` — startup, collection, the
// item tests, the runner's aggregates and the roll-up reporter — over 7,500 generated items (30 languages × 250) or a
// generated set of the full official dev layout (31 languages, local and translated both ways: 37,750 items), beside
// Vitest alone running as many tests of the same shape. Peak memory is the sum of the resident sets of the whole
// process tree (the Vitest main process and its workers), sampled from /proc.
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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

/** The prediction a row of the generated sets gives: exact, with an article and a full stop, extra word, wrong, empty. */
function predictionFor(targets: readonly string[], variant: number): string {
  return variant === 0 ? targets[0]! : variant === 1 ? `The ${targets[0]!}.` : variant === 2 ? `${targets[0]!} circa` : variant === 3 ? 'non lo so' : '';
}

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
      rows.push(JSON.stringify({ language, id, prediction: predictionFor(targets, (l * 7 + i * 13) % 5) }));
    }
    writeFileSync(path.join(dataset, language, 'dev.jsonl'), `${items.join('\n')}\n`);
  }
  const predictions = path.join(dir, 'predictions.jsonl');
  writeFileSync(predictions, `${rows.join('\n')}\n`);
  return { dataset, predictions };
}

/** The 31 language folders of the official MultiLoKo archive. */
export const MULTILOKO_LANGUAGES = [
  'arabic', 'bengali', 'cantonese', 'czech', 'dutch', 'english', 'farsi', 'french', 'german', 'hebrew', 'hindi',
  'indonesian', 'italian', 'japanese', 'khmer', 'korean', 'malay', 'marathi', 'polish', 'portuguese', 'romanian',
  'russian', 'simplified_mandarin', 'spanish', 'swedish', 'tagalog', 'thai', 'traditional_mandarin', 'turkish', 'urdu',
  'vietnamese',
];

/**
 * A generated dev set in the official layout: per language folder `dev.jsonl` (local questions),
 * `knowledge_fewshot.jsonl`, and the translations — every other language's questions to English
 * (`<lang>/dev_translated_{human|machine}_english.jsonl`) and English's questions into every other language
 * (`english/dev_translated_{human|machine}_<lang>.jsonl`); 31 × 250 local + 4 × 30 × 250 translated = 37,750 items.
 * Every item has a paragraph, a question, a long and short answers, as the official records do; the replay file
 * answers every item. `targetsFor`: an item's answers by its source language (default: a few in Latin script and Japanese).
 */
export function writeFullInputs(
  dir: string,
  perSubset = 250,
  targetsFor: (sourceLanguage: string, i: number) => readonly string[] = (language, i) => ANSWERS[(language.length + i) % ANSWERS.length]!,
): { dataset: string; predictions: string; items: number; subsets: number } {
  const dataset = path.join(dir, 'benchmark_data');
  const rows: string[] = [];
  let items = 0;
  let subsets = 0;
  const item = (language: string, i: number, questionLanguage: string) => {
    const targets = [...targetsFor(language, i)];
    return {
      id: `${String(i).padStart(3, '0')}_${language}_page_${(i * 37) % 1000}.txt`,
      text: `Paragraph ${i} of the ${language} Wikipedia page, in ${questionLanguage}: ${'a sentence about a place, a person or a date. '.repeat(6)}`,
      question: `Question ${i} of ${language}, in ${questionLanguage}: which place, person or date is meant here?`,
      targets,
      target: `The answer is ${targets[0]!}.`,
      output_type: i % 2 ? 'a place' : 'a date',
    };
  };
  const writeSubset = (folder: string, file: string, key: string, source: string, questionLanguage: string) => {
    const lines: string[] = [];
    for (let i = 0; i < perSubset; i++) {
      const record = item(source, i, questionLanguage);
      lines.push(JSON.stringify(record));
      rows.push(JSON.stringify({ language: key, id: record.id, prediction: predictionFor(record.targets, (key.length * 7 + i * 13) % 5) }));
    }
    writeFileSync(path.join(dataset, folder, file), `${lines.join('\n')}\n`);
    items += perSubset;
    subsets++;
  };
  for (const language of MULTILOKO_LANGUAGES) {
    mkdirSync(path.join(dataset, language), { recursive: true });
    const fewshot = Array.from({ length: 5 }, (_, i) => JSON.stringify({ question: `Example question ${i} in ${language}?`, answer: `answer ${i}`, output_type: 'a name' }));
    writeFileSync(path.join(dataset, language, 'knowledge_fewshot.jsonl'), `${fewshot.join('\n')}\n`);
    writeSubset(language, 'dev.jsonl', language, language, language);
  }
  for (const language of MULTILOKO_LANGUAGES) {
    if (language === 'english') continue;
    for (const translation of ['human', 'machine']) {
      writeSubset(language, `dev_translated_${translation}_english.jsonl`, `${language}_translated_${translation}_english`, language, 'english');
      writeSubset('english', `dev_translated_${translation}_${language}.jsonl`, `english_translated_${translation}_${language}`, 'english', language);
    }
  }
  const predictions = path.join(dir, 'predictions.jsonl');
  writeFileSync(predictions, `${rows.join('\n')}\n`);
  return { dataset, predictions, items, subsets };
}

/** Clock ticks per second of /proc/<pid>/stat's CPU times (USER_HZ: 100 on Linux builds that matter here). */
const CLOCK_TICKS = 100;

/**
 * Resident set size (bytes) of a process and all its descendants, and their CPU seconds (user + system, children
 * already waited for included), read from /proc; zeros once they are gone. `own`: the CPU seconds of the process
 * itself (Vitest's main process), without its descendants (the workers).
 */
function treeUsage(pid: number): { rss: number; cpu: number; own: number } {
  let rss = 0;
  let ticks = 0;
  let own = 0;
  const pending = [pid];
  while (pending.length > 0) {
    const p = pending.pop()!;
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      const resident = /^VmRSS:\s+(\d+) kB/m.exec(status);
      if (resident) rss += Number(resident[1]) * 1024;
      // Fields after the parenthesised command: utime, stime, cutime, cstime are fields 14–17 of the line.
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
      if (p === pid) own = Number(fields[11]) + Number(fields[12]);
      for (const task of readdirSync(`/proc/${p}/task`)) {
        const children = readFileSync(`/proc/${p}/task/${task}/children`, 'utf8').trim();
        if (children) pending.push(...children.split(/\s+/).map(Number));
      }
    } catch {
      // The process ended between two reads.
    }
  }
  return { rss, cpu: ticks / CLOCK_TICKS, own: own / CLOCK_TICKS };
}

/**
 * Samples a process tree every 20 ms until stopped: its peak total RSS, its CPU seconds and those of its root process
 * alone (undefined without /proc).
 */
function sampleTree(pid: number | undefined): () => { peakRss: number | undefined; cpuSeconds: number | undefined; mainCpuSeconds: number | undefined } {
  if (pid === undefined || process.platform !== 'linux') return () => ({ peakRss: undefined, cpuSeconds: undefined, mainCpuSeconds: undefined });
  let peak = 0;
  let cpu = 0;
  let own = 0;
  const sample = () => {
    const usage = treeUsage(pid);
    peak = Math.max(peak, usage.rss);
    cpu = Math.max(cpu, usage.cpu);
    own = Math.max(own, usage.own);
  };
  sample();
  const timer = setInterval(sample, 20);
  return () => {
    clearInterval(timer);
    return { peakRss: peak, cpuSeconds: cpu, mainCpuSeconds: own };
  };
}

export interface RunOutcome {
  code: number | null;
  output: string;
  /** Peak total RSS of the child and its descendants, in bytes (undefined where /proc is absent). */
  peakRss: number | undefined;
  /** CPU seconds (user + system) of the child and its descendants, up to the last sample before it exited. */
  cpuSeconds: number | undefined;
  /** The same of the child alone (Vitest's main process; the rest is its workers'). */
  mainCpuSeconds: number | undefined;
}

/** Runs `vitest <args>` as a child process in `cwd` (`nodeArgs` given to its Node), timing its process tree. */
export function runVitest(args: string[], env: Record<string, string>, cwd = REPO_ROOT, nodeArgs: readonly string[] = []): Promise<RunOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, VITEST_BIN, ...args], { cwd, env: { ...process.env, CI: '1', NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const stopSampling = sampleTree(child.pid);
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output, ...stopSampling() }));
  });
}

export interface ReplayRun {
  items: number;
  seconds: number;
  /** Peak total RSS of Vitest's process tree, bytes. */
  peakRss: number | undefined;
  /** CPU seconds of Vitest's process tree, and of its main process alone (the rest: its workers). */
  cpuSeconds: number | undefined;
  mainCpuSeconds: number | undefined;
}

/**
 * A user's project with vitest-lokal installed, as `npm install` leaves it: the package (package.json, bin/ and the
 * compiled dist/, which `npm run build` must have made) copied into its node_modules, so Vitest loads it with Node as a
 * dependency rather than transforming it as project source; every other package links to this repository's copy.
 * Holds the README's config and eval file. `dist`: the compiled package to install (default: this repository's dist/).
 */
export function writeInstalledProject(dir: string, dist = path.join(REPO_ROOT, 'dist')): string {
  const project = path.join(dir, 'project');
  const modules = path.join(project, 'node_modules');
  mkdirSync(modules, { recursive: true });
  for (const entry of readdirSync(path.join(REPO_ROOT, 'node_modules'))) {
    if (entry !== '.bin' && entry !== 'vitest-lokal') symlinkSync(path.join(REPO_ROOT, 'node_modules', entry), path.join(modules, entry), 'dir');
  }
  const installed = path.join(modules, 'vitest-lokal');
  mkdirSync(installed);
  cpSync(path.join(REPO_ROOT, 'package.json'), path.join(installed, 'package.json'));
  cpSync(dist, path.join(installed, 'dist'), { recursive: true });
  // The `lokal` command as installed: bin/lokal.js with dist/ and no src/ beside it, so it runs the build as it is.
  cpSync(path.join(REPO_ROOT, 'bin'), path.join(installed, 'bin'), { recursive: true });
  writeFileSync(path.join(project, 'package.json'), '{ "name": "lokal-bench-user", "private": true, "type": "module" }\n');
  writeFileSync(path.join(project, 'vitest.config.ts'), "import { defineConfig } from 'vitest/config';\nimport { lokalEvals } from 'vitest-lokal/config';\nexport default defineConfig({ test: lokalEvals() });\n");
  mkdirSync(path.join(project, 'evals'));
  writeFileSync(path.join(project, 'evals', 'multiloko.eval.ts'), "import { benchmarkSuite } from 'vitest-lokal/vitest';\nimport { multiloko } from 'vitest-lokal/benchmarks';\nawait benchmarkSuite(multiloko);\n");
  return project;
}

/** The settings of a replay run over `inputs` writing to `output`: every item of the data, no gate, no baseline. */
export function replayEnv(inputs: { dataset: string; predictions: string }, output: string): Record<string, string> {
  return {
    LOKAL_MULTILOKO: inputs.dataset,
    LOKAL_MODEL: `replay:${inputs.predictions}`,
    LOKAL_OUTPUT: output,
    LOKAL_LANGUAGES: '',
    LOKAL_SUBSETS: '',
    LOKAL_LIMIT: '',
    LOKAL_THRESHOLDS: '',
    LOKAL_BASELINE: '',
  };
}

/**
 * Times one replay evals run over `writeInputs` (default 30 × 250 = 7,500 local items), or over `writeFullInputs`
 * (`layout: 'full'`, 37,750 items); throws if the run fails or scores a different count. `installed`: in a user's
 * project with the compiled package installed (writeInstalledProject), instead of this repository's evals project,
 * which runs vitest-lokal from its TypeScript sources; `dist`: the compiled package it installs (default: this
 * repository's dist/); `targetsFor`: the full layout's answers (writeFullInputs).
 */
export async function benchReplay(
  options: ReplayBenchOptions & { layout?: 'local' | 'full'; installed?: boolean; dist?: string; targetsFor?: (language: string, i: number) => readonly string[] } = {},
): Promise<ReplayRun> {
  const languages = options.languages ?? 30;
  const perLanguage = options.itemsPerLanguage ?? 250;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-bench-'));
  try {
    const inputs = options.layout === 'full' ? writeFullInputs(dir, perLanguage, options.targetsFor) : { ...writeInputs(dir, languages, perLanguage), items: languages * perLanguage };
    const output = path.join(dir, 'results');
    const project = options.installed ? writeInstalledProject(dir, options.dist) : undefined;
    const args = project ? ['run', 'evals/multiloko.eval.ts'] : ['run', '--project', 'evals', 'evals/multiloko.eval.ts'];
    const start = process.hrtime.bigint();
    const { code, output: log, peakRss, cpuSeconds, mainCpuSeconds } = await runVitest(args, replayEnv(inputs, output), project);
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    if (code !== 0) throw new Error(`replay bench: vitest exited with ${code}\n${log.slice(-3000)}`);
    const results = JSON.parse(readFileSync(path.join(output, 'multiloko.json'), 'utf8')) as { summary: { items: { scored: number } } };
    const items = results.summary.items.scored;
    if (items !== inputs.items) throw new Error(`replay bench: scored ${items} items, expected ${inputs.items}`);
    return { items, seconds, peakRss, cpuSeconds, mainCpuSeconds };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A record of the shape and size a redacted MultiLoKo item test leaves in `meta.lokalItem` (its keys in order, hashes
 * for texts, eight scores, the verdict line), fresh objects per test (JavaScript source, for benchVitestFloor's file).
 */
const FLOOR_RECORD = [
  `{ subset: 'lang' + l, id: i + '_page.txt', index: i, itemKey: 'multiloko/lang' + l + '/' + i + '_page.txt', question: hash(l, i, 1),`,
  `rawPrediction: hash(l, i, 2), answer: hash(l, i, 2), prediction: hash(l, i, 3),`,
  `prompt: { mode: 'none', language: null, fewshot: 'none', shots: 0, extracted: false }, targets: [hash(l, i, 4), hash(l, i, 5)],`,
  `scores: { em: i % 2, f1: 0.6666666666666666 + i / 1e6, bleu: 49.99999999999999 + i / 1e6, chrf: 69.97816593886462 + i / 1e6, edit_distance: i % 7, edit_similarity: 0.5714285714285714 + i / 1e6, edit_distance_first: i % 7, f1_words: 0.6666666666666666 + i / 1e6 },`,
  `error: 'verbose', latencyMs: 0, cached: false, missing: false,`,
  `verdict: '✗ EM 0 · F1 0.67 · chrF 70.0 · said "' + hash(l, i, 2) + '" · targets "' + hash(l, i, 4) + '" | "' + hash(l, i, 5) + '" · error verbose',`,
  `modelInput: null, promptTokens: null, outputTokens: null }`,
].join(' ');

/**
 * Vitest's own floor for the same shape of run, with no lokal code: 30 describes × 250 concurrent tests (or any
 * other count: 151 × 250 for the full layout), each
 * storing a meta record and (by default) one annotation, as our item tests do (`record`: a record of a redacted
 * MultiLoKo item's shape and size instead of a short one, what our item tests send to Vitest's main process). Runs in
 * a temporary project whose node_modules links to this repository's, so it uses the very Vitest the evals run on.
 */
export async function benchVitestFloor(
  options: ReplayBenchOptions & { annotate?: boolean; record?: boolean; profile?: string } = {},
): Promise<{ tests: number; seconds: number; peakRss: number | undefined; cpuSeconds: number | undefined; mainCpuSeconds: number | undefined }> {
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
        `const record = ${options.record === true};`,
        `const hash = (l, i, k) => 'sha256:' + (l * 1e9 + i * 1e3 + k).toString(16).padStart(12, '0');`,
        `for (let l = 0; l < ${languages}; l++) describe('lang' + l, () => {`,
        `  for (let i = 0; i < ${perLanguage}; i++) test.concurrent('item ' + i + ' · which place or date is meant here?', async ({ task, annotate: note }) => {`,
        `    if (record) task.meta.lokalItem = ${FLOOR_RECORD};`,
        `    else task.meta.item = { id: i, prediction: 'Roma', targets: ['roma'], scores: { em: 1, f1: 1, chrf: 100 }, latencyMs: 0, cached: false };`,
        `    if (annotate) await note('✓ EM 1 · F1 1 · chrF 100.0 · said "Roma" · targets "roma"', 'correct');`,
        `  });`,
        `});`,
      ].join('\n'),
    );
    // --cpu-prof for the main process and its worker, as bench/replayOutputs.ts takes them of a lokal run.
    const profile = options.profile === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${path.resolve(options.profile)}`];
    if (options.profile) mkdirSync(options.profile, { recursive: true });
    const start = process.hrtime.bigint();
    const { code, output: log, peakRss, cpuSeconds, mainCpuSeconds } = await runVitest(['run', ...profile.map((arg) => `--execArgv=${arg}`)], {}, dir, profile);
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const tests = languages * perLanguage;
    if (code !== 0 || !log.includes(`${tests} passed`)) throw new Error(`vitest floor bench: exit ${code}\n${log.slice(-2000)}`);
    return { tests, seconds, peakRss, cpuSeconds, mainCpuSeconds };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { items, seconds } = await benchReplay();
  process.stdout.write(`replay evals run: ${items} items in ${seconds.toFixed(2)} s\n`);
}
