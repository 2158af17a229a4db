// The roll-up reporter for every registered benchmark: prints each benchmark's tables, writes its results file
// (`multiloko.json`, `kalahi.json`, …) and judges its gates — a missed gate makes the process exit non-zero. Works
// from task meta alone, so `--merge-reports` gives the same results. A run in which every benchmark was skipped for
// want of data fails too: a green run that measured nothing would let a CI gate pass silently.
import path from 'node:path';
import type { Reporter, SerializedError, TestCase, TestModule, TestRunEndReason, Vitest } from 'vitest/node';
import type { BenchmarkDefinition } from '../src/core/benchmark.ts';
import { routeClauses } from '../src/core/gates.ts';
import { writeFileAtomic } from '../src/core/io.ts';
import { resolveSettingsTree, sectionSettings, sharedSettings, type SettingsTree } from '../src/core/settings.ts';
import { BENCHMARKS, registerBenchmark } from '../src/benchmarks/index.ts';
import { collectGroups } from '../src/vitest/collect.ts';
import { NO_DATA_SUITE_SUFFIX } from '../src/vitest/noData.ts';
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

  constructor(options: LokalReporterOptions = {}) {
    this.#options = options;
    for (const definition of options.benchmarks ?? []) registerBenchmark(definition);
  }

  onInit(vitest: Vitest): void {
    this.#vitest = vitest;
  }

  #log(line: string): void {
    if (this.#vitest) this.#vitest.logger.log(line);
    else process.stdout.write(`${line}\n`);
  }

  // Progress lines in non-interactive runs (src/vitest/runProgress.ts).
  readonly #progress = new RunProgress((line) => this.#log(line));
  onTestRunStart(): void {
    this.#progress.start(this.#options.settings, this.#vitest?.config.root ?? process.cwd());
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

  async onTestRunEnd(testModules: ReadonlyArray<TestModule>, _errors: ReadonlyArray<SerializedError>, _reason: TestRunEndReason): Promise<void> {
    this.#progress.stop();
    if (onlySkippedForData(testModules)) {
      process.stderr.write('lokal: no benchmark ran — no data was found for any of them (see the "skipping" lines above)\n');
      process.exitCode = 1;
      return;
    }
    const run = collectGroups(testModules, BENCHMARKS);
    for (const warning of run.warnings) this.#log(`lokal: ${warning}`);
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
      const output = sharedSettings(tree).output;
      for (const { definition, groups } of run.benchmarks) {
        try {
          const report = await definition.report(groups, { settings: sectionSettings(tree, definition.settings), root, clauses: clauses.get(definition.name) ?? [] });
          for (const line of report.lines) this.#log(line);
          if (report.resultsText !== undefined) {
            const file = path.resolve(root, output, definition.resultsFile);
            await writeFileAtomic(file, report.resultsText);
            this.files.set(definition.name, file);
            this.#log(`lokal: wrote ${path.relative(process.cwd(), file) || file}`);
          }
          if (!report.passed) failed = true;
        } catch (error) {
          this.#log(`lokal: ${(error as Error).message}`);
          failed = true;
        }
      }
    } catch (error) {
      this.#log(`lokal: ${(error as Error).message}`);
      failed = true;
    }
    if (failed) process.exitCode = 1;
  }
}

/** Every eval module's tests were skipped for want of data. */
function onlySkippedForData(testModules: ReadonlyArray<TestModule>): boolean {
  let skippedForData = 0;
  for (const module of testModules.filter((m) => m.moduleId.endsWith('.eval.ts'))) {
    for (const test of module.children.allTests()) {
      if (test.parent.type === 'suite' && test.parent.name.endsWith(NO_DATA_SUITE_SUFFIX)) skippedForData++;
      // One test that ran settles it (no need to walk the rest of a large run).
      else return false;
    }
  }
  return skippedForData > 0;
}
