// What lokal tests leave in Vitest's task meta: one key per kind of record, for every benchmark (plain JSON, so it
// survives blob reports and --merge-reports).
import type { GateRecord, GroupInfo } from '../benchmarks/benchmark.ts';

declare module '@vitest/runner' {
  interface TaskMeta {
    /** Gate tests: the group (describe) they guard, from collection on. */
    lokalGroup?: GroupInfo;
    /** Gate tests: what they judged. */
    lokalGate?: GateRecord;
    /** Item tests: set at declaration (the console reporter lists them only when they fail). */
    lokalItemTest?: boolean;
    /** Item tests: the benchmark's record of the item. */
    lokalItem?: unknown;
    /** Group suites: aggregates computed by the lokal runner. */
    lokalAggregate?: GroupInfo;
    /** Item tests: requests answered by the model and from the response cache (not set for replay). */
    lokalCalls?: { model: number; cached: number };
    /** Summary tests: listed first in their suite, run after its groups (the lokal runner moves them last). */
    lokalSummary?: boolean;
    /** Any test: scores recorded by the lokal matchers (matcher metric → last value). */
    lokalScores?: Record<string, number>;
  }
}
