// The killing toy benchmark's project, set up as test/toy's is.
import { defineConfig, mergeConfig } from 'vitest/config';
import base from '../../../vitest.config.ts';
import { lokalEvals } from '../../../src/vitest/config.ts';
import { killingCapitals } from './killingToy.ts';

const evals = lokalEvals({ include: ['test/vitest/worker/*.eval.ts'], benchmarks: [killingCapitals] });
// The base config's alias and its fs module cache (child runs of this project start often).
export default mergeConfig({ resolve: base.resolve, test: { experimental: base.test?.experimental } }, defineConfig({ test: { ...evals, reporters: ['verbose', ...[evals.reporters].flat().slice(1)] } }));
