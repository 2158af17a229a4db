// The evals' test runner (Vitest's TestRunner, which 4.1 exports from 'vitest'): when a group's suite ends, its
// aggregates go into the suite's meta, so the reporter can roll up from meta alone — also after `--shard` +
// `--reporter=blob` + `--merge-reports`; a suite's summary test, listed first, runs after its groups; and Ctrl-C is
// left to the main process (workerInterrupts.ts). Configure it as `runner: 'vitest-lokal/runner'` (lokalEvals does).
import type { RunnerTestSuite as Suite } from 'vitest';
import { TestRunner } from 'vitest';
import { findBenchmark } from '../benchmarks/index.ts';
import './meta.ts';
import { descendantTests, groupTests, runnerState, type RunnerTaskLike } from './views.ts';
import { runSummariesLast } from './summaryLast.ts';
import { cancelRun, startRun } from './runCancel.ts';
import { leaveInterruptsToMainProcess } from './workerInterrupts.ts';

/** The aggregate of a group suite (the one whose direct child is a gate test); undefined for other suites. */
export function groupAggregate(suite: { tasks: readonly RunnerTaskLike[] }): RunnerTaskLike['meta']['lokalGroup'] {
  const parts = groupTests(
    suite.tasks.filter((t) => t.type === 'test'),
    (t) => t.meta,
  );
  const definition = parts && findBenchmark(parts.info.benchmark);
  if (!parts || !definition) return undefined;
  const items = descendantTests(suite)
    .filter((t) => !t.meta.lokalGroup)
    .map((t) => ({ record: t.meta.lokalItem, state: runnerState(t) }));
  return definition.aggregate(parts.info, items, parts.gate);
}

export default class LokalRunner extends TestRunner {
  constructor(...args: ConstructorParameters<typeof TestRunner>) {
    super(...args);
    // Vitest makes a runner for each run of a worker.
    startRun();
    leaveInterruptsToMainProcess();
  }

  override cancel(reason: Parameters<TestRunner['cancel']>[0]): void {
    super.cancel(reason);
    cancelRun(reason);
  }

  override async onBeforeRunSuite(suite: Suite): Promise<void> {
    // Listed first (Vitest UI shows the roll-up on top), the summary test runs once the groups it sums up are done.
    runSummariesLast(suite);
    await super.onBeforeRunSuite(suite);
  }

  override async onAfterRunSuite(suite: Suite): Promise<void> {
    if (suite.type === 'suite') {
      const aggregate = groupAggregate(suite as unknown as RunnerTaskLike & { tasks: RunnerTaskLike[] });
      if (aggregate) suite.meta.lokalAggregate = aggregate;
    }
    await super.onAfterRunSuite(suite);
  }
}
