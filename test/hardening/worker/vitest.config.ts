// The killing toy benchmark's project, set up as test/toy's is.
import { defineConfig, mergeConfig } from 'vitest/config';
import base from '../../../vitest.config.ts';
import { lokalEvals } from '../../../src/vitest/config.ts';
import { killingCapitals } from './killingToy.ts';

const evals = lokalEvals({ include: ['test/hardening/worker/*.eval.ts'], benchmarks: [killingCapitals] });
export default mergeConfig({ resolve: base.resolve }, defineConfig({ test: { ...evals, reporters: ['verbose', ...[evals.reporters].flat().slice(1)] } }));
