import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
// A user writes `from 'vitest-lokal/config'`; the config file itself is bundled before any alias applies, so the
// package's own config imports its source.
import { lokalEvalsProject, lokalReporters } from './src/vitest/config.ts';

// This repository runs vitest-lokal from its sources: each `vitest-lokal/<entry>` a user would import (eval files,
// the runner and reporter named in lokalEvals) maps to the `source` file of package.json's exports.
const { exports } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { exports: Record<string, { source: string }> };
const alias = Object.entries(exports).map(([entry, { source }]) => ({
  find: new RegExp(`^vitest-lokal${entry.slice(1).replace('/', '\\/')}$`, 'u'),
  replacement: fileURLToPath(new URL(source, import.meta.url)),
}));

// The project's own tests that take a minute each (npm install of the packed tarball; models with Qwen2.5's
// 151,936-token vocabulary): the "slow" project, which `npm test` and CI run and `npm run test:fast` leaves out.
const SLOW_TESTS = ['test/package/pack.test.ts', 'test/models/qwenShape.test.ts', 'test/kalahiSuite/qwenShape.test.ts', 'test/cli/planTokens.test.ts', 'test/models/trialPrefill.test.ts'];

/** What the project's own tests share ("unit" and "slow"). */
const ownTests = {
  testTimeout: 60_000,
  // Setup and cleanup hooks run Python or remove an installed temp project: slow on a loaded 2-core machine.
  hookTimeout: 120_000,
  // The project's tests check answers in names, records and reports; where CI is set, LOKAL_REDACT=auto would
  // hash them. Tests of redaction set it themselves.
  env: { LOKAL_REDACT: 'off' },
  // One folder per run for fixtures built once and shared by test files (test/support/sharedFixture.ts).
  globalSetup: ['test/support/sharedFixtures.setup.ts'],
  // Test files share their worker process: a fresh fork per file cost ~0.6 s of CPU each (170 files). The tests keep
  // no state in modules or the environment (vi.stubEnv is undone in afterAll), which a shared worker would leak.
  isolate: false,
  // GitHub's workflow parser imports its schema as JSON without `with { type: 'json' }`, which Node refuses and Vite,
  // transforming the package, allows (test/cli/init.test.ts validates the workflow `lokal init` writes with it).
  server: { deps: { inline: ['@actions/workflow-parser'] } },
};

// Three projects: the project's own tests ("unit", and "slow" for the few that take a minute) and the benchmark
// suites ("evals", set up exactly as a user's is).
export default defineConfig({
  resolve: { alias },
  test: {
    // The roll-up reporter is a no-op for runs without benchmark suites (e.g. the unit project).
    reporters: lokalReporters(),
    // Transformed modules cached on disk (node_modules/.experimental-vitest-cache, keyed by file content and config):
    // the tests start ~100 child Vitest runs, and each would otherwise transform the same sources again.
    experimental: { fsModuleCache: true },
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...SLOW_TESTS], ...ownTests } },
      { extends: true, test: { name: 'slow', include: SLOW_TESTS, ...ownTests } },
      { extends: true, ...lokalEvalsProject() },
    ],
  },
});
