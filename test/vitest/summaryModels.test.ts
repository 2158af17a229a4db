// The summary test of a run listing several models sums up its own model's groups only (the file holds each group once
// per model, under that model's describe).
import { describe, expect, test } from 'vitest';
import type { GroupInfo } from '../../src/benchmarks/benchmark.ts';
import { registerBenchmark } from '../../src/benchmarks/index.ts';
import { fileGroups } from '../../src/vitest/summaryTest.ts';
import type { RunnerTaskLike } from '../../src/vitest/views.ts';
import { capitals } from '../toy/toyBenchmark.ts';

registerBenchmark(capitals);

const info = (model: string): GroupInfo => ({ benchmark: 'toy', key: 'europe', name: 'toy · europe', order: 0, selected: 2, total: 2, model, thresholds: undefined });
const passed = { state: 'pass' };
const item = (id: number, correct: boolean): RunnerTaskLike => ({ type: 'test', mode: 'run', result: passed, meta: { lokalItem: { id, reply: 'x', correct } } });
/** A model's describe: one toy group of two items, `right` of them answered correctly, and its gate test. */
const modelSuite = (model: string, right: number): RunnerTaskLike => ({
  type: 'suite',
  mode: 'run',
  meta: {},
  tasks: [{ type: 'suite', mode: 'run', meta: {}, tasks: [item(1, right > 0), item(2, right > 1), { type: 'test', mode: 'run', result: passed, meta: { lokalGroup: info(model) } }] }],
});
const file = { tasks: [modelSuite('replay:a.jsonl', 2), modelSuite('replay:b.jsonl', 1)] };
const accuracy = (model?: string) => fileGroups(capitals, file, model).map((g) => (g.aggregate as GroupInfo & { accuracy: number }).accuracy);

describe('fileGroups with several models', () => {
  test("each model's summary sees its own group: A 2/2, B 1/2", () => {
    expect(accuracy('replay:a.jsonl')).toEqual([1]);
    expect(accuracy('replay:b.jsonl')).toEqual([0.5]);
  });

  test('without a model (a one-model run) every group of the file counts, as before', () => {
    expect(accuracy()).toEqual([1, 0.5]);
  });
});
