// Ready Vitest settings for the evals: `export default defineConfig({ test: lokalEvals() })` is a whole setup.
import { fileURLToPath } from 'node:url';
import type { ViteUserConfig } from 'vitest/config';
import type { BenchmarkDefinition } from '../benchmarks/benchmark.ts';
import type { SettingsTree } from '../core/settings.ts';
import { hugePagesEnv } from './hugePages.ts';
import { runUsesLocalModel } from './localModelRun.ts';

export interface LokalEvalsOptions {
  /** Eval files (default `evals/**\/*.eval.ts`). */
  include?: string[];
  /** Model requests in flight per file: Vitest's maxConcurrency for the concurrent item tests (default 16). */
  maxConcurrency?: number;
  /** Per-test timeout in ms (default 10 minutes: a local model on CPU can be slow). */
  testTimeout?: number;
  /** Settings for the reporter (`{ output: 'out' }`); LOKAL_* variables still win. */
  settings?: SettingsTree;
  /** Your own benchmarks (defineBenchmark) beside the built-in ones, for the reporter's roll-up. */
  benchmarks?: BenchmarkDefinition[];
  /**
   * Run every eval file in one worker without isolation, so all of them use one loaded model (default: when a model
   * of the run is local, transformers: or llama:, the default model included; false keeps Vitest's isolated workers).
   */
  oneWorker?: boolean;
  /**
   * Start the workers with large allocations on transparent huge pages (GLIBC_TUNABLES `glibc.malloc.hugetlb=1`; Linux
   * with glibc 2.35 or later, elsewhere nothing changes). Default: when a model of the run is local. A GLIBC_TUNABLES
   * of your own that sets glibc.malloc.hugetlb is kept as it is; false leaves the workers' environment alone.
   */
  hugePages?: boolean;
}

/** A module of this package by its path from here: `.ts` when running from source, `.js` from dist. */
function sibling(relative: string): string {
  const extension = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  return fileURLToPath(new URL(`${relative}${extension}`, import.meta.url));
}

/** The runner and reporter files: `vitest-lokal/runner` and `vitest-lokal/reporter`, located without a resolver. */
export const RUNNER_FILE = sibling('./runner');
const REPORTER_FILE = sibling('../../reporters/lokal-reporter');
/** Vitest's default reporter that lists item tests only when they fail, each failure in one line. */
const CONSOLE_REPORTER_FILE = sibling('../../reporters/console-reporter');
/** The global setup telling the workers whether the run is shown in Vitest UI (wrong answers then fail). */
const UI_MODE_SETUP_FILE = sibling('./uiModeSetup');

type Reporters = NonNullable<NonNullable<ViteUserConfig['test']>['reporters']>;

/** The reporters of an evals run: Vitest's default one, quiet about item tests, and the lokal roll-up. */
export function lokalReporters(options: Pick<LokalEvalsOptions, 'settings' | 'benchmarks'> = {}): Reporters {
  return [CONSOLE_REPORTER_FILE, [REPORTER_FILE, { settings: options.settings, benchmarks: options.benchmarks }]] as Reporters;
}

/** The `test` settings of an evals project without reporters (for `projects: [...]`, whose reporters are global). */
export function lokalEvalsProjectTest(options: LokalEvalsOptions = {}) {
  let local: boolean | undefined;
  const usesLocalModel = () => (local ??= runUsesLocalModel(options.settings, { benchmarks: options.benchmarks }));
  const env = (options.hugePages ?? usesLocalModel()) ? hugePagesEnv() : {};
  return {
    include: options.include ?? ['evals/**/*.eval.ts'],
    testTimeout: options.testTimeout ?? 600_000,
    hookTimeout: options.testTimeout ?? 600_000,
    // Puts each group's aggregates into suite meta (survives --shard + blob + --merge-reports).
    runner: RUNNER_FILE,
    // Under `--ui`, a wrong answer fails its item test (the workers cannot see `--ui` themselves).
    globalSetup: [UI_MODE_SETUP_FILE],
    // Item tests are concurrent: this many model requests in flight per file.
    maxConcurrency: options.maxConcurrency ?? 16,
    // A local model is held by its worker: one worker, files one after another without isolation, so the model is
    // loaded once for the run (concurrency inside a file is what batches requests).
    ...((options.oneWorker ?? usesLocalModel()) ? { isolate: false, fileParallelism: false } : {}),
    // Variables the workers start with (Vitest passes a project's env to the processes it forks).
    ...(Object.keys(env).length > 0 ? { env } : {}),
  };
}

/** A project entry named `evals` for a workspace with several projects. */
export function lokalEvalsProject(options: LokalEvalsOptions = {}) {
  return { test: { name: 'evals', ...lokalEvalsProjectTest(options) } };
}

/** The whole `test` block of a project that only runs evals. */
export function lokalEvals(options: LokalEvalsOptions = {}) {
  return { ...lokalEvalsProjectTest(options), reporters: lokalReporters(options) };
}
