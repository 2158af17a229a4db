// The benchmarks of the whole run, in each test worker: an eval file's worker registers only the benchmarks it
// imports, but a gate clause (`caps.em>=0.95`) or a replay row (`{"language": "caps", …}`) of a benchmark registered in
// the config (lokalEvals({ benchmarks })) belongs to that benchmark, not to the first one. uiModeSetup.ts provides them.
import { inject } from 'vitest';
import { BENCHMARKS } from '../benchmarks/index.ts';

export const RUN_BENCHMARKS_KEY = 'lokalBenchmarks';

declare module 'vitest' {
  interface ProvidedContext {
    /** Names of the benchmarks registered in the main process (built-in ones and those of lokalEvals({ benchmarks })). */
    lokalBenchmarks: string[];
  }
}

/** The names of the run's benchmarks: this worker's registered ones first (the first owns unprefixed clauses), then the run's others. */
export function runBenchmarkNames(): string[] {
  const names = BENCHMARKS.map((b) => b.name);
  const provided = inject(RUN_BENCHMARKS_KEY) ?? [];
  return [...names, ...provided.filter((name) => !names.includes(name))];
}
