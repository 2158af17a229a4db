// A benchmark's own matchers (defineBenchmark's `matchers` hook): registered on expect once per worker, and typed for
// users by augmenting BenchmarkMatchers on the package's root module, as docs/benchmarks.md says.
import { describe, expect, test } from 'vitest';
import { defineBenchmark } from '../../src/index.ts';
import { registerMatchers } from '../../src/vitest/matchers.ts';

declare module 'vitest-lokal' {
  interface BenchmarkMatchers<R> {
    toBeShouted(): R;
  }
}

let loads = 0;
const shouting = defineBenchmark({
  name: 'shouting',
  title: 'Shouting',
  settings: { key: 'shouting', shape: {}, env: {}, defaults: {} },
  resultsFile: 'shouting.json',
  dataHint: 'built in',
  dataConfigured: () => true,
  prepare: async () => ({ groups: [], testName: () => '', runItem: async () => ({ record: {} }), judgeGroup: () => ({ summary: '', outcomes: [] }) }),
  aggregate: (info) => info,
  uniqueRecords: (records) => [...records],
  report: () => ({ lines: [], resultsText: undefined, passed: true }),
  async matchers() {
    loads++;
    return {
      toBeShouted(actual: unknown) {
        const pass = typeof actual === 'string' && actual === actual.toUpperCase();
        return { pass, message: () => `expected ${JSON.stringify(actual)} to be shouted` };
      },
    };
  },
});

describe('defineBenchmark matchers', () => {
  test('are added to expect once, pass and fail by their own rule', async () => {
    await registerMatchers(shouting);
    await registerMatchers(shouting);
    expect(loads).toBe(1);
    expect('HELLO').toBeShouted();
    expect(() => expect('hello').toBeShouted()).toThrow('expected "hello" to be shouted');
    expect('hello').not.toBeShouted();
  });

  test("the built-in benchmarks' matchers are there without registering anything", () => {
    expect('The Beatles').toExactMatch(['beatles']);
  });
});
