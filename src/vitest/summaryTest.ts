// The benchmark's roll-up in Vitest UI: a `summary` test listed before the groups of the eval file and run after them
// (the lokal runner moves it behind them; Vitest UI lists tests in registration order), whose annotation carries
// the reporter's tables as text and the chart as an SVG image attachment (Vitest UI shows `image/*` attachments inline
// under the annotation; other types only as a download link).
import type { TestContext } from 'vitest';
import { test } from 'vitest';
import type { BenchmarkDefinition, BenchmarkReport, BenchmarkSummary, GroupInfo, MissedGate, RolledGroup } from '../benchmarks/benchmark.ts';
import { terminalLines } from '../data/terminalText.ts';
import type { ParsedClause } from '../core/gates.ts';
import type { PartSpec } from '../benchmarks/parts.ts';
import { groupAggregate } from './runner.ts';
import { inShard } from './uiMode.ts';
import { descendantTests, type RunnerTaskLike } from './views.ts';

/** The name of each benchmark's summary test. */
export const SUMMARY_TEST_NAME = 'summary';

/** The annotation type of the summary (what Vitest UI shows above its text). */
const SUMMARY_ANNOTATION = 'summary';

interface SummaryJob {
  definition: BenchmarkDefinition;
  settings: unknown;
  clauses: ParsedClause[];
  /** In a run listing several models, the model whose describe holds this summary (its groups alone are summed up). */
  model?: string;
  /** One part of several (`benchmarkSuite(b, { part })`): its figures are the part's, the roll-up judges the run's. */
  part?: PartSpec;
}

/** The groups of this benchmark in the file, rolled up from the runner's tasks as the reporter does from its test cases. */
export function fileGroups(definition: BenchmarkDefinition, file: { tasks: readonly RunnerTaskLike[] }, model?: string): Array<RolledGroup<unknown, GroupInfo>> {
  const groups: Array<RolledGroup<unknown, GroupInfo>> = [];
  const visit = (suite: { tasks: readonly RunnerTaskLike[] }) => {
    for (const task of suite.tasks) {
      if (task.type !== 'suite' || !task.tasks) continue;
      const aggregate = groupAggregate(task as { tasks: readonly RunnerTaskLike[] });
      if (aggregate && aggregate.benchmark === definition.name) {
        if (model !== undefined && aggregate.model !== model) continue;
        const records = descendantTests(task as { tasks: readonly RunnerTaskLike[] })
          .filter((t) => !t.meta.lokalGroup && t.meta.lokalItem !== undefined)
          .map((t) => t.meta.lokalItem);
        groups.push({ aggregate, records: definition.uniqueRecords(records) });
      } else {
        visit(task as { tasks: readonly RunnerTaskLike[] });
      }
    }
  };
  visit(file);
  return groups.sort((a, b) => a.aggregate.order - b.aggregate.order);
}

async function summaryTest(job: SummaryJob, { task, annotate }: Pick<TestContext, 'task' | 'annotate'>): Promise<void> {
  const groups = fileGroups(job.definition, task.file as unknown as { tasks: RunnerTaskLike[] }, job.model);
  if (groups.length === 0) {
    await annotate(`${job.definition.title}: no group ran (filtered out or skipped), nothing to sum up`, SUMMARY_ANNOTATION);
    return;
  }
  const context = { settings: job.settings, root: process.cwd(), clauses: job.clauses };
  const summary: BenchmarkSummary = job.definition.summary ? await job.definition.summary(groups, context) : reportSummary(await job.definition.report(groups, context));
  const attachment = summary.attachment && { contentType: summary.attachment.contentType, body: new TextEncoder().encode(summary.attachment.body) };
  await annotate(summary.text, SUMMARY_ANNOTATION, attachment);
  // A run-wide or baseline gate has no gate test of its own: the summary fails on it, so Vitest (and its UI) show it.
  const unseen = (summary.missed ?? []).filter((m) => !shownByGroupGate(task.file as unknown as { tasks: RunnerTaskLike[] }, m));
  // A shard or a part file holds part of the run: its run-wide figures are not the run's (the roll-up judges them).
  if (unseen.length > 0 && !inShard() && !job.part) {
    const count = `${unseen.length} gate${unseen.length === 1 ? '' : 's'}`;
    throw new Error(terminalLines(`${job.definition.title}: ${count} missed over the run\n${unseen.map((m) => `  ${m.message}`).join('\n')}`));
  }
}

function reportSummary(report: BenchmarkReport): BenchmarkSummary {
  return { text: report.lines.filter((line) => line !== '').join('\n'), ...(report.missed ? { missed: report.missed } : {}) };
}

/** Whether a group's gate test in the file already failed on this gate (its figure named alike). */
function shownByGroupGate(file: { tasks: readonly RunnerTaskLike[] }, missed: MissedGate): boolean {
  return descendantTests(file).some((t) => t.meta.lokalGate?.outcomes.some((o) => !o.pass && o.gate === missed.gate && o.figure === missed.figure) === true);
}

/** Declares the summary test; call it before the groups' describes: the lokal runner runs it once they are done. */
export function declareSummary(job: SummaryJob): void {
  test(SUMMARY_TEST_NAME, { meta: { lokalSummary: true } }, (context) => summaryTest(job, context));
}
