// The roll-up reporter for every registered benchmark: it gathers what Vitest reports (the groups from task meta, the
// eval files that never finished, the interrupt, the -t filter) and hands it to src/run/endRun.ts, which prints each
// benchmark's tables, writes its results file (`multiloko.json`, `kalahi.json`, …) and judges its gates — a missed
// gate makes the process exit non-zero. Works from task meta alone, so `--merge-reports` gives the same results. A run
// in which every benchmark was skipped for want of data fails too: a green run that measured nothing would let a CI
// gate pass silently.
import type { Reporter, SerializedError, TestCase, TestModule, TestRunEndReason, TestSpecification, Vitest } from 'vitest/node';
import type { BenchmarkDefinition } from '../src/benchmarks/benchmark.ts';
import { ThresholdError } from '../src/core/gates.ts';
import { terminalLines } from '../src/data/terminalText.ts';
import { LokalConfigError, type SettingsTree } from '../src/core/settings.ts';
import { BENCHMARKS, registerBenchmark } from '../src/benchmarks/index.ts';
import { endRun } from '../src/run/endRun.ts';
import { ExitReasons } from '../src/run/exitLine.ts';
import { RunInterrupt, signalExitCode } from '../src/run/interrupt.ts';
import { preloadReportModules } from '../src/run/runOutputs.ts';
import { checkRunStart } from '../src/run/startRun.ts';
import { collectGroups } from '../src/vitest/collect.ts';
import { RUNNER_FILE } from '../src/vitest/config.ts';
import { incompleteReason, unfinishedModules } from '../src/vitest/completeness.ts';
import { SKIPPED_SUITE_SUFFIXES } from '../src/vitest/noData.ts';
import { RunProgress } from '../src/vitest/runProgress.ts';

export interface LokalReporterOptions {
  /** Settings given to the reporter (e.g. `{ output: 'out', thresholds: 'em>=0.3' }`); LOKAL_* variables still win. */
  settings?: SettingsTree;
  /** Benchmarks beyond the built-in ones (your own defineBenchmark definitions). */
  benchmarks?: BenchmarkDefinition[];
}

export default class LokalReporter implements Reporter {
  readonly #options: LokalReporterOptions;
  #vitest: Vitest | undefined;
  /** The results files written by the last run, by benchmark (for programmatic use and tests). */
  readonly files = new Map<string, string>();
  /** The HTML report written by the last run, if any. */
  reportFile: string | undefined;
  /** compare.html of the last run when it listed several models. */
  compareFile: string | undefined;

  constructor(options: LokalReporterOptions = {}) {
    this.#options = options;
    for (const definition of options.benchmarks ?? []) registerBenchmark(definition);
  }

  onInit(vitest: Vitest): void {
    this.#vitest = vitest;
  }

  /** To the terminal with control characters escaped (lines quote dataset names, ids and model output). */
  #log(raw: string): void {
    const line = terminalLines(raw);
    if (this.#vitest) this.#vitest.logger.log(line);
    else process.stdout.write(`${line}\n`);
  }

  // Progress lines in non-interactive runs (src/vitest/runProgress.ts).
  readonly #progress = new RunProgress((line) => this.#log(line));

  // SIGINT/SIGTERM while the tests run: cancel, then write what finished (src/run/interrupt.ts).
  readonly #interrupt = new RunInterrupt({
    cancel: () => void this.#vitest?.cancelCurrentRun('keyboard-input').catch(() => undefined),
    log: (line) => this.#log(line),
    // A forced cancel first, so the workers are stopped rather than left running without their main process.
    exit: (code) => {
      void this.#vitest?.cancelCurrentRun('keyboard-input').catch(() => undefined);
      setTimeout(() => process.exit(code), 100);
    },
  });

  /**
   * Before any test runs: the settings must be valid and where the run writes usable. A mistake there stops the run
   * before any model call, with one line and exit 1 (not Vitest's "Unhandled Error" with a stack).
   */
  async onTestRunStart(specifications: ReadonlyArray<TestSpecification>): Promise<void> {
    if (!specifications.some((s) => s.project.config.runner === RUNNER_FILE || s.moduleId.endsWith('.eval.ts'))) return;
    const root = this.#vitest?.config.root ?? process.cwd();
    let shared: ReturnType<typeof checkRunStart>;
    try {
      shared = checkRunStart(BENCHMARKS, this.#options.settings, root);
    } catch (error) {
      if (!(error instanceof LokalConfigError || error instanceof ThresholdError)) throw error;
      process.stderr.write(`${terminalLines(`lokal: ${error.message.replace(/\s*\n\s*/gu, ' ')}`)}\n`);
      process.exitCode = 1;
      // Closes Vitest's servers and exits with the code above: no worker has started, nothing was asked or written.
      if (this.#vitest) await this.#vitest.exit(true);
      process.exit(1);
    }
    this.#progress.start(this.#options.settings, root);
    // `vitest run` only: in watch mode Ctrl-C keeps ending the watcher, as Vitest does.
    if (!this.#vitest?.config.watch) this.#interrupt.arm();
    this.#preloadReport = shared.report?.toLowerCase() !== 'off' || Boolean(process.env.GITHUB_STEP_SUMMARY);
  }

  /** Whether the report's modules are still to be loaded this run. */
  #preloadReport = false;

  onTestModuleQueued(): void {
    // The main process is idle while the tests run: load the report's modules (vega) now rather than after them, and
    // not before the first worker starts (in onTestRunStart they held its start back by about 0.2 s).
    if (!this.#preloadReport) return;
    this.#preloadReport = false;
    preloadReportModules();
  }
  onTestModuleCollected(module: TestModule): void {
    this.#progress.collected(module);
  }
  onTestCaseReady(test: TestCase): void {
    this.#progress.ready(test);
  }
  onTestCaseResult(test: TestCase): void {
    this.#progress.result(test);
  }

  // Why lokal failed the run, for its last line (src/run/exitLine.ts).
  #exit = new ExitReasons();

  async onTestRunEnd(testModules: ReadonlyArray<TestModule>, errors: ReadonlyArray<SerializedError>, reason: TestRunEndReason): Promise<void> {
    this.#exit = new ExitReasons();
    try {
      await this.#endRun(testModules, errors, reason);
      const last = this.#exit.line();
      if (last) this.#log(`\n${last}`);
    } finally {
      // An interrupted run ends as the signal would have ended it (130, 143), after its results are written.
      const signal = this.#interrupt.signal;
      this.#interrupt.disarm();
      if (signal) process.exitCode = signalExitCode(signal);
    }
  }

  async #endRun(testModules: ReadonlyArray<TestModule>, errors: ReadonlyArray<SerializedError>, reason: TestRunEndReason): Promise<void> {
    this.#progress.stop();
    if (onlySkippedForData(testModules)) {
      process.stderr.write('lokal: no benchmark ran — each was skipped for want of data or of rows in the predictions file (see the "skipping" lines above)\n');
      process.exitCode = 1;
      return;
    }
    const signal = this.#interrupt.signal;
    const evalModules = testModules.filter((m) => m.moduleId.endsWith('.eval.ts') || m.project.config.runner === RUNNER_FILE);
    const end = await endRun({
      run: collectGroups(testModules, BENCHMARKS, signal),
      registry: BENCHMARKS,
      // An eval file that never finished and left no group behind (its worker died while collecting) fails the run too.
      lost: unfinishedModules(evalModules).filter((id) => !moduleHasGroups(testModules, id)),
      reason: incompleteReason(errors, reason),
      signal,
      filter: this.#vitest?.config.testNamePattern?.toString(),
      settings: this.#options.settings,
      root: this.#vitest?.config.root ?? process.cwd(),
      stepSummary: process.env.GITHUB_STEP_SUMMARY,
      log: (line) => this.#log(line),
    });
    for (const [key, file] of end.files) this.files.set(key, file);
    if ('reportFile' in end) this.reportFile = end.reportFile;
    if ('compareFile' in end) this.compareFile = end.compareFile;
    this.#exit = end.exit;
    if (end.failed) process.exitCode = 1;
  }
}

/** Whether a module collected any lokal group suite. */
function moduleHasGroups(testModules: ReadonlyArray<TestModule>, moduleId: string): boolean {
  const module = testModules.find((m) => m.moduleId === moduleId);
  return module !== undefined && [...module.children.allTests()].some((t) => t.meta().lokalGroup !== undefined);
}

/** Every eval module's tests were skipped for want of data. */
function onlySkippedForData(testModules: ReadonlyArray<TestModule>): boolean {
  let skippedForData = 0;
  for (const module of testModules.filter((m) => m.moduleId.endsWith('.eval.ts'))) {
    for (const test of module.children.allTests()) {
      const suite = test.parent.type === 'suite' ? test.parent.name : '';
      if (SKIPPED_SUITE_SUFFIXES.some((suffix) => suite.endsWith(suffix))) skippedForData++;
      // One test that ran settles it (no need to walk the rest of a large run).
      else return false;
    }
  }
  return skippedForData > 0;
}
