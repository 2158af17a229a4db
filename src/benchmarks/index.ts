// The registry: one line per benchmark. A benchmark defined elsewhere (your own, or a test's) joins with
// registerBenchmark, or by being passed to benchmarkSuite / lokalEvals({ benchmarks }).
import type { BenchmarkDefinition } from '../core/benchmark.ts';
import { kalahi } from './kalahi/definition.ts';
import { multiloko } from './multiloko/definition.ts';

export { multiloko, kalahi };

/** Registered benchmarks; the first one owns gate clauses without a benchmark prefix. */
export const BENCHMARKS: BenchmarkDefinition[] = [multiloko, kalahi];

/** Adds a benchmark (once per name; a different definition under a taken name is an error). */
export function registerBenchmark(definition: BenchmarkDefinition): void {
  const known = BENCHMARKS.find((b) => b.name === definition.name);
  if (known === definition) return;
  if (known) throw new Error(`a benchmark named ${JSON.stringify(definition.name)} is already registered`);
  BENCHMARKS.push(definition);
}

export function findBenchmark(name: string): BenchmarkDefinition | undefined {
  return BENCHMARKS.find((b) => b.name === name);
}
