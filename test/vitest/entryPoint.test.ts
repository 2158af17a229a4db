// vitest-lokal/vitest exports what eval files use, and not the reporter's internals (collectGroups, groupAggregate).
import { expect, test } from 'vitest';
import * as entry from '../../src/vitest/index.ts';

test('the vitest-lokal/vitest entry point: benchmarkSuite, the fixture, the matchers, the registry, the test names', () => {
  expect(Object.keys(entry).sort()).toEqual(['BENCHMARKS', 'GATE_TEST_NAME', 'ModelPool', 'SUMMARY_TEST_NAME', 'benchmarkSuite', 'lokalTest', 'registerBenchmark', 'registerMatchers']);
});
