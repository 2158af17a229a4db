// The registry: one line per benchmark. A benchmark defined elsewhere (your own, or a test's) joins with
// registerBenchmark, or by being passed to benchmarkSuite / lokalEvals({ benchmarks }). Whoever assembles a report
// takes the benchmarks' report sections from here (reportSections()) and hands them to the report shell.
import type { ReportSection } from '../report/section.ts';
import type { BenchmarkDefinition } from './benchmark.ts';
import { kalahi } from './kalahi/definition.ts';
import { multiloko } from './multiloko/definition.ts';

export { multiloko, kalahi };
// The matchers' types (their module declares them to the Vitest layer): referenced here so declaration files keep them.
export type { LokalMatchers, Targets } from './multiloko/metrics/matchers.ts';

const BUILT_IN: BenchmarkDefinition[] = [multiloko, kalahi];

// One list per process: Vitest evaluates modules again for each test file (and the runner before them), and every
// copy must see the benchmarks an eval file registered.
const GLOBAL = Symbol.for('vitest-lokal.benchmarks');
const shared = globalThis as { [GLOBAL]?: BenchmarkDefinition[] };

/** Registered benchmarks; the first one owns gate clauses without a benchmark prefix. */
export const BENCHMARKS: BenchmarkDefinition[] = (shared[GLOBAL] ??= []);

/**
 * Adds a benchmark, or replaces the one of the same name in its place: a module evaluated again (the next test file,
 * or a restarted Vitest in the same process) defines it again, and an earlier copy's lazy imports may belong to a
 * closed Vite module runner.
 */
export function registerBenchmark(definition: BenchmarkDefinition): void {
  const at = BENCHMARKS.findIndex((b) => b.name === definition.name);
  if (at === -1) BENCHMARKS.push(definition);
  else BENCHMARKS[at] = definition;
}

for (const definition of BUILT_IN) registerBenchmark(definition);

export function findBenchmark(name: string): BenchmarkDefinition | undefined {
  return BENCHMARKS.find((b) => b.name === name);
}

/**
 * The report sections of the given benchmarks (default: the registered ones) that have one, in their order, each with
 * its definition's name, title and results file: what the report shell is given (src/run, `lokal compare`). Loaded on
 * use, as they bring the report's modules.
 */
export async function reportSections(benchmarks: readonly BenchmarkDefinition[] = BENCHMARKS): Promise<ReportSection[]> {
  const sections = await Promise.all(benchmarks.map(async (b) => (b.reportSection ? { ...(await b.reportSection()), name: b.name, title: b.title, resultsFile: b.resultsFile } : undefined)));
  return sections.filter((s): s is ReportSection => s !== undefined);
}
