// The roll-up reporter: prints the MultiLoKo leaderboard, writes `<output>/multiloko.json` (the `lokal score` layout plus
// a `summary`), and judges the gates — a missed gate makes the process exit non-zero. Runs beside Vitest's own
// reporters (default, json, junit, html) and in `--merge-reports` runs, from task meta alone.
import path from 'node:path';
import type { Reporter, SerializedError, TestModule, TestRunEndReason, Vitest } from 'vitest/node';
import { writeFileAtomic } from '../src/core/io.ts';
import { readBaseline } from '../src/benchmarks/multiloko/baseline.ts';
import { LOKAL_DEFAULTS, resolveLokalSettings, type LokalConfigInput } from '../src/core/settings.ts';
import '../src/benchmarks/multiloko/records.ts';
import { collectSubsets, judgeRun, officialLayout, summariseGroups, summariseRun, type RunSummary } from '../src/benchmarks/multiloko/rollup.ts';
import { gateLines, leaderboardLines, tableMetrics } from '../src/benchmarks/multiloko/table.ts';
import { headlineLines } from '../src/benchmarks/multiloko/headlineTable.ts';
import { describePrompts } from '../src/benchmarks/multiloko/usage.ts';
import { parseThresholds } from '../src/benchmarks/multiloko/gates.ts';

export type LokalReporterOptions = Pick<LokalConfigInput, 'output' | 'thresholds' | 'baseline' | 'baselineTolerance' | 'tableMetrics'>;

export const RESULTS_FILE = 'multiloko.json';

export default class LokalReporter implements Reporter {
  readonly #options: LokalReporterOptions;
  #vitest: Vitest | undefined;
  /** The last run's summary and file (for programmatic use and tests). */
  summary: RunSummary | undefined;
  file: string | undefined;

  constructor(options: LokalReporterOptions = {}) {
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
    const { subsets, warnings } = collectSubsets(testModules);
    if (subsets.length === 0) return;
    const root = this.#vitest?.config.root ?? process.cwd();
    const settings = resolveLokalSettings(this.#options, { cwd: root });
    // Gate settings given now win; otherwise those the test run recorded (so a merge judges like its shards).
    const recorded = subsets[0]!.aggregate;
    const thresholds = settings.thresholds ?? recorded.thresholds;
    const baselineFile = settings.baseline ?? recorded.baseline;
    const tolerance = settings.baselineTolerance ?? recorded.baselineTolerance;
    const output = settings.output ?? LOKAL_DEFAULTS.output;

    for (const warning of warnings) this.#log(`lokal: ${warning}`);
    let failed = false;
    try {
      const groups = summariseGroups(subsets);
      const judged = judgeRun(subsets, groups, {
        gates: parseThresholds(thresholds),
        baseline: baselineFile === undefined ? undefined : readBaseline(path.resolve(root, baselineFile)),
        baselineTolerance: tolerance,
      });
      const summary = summariseRun(subsets, groups, judged);
      this.summary = summary;
      this.#log('');
      for (const line of leaderboardLines(subsets, groups, tableMetrics(settings.tableMetrics))) this.#log(line);
      if (summary.headline) {
        for (const line of headlineLines(summary.headline, { model: summary.model ?? '?', prompt: describePrompts(summary.prompt) })) this.#log(line);
      }
      this.#log(`lokal: ${describePrompts(summary.prompt)}; ${callsLine(summary)}`);
      for (const line of gateLines(judged.outcomes, judged.notApplied)) this.#log(line);

      const results = officialLayout(subsets);
      if (results) {
        const file = path.resolve(root, output, RESULTS_FILE);
        await writeFileAtomic(file, `${JSON.stringify({ ...results, summary }, null, 4)}\n`);
        this.file = file;
        this.#log(`lokal: wrote ${path.relative(process.cwd(), file) || file}`);
      }
      failed = !summary.gates_passed;
    } catch (error) {
      this.#log(`lokal: ${(error as Error).message}`);
      failed = true;
    }
    if (failed) process.exitCode = 1;
  }
}

/** `5 items from the cache, 0 asked the model` (replay: answers read from the file). */
function callsLine(summary: RunSummary): string {
  if (summary.model?.startsWith('replay:')) return `${summary.calls.model_calls} answers read from the predictions file`;
  return `${summary.calls.cached} items from the cache, ${summary.calls.model_calls} asked the model`;
}
