import { defineConfig } from 'vitest/config';

// Two projects: the project's own tests ("unit") and the benchmark suites ("evals").
export default defineConfig({
  test: {
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
        },
      },
    ],
  },
});
