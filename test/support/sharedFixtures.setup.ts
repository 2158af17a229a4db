// Global setup of the project's own tests (vitest.config.ts): one temporary folder per run, handed to the test files
// with provide/inject, in which test/support/sharedFixture.ts builds each shared fixture once; removed at the end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder of this run's shared fixtures (see test/support/sharedFixture.ts). */
    sharedFixturesDir: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(path.join(tmpdir(), 'lokal-shared-fixtures-'));
  project.provide('sharedFixturesDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
