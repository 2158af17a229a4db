// vitest-lokal/vitest: benchmarks as Vitest tests — benchmarkSuite for eval files, the model fixture, the matchers.
import './meta.ts';
export { benchmarkSuite, GATE_TEST_NAME } from './benchmarkSuite.ts';
export { SUMMARY_TEST_NAME } from './summaryTest.ts';
export { lokalTest, ModelPool } from './fixtures.ts';
export { registerMatchers } from './matchers.ts';
export { BENCHMARKS, registerBenchmark, type LokalMatchers, type Targets } from '../benchmarks/index.ts';
