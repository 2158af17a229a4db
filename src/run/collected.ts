// What a run collected, as the end-of-run policy (endRun.ts) reads it: each benchmark's (and model's) rolled-up groups,
// which groups did not finish or lost items, and the gates the test run recorded. src/vitest/collect.ts builds it.
import type { BenchmarkDefinition, GroupInfo, RolledGroup } from '../benchmarks/benchmark.ts';

export interface CollectedBenchmark {
  definition: BenchmarkDefinition;
  groups: Array<RolledGroup<unknown, GroupInfo>>;
  /** Keys of the groups whose tests did not all finish (a worker died, the run was cut short), in group order. */
  missing: string[];
  /** The model of these groups: a run listing several models rolls each up on its own, in the order first seen. */
  model: string | undefined;
  /** Item tests of this benchmark (and model) that were skipped — by a `-t` filter when the run has one — and of all. */
  skippedItems: number;
  items: number;
  /** Keys of the groups that lost items to skipping (a group the filter skipped entirely included), in group order. */
  cutGroups: string[];
}

export interface CollectedRun {
  benchmarks: CollectedBenchmark[];
  /** The gate clauses the test run recorded (used when the reporter is given none). */
  thresholds: string | undefined;
  warnings: string[];
}
