// The evals' global setup (`globalSetup` of lokalEvals): tells the test workers what only the main process knows —
// whether the run is shown in Vitest UI (`--ui` is not part of the config workers receive), and the benchmarks the
// config registered (lokalEvals({ benchmarks }), whose eval files other workers may never import).
import type { TestProject } from 'vitest/node';
import { BENCHMARKS } from '../benchmarks/index.ts';
import { RUN_BENCHMARKS_KEY } from './runBenchmarks.ts';
import { SHARDED_KEY, UI_MODE_KEY } from './uiModeKey.ts';

export default function setup(project: TestProject): void {
  project.provide(UI_MODE_KEY, project.vitest.config.ui === true);
  project.provide(SHARDED_KEY, project.vitest.config.shard !== undefined);
  project.provide(RUN_BENCHMARKS_KEY, BENCHMARKS.map((b) => b.name));
}
