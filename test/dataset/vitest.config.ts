// The dataset benchmark's project: the repository's alias of vitest-lokal to its sources, and one registration
// (`benchmarks: [capitals]`). Vitest's verbose reporter replaces the default one so the test can read every name.
import { defineConfig, mergeConfig } from 'vitest/config';
import base from '../../vitest.config.ts';
import { lokalEvals } from '../../src/vitest/config.ts';
import { capitals } from './capitalsBenchmark.ts';

const evals = lokalEvals({ include: ['test/dataset/*.eval.ts'], benchmarks: [capitals] });
export default mergeConfig({ resolve: base.resolve }, defineConfig({ test: { ...evals, reporters: ['verbose', ...[evals.reporters].flat().slice(1)] } }));
