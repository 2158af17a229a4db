// The registry: one line per benchmark. A benchmark defined elsewhere (your own, or a test's) joins with
// registerBenchmark, or by being passed to benchmarkSuite / lokalEvals({ benchmarks }).
import type { BenchmarkDefinition } from '../core/benchmark.ts';
import { kalahi } from './kalahi/definition.ts';
import { multiloko } from './multiloko/definition.ts';

export { multiloko, kalahi };
// The matchers' types (their module declares them to the Vitest layer): referenced here so declaration files keep them.
export type { LokalMatchers, Targets } from './multiloko/matchers.ts';

const BUILT_IN: BenchmarkDefinition[] = [multiloko, kalahi];

// One list per process: Vitest evaluates modules again for each test file (and the runner before them), and every
// copy must see the benchmarks an eval file registered.
const GLOBAL = Symbol.for('vitest-lokal.benchmarks');
const shared = globalThis as { [GLOBAL]?: BenchmarkDefinition[] };

/** Registered benchmarks; the first one owns gate clauses without a benchmark prefix. */
export const BENCHMARKS: BenchmarkDefinition[] = (shared[GLOBAL] ??= [...BUILT_IN]);

/** Adds a benchmark; a name already registered keeps its first definition (a module evaluated again defines it again). */
export function registerBenchmark(definition: BenchmarkDefinition): void {
  if (!BENCHMARKS.some((b) => b.name === definition.name)) BENCHMARKS.push(definition);
}

export function findBenchmark(name: string): BenchmarkDefinition | undefined {
  return BENCHMARKS.find((b) => b.name === name);
}
