// A dataset benchmark beside the built-in ones: MultiLoKo's eval file and the capitals one in one run, the capitals
// benchmark registered in the config only (lokalEvals({ benchmarks })), as a user's project has it.
import { defineConfig, mergeConfig } from 'vitest/config';
import base from '../../vitest.config.ts';
import { lokalEvals } from '../../src/vitest/config.ts';
import { capitals } from './capitalsBenchmark.ts';

const evals = lokalEvals({ include: ['evals/multiloko.eval.ts', 'test/dataset/capitals.eval.ts'], benchmarks: [capitals] });
export default mergeConfig({ resolve: base.resolve, test: { experimental: base.test?.experimental } }, defineConfig({ test: { ...evals, reporters: ['verbose', ...[evals.reporters].flat().slice(1)] } }));
