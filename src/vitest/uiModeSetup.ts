// The evals' global setup (`globalSetup` of lokalEvals): tells the test workers whether the run is shown in Vitest UI,
// which only the main process knows (`--ui` is not part of the config workers receive).
import type { TestProject } from 'vitest/node';
import { UI_MODE_KEY } from './uiModeKey.ts';

export default function setup(project: TestProject): void {
  project.provide(UI_MODE_KEY, project.vitest.config.ui === true);
}
