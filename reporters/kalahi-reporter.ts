// The Kalahi roll-up reporter: prints the Kalahi tables (published layout plus per-category rows), writes
// `<output>/kalahi.json`, and judges the Kalahi gates — a missed gate makes the process exit non-zero. Works from task
// meta alone, so it gives the same results after `--merge-reports`. A no-op for runs without Kalahi suites.
import path from 'node:path';
import type { Reporter, SerializedError, TestModule, TestRunEndReason, Vitest } from 'vitest/node';
import { writeFileAtomic } from '../src/core/io.ts';
import { LOKAL_DEFAULTS, resolveLokalSettings, type LokalConfigInput } from '../src/core/settings.ts';
import '../src/benchmarks/kalahi/records.ts';
import { collectKalahi, kalahiResults, resultsText, type KalahiResults } from '../src/benchmarks/kalahi/results.ts';
import { kalahiGateLines, kalahiTableLines } from '../src/benchmarks/kalahi/table.ts';
import { judgeKalahi, parseKalahiThresholds } from '../src/benchmarks/kalahi/gates.ts';

export type KalahiReporterOptions = Pick<LokalConfigInput, 'output' | 'thresholds'>;

export const KALAHI_RESULTS_FILE = 'kalahi.json';

export default class KalahiReporter implements Reporter {
  readonly #options: KalahiReporterOptions;
  #vitest: Vitest | undefined;
  /** The last run's results and file (for programmatic use and tests). */
  results: KalahiResults | undefined;
  file: string | undefined;

  constructor(options: KalahiReporterOptions = {}) {
    this.#options = options;
  }

  onInit(vitest: Vitest): void {
    this.#vitest = vitest;
  }

  #log(line: string): void {
    if (this.#vitest) this.#vitest.logger.log(line);
    else process.stdout.write(`${line}\n`);
  }

  async onTestRunEnd(testModules: ReadonlyArray<TestModule>, _errors: ReadonlyArray<SerializedError>, _reason: TestRunEndReason): Promise<void> {
    const { suites, warnings } = collectKalahi(testModules);
    if (suites.length === 0) return;
    const root = this.#vitest?.config.root ?? process.cwd();
    let failed = false;
    try {
      const settings = resolveLokalSettings(this.#options, { cwd: root });
      // Gates given now win; otherwise those the test run recorded (so a merge judges like its shards).
      const thresholds = settings.thresholds ?? suites[0]!.aggregate.thresholds;
      const output = settings.output ?? LOKAL_DEFAULTS.output;
      for (const warning of warnings) this.#log(`lokal: ${warning}`);
      const judged = judgeKalahi(parseKalahiThresholds(thresholds), suites.map((s) => s.aggregate));
      const results = kalahiResults(suites, judged);
      this.results = results;
      this.#log('');
      for (const line of kalahiTableLines(suites)) this.#log(line);
      for (const line of kalahiGateLines(judged.outcomes, judged.notApplied)) this.#log(line);
      const file = path.resolve(root, output, KALAHI_RESULTS_FILE);
      await writeFileAtomic(file, resultsText(results));
      this.file = file;
      this.#log(`lokal: wrote ${path.relative(process.cwd(), file) || file}`);
      failed = !results.gates_passed;
    } catch (error) {
      this.#log(`lokal: ${(error as Error).message}`);
      failed = true;
    }
    if (failed) process.exitCode = 1;
  }
}
