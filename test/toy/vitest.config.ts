// The toy benchmark's project: the repository's alias of vitest-lokal to its sources, and one registration
// (`benchmarks: [capitals]`). Vitest's verbose reporter replaces the default one so the test can read every name.
import { defineConfig, mergeConfig } from 'vitest/config';
import base from '../../vitest.config.ts';
import { lokalEvals } from '../../src/vitest/config.ts';
import { capitals } from './toyBenchmark.ts';

const evals = lokalEvals({ include: ['test/toy/*.eval.ts'], benchmarks: [capitals] });
// The base config's alias and its fs module cache (child runs of this project start often).
export default mergeConfig({ resolve: base.resolve, test: { experimental: base.test?.experimental } }, defineConfig({ test: { ...evals, reporters: ['verbose', ...[evals.reporters].flat().slice(1)] } }));
