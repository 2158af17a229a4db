import { defineConfig } from 'vitest/config';

// Two projects: the project's own tests ("unit") and the benchmark suites ("evals").
export default defineConfig({
  test: {
    // The lokal roll-up reporter is a no-op for runs without benchmark suites (e.g. the unit project).
    reporters: ['default', './reporters/lokal-reporter.ts', './reporters/no-data-reporter.ts', './reporters/kalahi-reporter.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'evals',
          include: ['evals/**/*.eval.ts'],
          testTimeout: 600_000,
          // Puts each subset's aggregates into suite meta (survives --shard + blob + --merge-reports).
          runner: './src/vitest/runner.ts',
          // Item tests are concurrent: this many model requests in flight per file.
          maxConcurrency: 16,
        },
      },
    ],
  },
});
