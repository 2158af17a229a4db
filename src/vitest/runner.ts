// The evals project's test runner (Vitest's TestRunner, which 4.1 exports from 'vitest' instead of 'vitest/runners'):
// when a subset's suite ends, its aggregates go into the suite's meta, so the reporter can roll up from meta alone —
// also after `--shard` + `--reporter=blob` + `--merge-reports`.
import type { RunnerTestSuite as Suite } from 'vitest';
import { TestRunner } from 'vitest';
import { aggregateSubset, viewOfTask } from '../benchmarks/multiloko/aggregate.ts';
import '../benchmarks/multiloko/records.ts';
import { kalahiSuiteAggregate } from '../benchmarks/kalahi/aggregate.ts';

export default class LokalRunner extends TestRunner {
  override async onAfterRunSuite(suite: Suite): Promise<void> {
    if (suite.type === 'suite') {
      const tests = suite.tasks.filter((task) => task.type === 'test').map(viewOfTask);
      const aggregate = aggregateSubset(tests);
      if (aggregate) suite.meta.lokalAggregate = aggregate;
      // Kalahi variant suites: aggregates over their category describes (src/vitest/kalahiAggregate.ts).
      const kalahi = kalahiSuiteAggregate(suite);
      if (kalahi) suite.meta.lokalKalahiAggregate = kalahi;
    }
    await super.onAfterRunSuite(suite);
  }
}
