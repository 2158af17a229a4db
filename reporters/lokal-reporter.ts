// The roll-up reporter for every registered benchmark: prints each benchmark's tables, writes its results file
// (`multiloko.json`, `kalahi.json`, …) and judges its gates — a missed gate makes the process exit non-zero. Works
// from task meta alone, so `--merge-reports` gives the same results. A run in which every benchmark was skipped for
// want of data fails too: a green run that measured nothing would let a CI gate pass silently.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Reporter, SerializedError, TestCase, TestModule, TestRunEndReason, TestSpecification, Vitest } from 'vitest/node';
import type { BenchmarkDefinition } from '../src/benchmarks/benchmark.ts';
import { routeClauses, ThresholdError } from '../src/core/gates.ts';
import { gatesOfIncompleteRun, incompleteResultsFile, incompleteResultsText, type Incompleteness } from '../src/core/incomplete.ts';
import { writeFileAtomic } from '../src/core/io.ts';
import { requireCacheFile, requireOutputFolder } from '../src/models/outputCheck.ts';
import { resolveRedaction } from '../src/core/redact.ts';
import { listModels, splitModelList } from '../src/core/modelList.ts';
import { terminalLines } from '../src/data/terminalText.ts';
import { LokalConfigError, resolveSettingsTree, sectionSettings, sharedSettings, type SettingsTree } from '../src/core/settings.ts';
import { BENCHMARKS, registerBenchmark } from '../src/benchmarks/index.ts';
import { summariseList } from '../src/data/errors.ts';
import { DEFAULT_CACHE_FILE } from '../src/models/cache.ts';
import { collectGroups } from '../src/vitest/collect.ts';
import { RUNNER_FILE } from '../src/vitest/config.ts';
import { incompleteReason, unfinishedModules } from '../src/vitest/completeness.ts';
import { SKIPPED_SUITE_SUFFIXES } from '../src/vitest/noData.ts';
import { RunProgress } from '../src/vitest/runProgress.ts';
import { modelFolders, modelNames, writeModelOutputs } from './modelOutputs.ts';
import { requireSeparateOutputs } from './runFiles.ts';
import { RunInterrupt, signalExitCode } from './interrupt.ts';
import { ExitReasons } from './exitLine.ts';
import { preloadReportModules, writeRunOutputs } from './runOutputs.ts';

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

  // SIGINT/SIGTERM while the tests run: cancel, then write what finished (reporters/interrupt.ts).
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
    let shared: ReturnType<typeof sharedSettings>;
    try {
      const tree = resolveSettingsTree(BENCHMARKS.map((b) => b.settings), this.#options.settings, { cwd: root });
      shared = sharedSettings(tree);
      // The gates' grammar too (their scopes need the data, which the suites load).
      const names = BENCHMARKS.map((b) => b.name);
      const routed = routeClauses(tree.thresholds, names, names[0]!);
      for (const b of BENCHMARKS) for (const clause of routed.get(b.name) ?? []) b.checkClause?.(clause);
      requireOutputFolder(path.resolve(root, shared.output));
      requireSeparateOutputs(tree, BENCHMARKS, root);
      if (!splitModelList(shared.model ?? '').every((m) => m.startsWith('replay:'))) requireCacheFile(shared.cacheFile ?? DEFAULT_CACHE_FILE, shared.cache ?? 'readwrite');
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
    // The main process is idle while the tests run: load the report's modules (vega) now rather than after them.
    if (shared.report?.toLowerCase() !== 'off' || process.env.GITHUB_STEP_SUMMARY) preloadReportModules();
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

  // Why lokal failed the run, for its last line (reporters/exitLine.ts).
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
    const run = collectGroups(testModules, BENCHMARKS, signal);
    for (const warning of run.warnings) this.#log(`lokal: ${warning}`);
    // An eval file that never finished and left no group behind (its worker died while collecting) fails the run too.
    const why = signal ? `the run was interrupted (${signal}) before these groups finished` : incompleteReason(errors, reason);
    // A -t filter that keeps part of a benchmark, or an interrupt that skipped the tests not yet started, leaves a
    // partial run: its groups that lost items are missing like those whose worker died.
    const filter = this.#vitest?.config.testNamePattern;
    const evalModules = testModules.filter((m) => m.moduleId.endsWith('.eval.ts') || m.project.config.runner === RUNNER_FILE);
    const lost = unfinishedModules(evalModules).filter((id) => !moduleHasGroups(testModules, id));
    for (const id of lost) this.#log(`lokal: ${path.relative(process.cwd(), id) || id} did not finish: ${why.replace(/ before these groups finished$/u, '')}; its results were not written`);
    if (lost.length > 0) {
      process.exitCode = 1;
      this.#exit.add(`${lost.length} eval file${lost.length === 1 ? '' : 's'} did not finish`);
    }
    if (run.benchmarks.length === 0) return;
    const root = this.#vitest?.config.root ?? process.cwd();
    let failed = false;
    try {
      const tree = resolveSettingsTree(
        BENCHMARKS.map((b) => b.settings),
        this.#options.settings,
        { cwd: root },
      );
      // Gates given now win; otherwise those the test run recorded (so a merge judges like its shards).
      const names = BENCHMARKS.map((b) => b.name);
      const clauses = routeClauses(tree.thresholds ?? run.thresholds, names, names[0]!);
      const shared = sharedSettings(tree);
      const output = shared.output;
      // The HTML report shows an incomplete run under its "Incomplete" verdict; the step summary shows complete results only.
      // Several models: each model's results in its own folder below the output (reporters/modelOutputs.ts).
      const listed = splitModelList(shared.model ?? '');
      // A benchmark's own model (`kalahi.model`) beside the shared one is one model per benchmark: one folder still.
      const severalPerBenchmark = listed.length > 1 || run.benchmarks.some((b) => run.benchmarks.some((c) => c.definition === b.definition && c.model !== b.model));
      // Labels given in LOKAL_MODEL (`qwen3=replay:…`) name each model's folder, tables and report.
      const labels = new Map<string | undefined, string>(listModels(shared.model ?? '').flatMap((m) => (m.label === undefined ? [] : [[m.spec, m.label] as [string, string]])));
      const models = [...(listed.length > 1 ? listed : []), ...run.benchmarks.map((b) => b.model)];
      const folders = severalPerBenchmark ? modelFolders(models, labels) : new Map<string | undefined, string>();
      const modelNamesByModel = modelNames(models, labels);
      const writtenByModel = new Map<string | undefined, Map<string, string>>();
      // Incomplete results, by model: the report shows them under its "Incomplete" verdict.
      const incompleteByModel = new Map<string | undefined, Map<string, string>>();
      const objects = new Map<string, object>();
      let keptItems = 0;
      for (const { definition, groups, missing: unfinished, model, skippedItems, items, cutGroups } of run.benchmarks) {
        const output = path.join(shared.output, folders.get(model) ?? '');
        const fileKey = folders.size > 0 ? `${definition.name} ${model ?? ''}` : definition.name;
        const written = writtenByModel.get(model) ?? new Map<string, string>();
        writtenByModel.set(model, written);
        const name = folders.size > 0 ? modelNamesByModel.get(model) : undefined;
        if (folders.size > 0) this.#log(`\nlokal: model ${name === undefined || name === model ? (model ?? '?') : `${name} (${model})`}`);
        keptItems += groups.reduce((n, g) => n + g.records.length, 0);
        try {
          // A run whose groups did not all finish: gates over missing groups fail, results go beside the complete file.
          const cut = signal !== undefined || filter !== undefined ? cutGroups : [];
          const missing = [...unfinished, ...cut.filter((k) => !unfinished.includes(k))];
          const byFilter = unfinished.length === 0 && signal === undefined && cut.length > 0;
          const reasonHere = byFilter ? `a -t filter (${filter}) kept ${items - skippedItems} of ${items} items` : why;
          const incomplete: Incompleteness | undefined = missing.length > 0 ? { missing, reason: reasonHere } : undefined;
          const own = clauses.get(definition.name) ?? [];
          const finishedKeys = groups.map((g) => g.aggregate.key).filter((k) => !missing.includes(k));
          const gates = incomplete ? gatesOfIncompleteRun(definition.name, own, finishedKeys, incomplete) : { judged: own, failed: [] };
          const report = await definition.report(groups, { settings: sectionSettings(tree, definition.settings), root, clauses: gates.judged, ...(name !== undefined ? { modelLabel: name } : {}) });
          for (const line of report.lines) this.#log(line);
          const complete = path.resolve(root, output, definition.resultsFile);
          if (incomplete) {
            this.#log(`lokal: ${definition.name}: INCOMPLETE run: ${incomplete.reason}: ${summariseList(missing)}`);
            for (const outcome of gates.failed) this.#log(`  ✗ ${outcome.message}`);
            const file = path.resolve(root, output, incompleteResultsFile(definition.resultsFile));
            const kept = groups.reduce((n, g) => n + g.records.length, 0);
            if (kept === 0) {
              // Nothing to keep: an earlier run's incomplete file, with the items it did finish, stays.
              this.#log(`lokal: ${definition.name}: no item finished, so no results file is written (${path.relative(process.cwd(), complete) || complete} and ${path.basename(file)} left as they were)`);
            } else {
              const text = incompleteResultsText(definition.name, report.resultsText, incomplete, gates.failed);
              await writeFileAtomic(file, text);
              incompleteByModel.set(model, (incompleteByModel.get(model) ?? new Map<string, string>()).set(definition.name, text));
              this.files.set(fileKey, file);
              this.#log(`lokal: wrote ${path.relative(process.cwd(), file) || file} (complete: false; the ${kept} ${kept === 1 ? 'item' : 'items'} that finished; ${path.relative(process.cwd(), complete) || complete} left as it was)`);
            }
            failed = true;
            this.#exit.add(`${definition.name}: incomplete run`);
          } else if (report.resultsText !== undefined) {
            await writeFileAtomic(complete, report.resultsText);
            // A complete run supersedes an earlier incomplete one.
            await rm(path.resolve(root, output, incompleteResultsFile(definition.resultsFile)), { force: true });
            this.files.set(fileKey, complete);
            written.set(definition.name, report.resultsText);
            if (report.results && folders.size === 0) objects.set(definition.name, report.results);
            this.#log(`lokal: wrote ${path.relative(process.cwd(), complete) || complete}`);
          }
          if (!report.passed) {
            failed = true;
            if (report.missed?.length) this.#exit.missed(definition.title, report.missed);
            else this.#exit.add(`${definition.name} failed (see its lines above)`);
          }
        } catch (error) {
          this.#log(`lokal: ${(error as Error).message}`);
          failed = true;
          this.#exit.add(`${definition.name}: ${(error as Error).message.split('\n')[0]}`);
        }
      }
      // Vitest's counts (gate and summary tests too; stopped tests as skipped) are not the items kept: said once.
      if (signal) this.#log(`lokal: ${signal}: ${keptItems} ${keptItems === 1 ? 'item' : 'items'} finished and kept in all; Vitest's test counts above also count gate and summary tests, and list the tests the interrupt stopped as skipped`);
      if (folders.size > 0) {
        this.compareFile = await writeModelOutputs({ written: writtenByModel, incomplete: incompleteByModel, folders, labels, names: modelNamesByModel, root, output, report: shared.report, baseline: shared.baseline, redact: resolveRedaction(shared.redact).on, stepSummary: process.env.GITHUB_STEP_SUMMARY, log: (line) => this.#log(line) });
        if (failed) process.exitCode = 1;
        return;
      }
      const written = new Map([...writtenByModel.values()].flatMap((texts) => [...texts]));
      const incompleteTexts = new Map([...incompleteByModel.values()].flatMap((texts) => [...texts]));
      const outputs = await writeRunOutputs({ results: written, incomplete: incompleteTexts, objects, root, output, report: shared.report, baseline: shared.baseline, redact: resolveRedaction(shared.redact).on, stepSummary: process.env.GITHUB_STEP_SUMMARY, log: (line) => this.#log(line) });
      this.reportFile = outputs.report;
    } catch (error) {
      this.#log(`lokal: ${(error as Error).message}`);
      failed = true;
      this.#exit.add((error as Error).message.split('\n')[0]!);
    }
    if (failed) process.exitCode = 1;
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
