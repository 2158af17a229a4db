// Shared by the e2e tests: a small generated MultiLoKo dataset, replay predictions for it, and child Vitest runs.
import { spawn, type ChildProcess } from 'node:child_process';
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
  /** The process that ran it: the worker's Vitest host, or its own. */
  ran?: { hosted: boolean; pid: number | undefined };
}

/** This process's environment without what Vitest set for its worker and without LOKAL_* settings. */
export function childEnvironment(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (name.startsWith('VITEST') || name.startsWith('LOKAL_') || name === 'TEST' || name === 'FORCE_COLOR') delete env[name];
  }
  return env;
}

/** The environment of a child run: this process's (childEnvironment), non-interactive, with the run's own variables. */
function runEnvironment(env: Record<string, string>): NodeJS.ProcessEnv {
  // CI=1 makes progress non-interactive; it would also switch redaction on (LOKAL_REDACT=auto), which tests ask for themselves.
  return { ...childEnvironment(), CI: '1', NO_COLOR: '1', LOKAL_REDACT: 'off', ...env };
}

/**
 * Runs the repo's Vitest CLI (what `npx vitest` runs) with extra environment variables. A `vitest run` goes to this
 * process's Vitest host (vitestHost.mjs: the CLI's steps in a long-lived process, a third less CPU a run); other
 * command lines (--ui, watch mode), a run while the host is busy, and runs with other terminal settings than the
 * host started with (CI, NO_COLOR: read once when Vitest loads) start their own process.
 */
export function runVitest(args: readonly string[], env: Record<string, string>, cwd = REPO_ROOT): Promise<ChildRun> {
  const full = runEnvironment(env);
  const hosted = args[0] === 'run' && !args.some((a) => a === '--ui' || a.startsWith('--watch')) && full.CI === '1' && full.NO_COLOR === '1' && full.FORCE_COLOR === undefined;
  if (hosted && !vitestHost.busy) return vitestHost.run(args, full, cwd);
  return runVitestProcess(args, full, cwd);
}

/** runVitest in a process of its own, never the host (what the host's runs are compared with). */
export function runVitestAlone(args: readonly string[], env: Record<string, string>, cwd = REPO_ROOT): Promise<ChildRun> {
  return runVitestProcess(args, runEnvironment(env), cwd);
}

/** `node vitest.mjs <args>` in a process of its own. */
function runVitestProcess(args: readonly string[], env: NodeJS.ProcessEnv, cwd: string): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [VITEST_BIN, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, ran: { hosted: false, pid: child.pid } }));
  });
}

const HOST_FILE = path.join(REPO_ROOT, 'test', 'support', 'vitestHost.mjs');
/** Ends each run's output on the host's stdout and stderr (with the run's id); sent with each run. */
const RUN_END = '\u0000vitest-host-run-end:';
/** Runs before a host is replaced by a fresh one (its resident memory grew from 164 to about 250 MiB over 25 replay runs). */
const RUNS_PER_HOST = 25;

interface PendingRun {
  id: number;
  host: ChildProcess;
  stdout: string;
  stderr: string;
  code?: number;
  resolve: (run: ChildRun) => void;
  reject: (error: Error) => void;
}

/** One Vitest host per test worker, started on first use; a host that exits mid-run ends that run as a CLI process would. */
class VitestHost {
  #child: ChildProcess | undefined;
  #runs = 0;
  #pending: PendingRun | undefined;
  #nextId = 1;

  get busy(): boolean {
    return this.#pending !== undefined;
  }

  /** Replaces an idle host now if it would be replaced within the next `runs` runs, so those share one process. */
  keepFor(runs: number): void {
    if (!this.#child || this.busy || this.#runs + runs <= RUNS_PER_HOST) return;
    this.#child.kill('SIGKILL');
    this.#child = undefined;
  }

  run(args: readonly string[], env: NodeJS.ProcessEnv, cwd: string): Promise<ChildRun> {
    const child = this.#start();
    this.#runs++;
    return new Promise((resolve, reject) => {
      const pending: PendingRun = { id: this.#nextId++, host: child, stdout: '', stderr: '', resolve, reject };
      this.#pending = pending;
      child.send({ id: pending.id, args, env, cwd, end: RUN_END });
    });
  }

  #start(): ChildProcess {
    if (this.#child && this.#runs >= RUNS_PER_HOST) {
      this.#child.kill('SIGKILL');
      this.#child = undefined;
    }
    if (this.#child) return this.#child;
    this.#runs = 0;
    // Started with the settings every hosted run shares; each run brings its whole environment.
    const child = spawn(process.execPath, [HOST_FILE], { cwd: REPO_ROOT, env: runEnvironment({}), stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    // Neither the host nor its pipes keep this worker alive; the host exits when this process does (its IPC closes).
    child.unref();
    child.channel?.unref();
    for (const stream of [child.stdout, child.stderr] as Array<NodeJS.ReadableStream & { unref?: () => void }>) stream.unref?.();
    child.stdout!.setEncoding('utf8').on('data', (d: string) => this.#output(child, 'stdout', d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => this.#output(child, 'stderr', d));
    child.on('message', (message: { id?: number; code?: number }) => {
      if (this.#pending?.host === child && message.id === this.#pending.id) {
        this.#pending.code = message.code;
        this.#settle();
      }
    });
    child.on('error', (error) => {
      const pending = this.#pending;
      if (pending?.host !== child) return;
      this.#pending = undefined;
      pending.reject(error);
    });
    // After its output is read to the end: a host that ends mid-run ends that run as `node vitest.mjs` would have.
    child.on('close', (code) => {
      if (this.#child === child) this.#child = undefined;
      const pending = this.#pending;
      if (pending?.host !== child) return;
      this.#pending = undefined;
      pending.resolve({ code, stdout: pending.stdout, stderr: pending.stderr, ran: { hosted: true, pid: child.pid } });
    });
    this.#child = child;
    return child;
  }

  #output(host: ChildProcess, stream: 'stdout' | 'stderr', data: string): void {
    if (this.#pending?.host !== host) return;
    this.#pending[stream] += data;
    this.#settle();
  }

  /** Resolves the pending run once its exit code and both end markers are in. */
  #settle(): void {
    const pending = this.#pending;
    if (!pending || pending.code === undefined) return;
    const marker = `\n${RUN_END}${pending.id}\n`;
    const ends = [pending.stdout.indexOf(marker), pending.stderr.indexOf(marker)];
    if (ends.some((at) => at === -1)) return;
    this.#pending = undefined;
    pending.resolve({ code: pending.code, stdout: pending.stdout.slice(0, ends[0]), stderr: pending.stderr.slice(0, ends[1]), ran: { hosted: true, pid: pending.host.pid } });
  }
}

const vitestHost = new VitestHost();

/**
 * The next `runs` hosted runs of this worker share one host process (it is replaced every RUNS_PER_HOST runs, and the
 * worker's other test files count too: the suite runs with isolate off), for tests that compare their runs' pids.
 */
export function keepVitestHostFor(runs: number): void {
  vitestHost.keepFor(runs);
}
