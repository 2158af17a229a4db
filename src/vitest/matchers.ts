// Every registered benchmark's custom matchers on Vitest's expect (MultiLoKo's `expect(answer).toExactMatch(['Roma'])`):
// the built-in benchmarks' when this module loads, a benchmark of your own's when its suite is declared.
import { expect } from 'vitest';
import type { BenchmarkDefinition, BenchmarkMatchers } from '../benchmarks/benchmark.ts';
import { BENCHMARKS } from '../benchmarks/index.ts';
import './meta.ts';

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-explicit-any
  interface Matchers<T = any> extends BenchmarkMatchers<T> {}
}

// Per process: Vitest evaluates modules again for each test file, and expect.extend is global to the worker.
const EXTENDED = Symbol.for('vitest-lokal.matchers');
const shared = globalThis as { [EXTENDED]?: Set<string> };

/** Adds a benchmark's matchers to expect, once per worker. */
export async function registerMatchers(definition: BenchmarkDefinition): Promise<void> {
  const done = (shared[EXTENDED] ??= new Set());
  if (!definition.matchers || done.has(definition.name)) return;
  done.add(definition.name);
  expect.extend(await definition.matchers());
}

await Promise.all(BENCHMARKS.map(registerMatchers));
