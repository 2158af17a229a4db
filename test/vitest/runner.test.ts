// The runner's aggregates, checked against means folded by hand from the records below.
import { describe, expect, test } from 'vitest';
import type { ExampleScores } from '../../src/metrics/index.ts';
import { aggregateSubset as aggregateGroup, uniqueRecords } from '../../src/benchmarks/multiloko/results/aggregate.ts';
import type { GateRecord } from '../../src/benchmarks/benchmark.ts';
import { groupTests } from '../../src/vitest/views.ts';
import type { LokalItemRecord, LokalSubsetInfo } from '../../src/benchmarks/multiloko/run/records.ts';
import LokalRunner from '../../src/vitest/runner.ts';

const info: LokalSubsetInfo = {
  benchmark: 'multiloko', key: 'italian', name: 'italian · local', language: 'italian', sourceLanguage: 'italian',
  questionLanguage: 'italian', translated: false, order: 3, split: 'dev', location: '/data', file: 'italian/dev.jsonl',
  selected: 5, total: 250, model: 'replay:x', strict: false, thresholds: undefined, baseline: undefined, baselineTolerance: 0.02,
};

function scores(em: number, f1: number, chrf: number): ExampleScores {
  return { em, f1, bleu: chrf / 2, chrf, edit_distance: 1 - em, edit_similarity: f1, edit_distance_first: 2 };
}

const CHAT: LokalItemRecord['prompt'] = { mode: 'chat', language: 'italian', fewshot: 'none', shots: 0, extracted: true };

function record(id: string | number, index: number, s: ExampleScores, missing = false, extra: Partial<LokalItemRecord> = {}): LokalItemRecord {
  return {
    subset: 'italian', id, index, itemKey: `multiloko/italian/${id}`, rawPrediction: '', answer: '', prediction: '', prompt: CHAT, targets: ['x'], scores: s,
    latencyMs: 0, cached: false, missing, verdict: '', ...extra,
  };
}

/** A test as a reporter or the runner sees it: its meta and state. */
interface ItemTestView {
  meta: { lokalItem?: LokalItemRecord; lokalGroup?: LokalSubsetInfo; lokalGate?: GateRecord };
  state: 'passed' | 'failed' | 'skipped' | 'pending';
}
const item = (r: LokalItemRecord | undefined, state: ItemTestView['state'] = 'passed'): ItemTestView => ({ meta: r ? { lokalItem: r } : {}, state });
const gate: ItemTestView = { meta: { lokalGroup: info }, state: 'passed' };

/** A suite's tests split as the runner and reporter split them: the gate test's info, the item tests. */
function aggregateSubset(tests: readonly ItemTestView[]) {
  const parts = groupTests(tests, (t) => t.meta);
  if (!parts) return undefined;
  return aggregateGroup(parts.info as LokalSubsetInfo, parts.items.map((t) => ({ record: t.meta.lokalItem, state: t.state })), parts.gate);
}

describe('aggregateSubset', () => {
  test('means over each id once (first position, last record), with counts', () => {
    const tests = [
      item(record('a', 0, scores(1, 1, 100))),
      item(record('b', 1, scores(0, 0.5, 50))),
      item(undefined, 'failed'),
      item(record('a', 3, scores(0, 0.25, 20))), // same id as item 0: replaces it
      item(record(7, 4, scores(0, 0, 0), true)),
      item(record('7', 5, scores(1, 1, 100))), // a string id is another key than the number 7
      item(undefined, 'skipped'),
      gate,
    ];
    const aggregate = aggregateSubset(tests)!;
    expect(aggregate).toMatchObject({ ...info, scored: 4, missing: 1, failed: 1, skipped: 1 });
    // records a(second), b, 7, '7': em 0,0,0,1 · f1 .25,.5,0,1 · chrf 20,50,0,100
    expect(aggregate.means).toEqual({
      em: 1 / 4,
      f1: (0.25 + 0.5 + 0 + 1) / 4,
      bleu: (10 + 25 + 0 + 50) / 4,
      chrf: (20 + 50 + 0 + 100) / 4,
      edit_distance: 3 / 4,
      edit_similarity: (0.25 + 0.5 + 0 + 1) / 4,
      edit_distance_first: 2,
    });
  });

  test('cache hits, model calls and their time (cache hits and missing answers excluded), prompt uses, model description', () => {
    const base: LokalItemRecord['prompt'] = { mode: 'base', language: 'italian', fewshot: 'official', shots: 5, extracted: true };
    const description = { provider: 'openai', model: 'm', settings: { baseUrl: 'http://127.0.0.1:1/v1' } };
    const aggregate = aggregateSubset([
      item(record('a', 0, scores(1, 1, 1), false, { latencyMs: 120, prompt: base })),
      item(record('b', 1, scores(1, 1, 1), false, { latencyMs: 0, cached: true, prompt: base })),
      item(record('c', 2, scores(1, 1, 1), false, { latencyMs: 30.5 })),
      item(record('d', 3, scores(1, 1, 1), true, { latencyMs: 7, prompt: base })),
      { meta: { lokalGroup: info, lokalGate: { model: description, outcomes: [], notApplied: [] } }, state: 'passed' },
    ])!;
    expect(aggregate).toMatchObject({ cached: 1, modelCalls: 2, modelMs: 150.5, modelDescription: description });
    expect(aggregate.prompts).toEqual([{ ...base, items: 3 }, { ...CHAT, items: 1 }]);
  });

  test('uniqueRecords keeps the first position of a repeated id', () => {
    const out = uniqueRecords([record('b', 1, scores(0, 0, 0)), record('a', 0, scores(1, 1, 1)), record('a', 2, scores(0, 0.5, 0))]);
    expect(out.map((r) => [r.id, r.index])).toEqual([['a', 2], ['b', 1]]);
  });

  test('an id equal to a metric name is left out of the means, as eval.py does', () => {
    const aggregate = aggregateSubset([item(record('em', 0, scores(1, 1, 100))), item(record('x', 1, scores(0, 0, 0))), gate])!;
    expect(aggregate.scored).toBe(2);
    expect(aggregate.means!.em).toBe(0);
  });

  test('no gate test: not a lokal suite; nothing scored: no means', () => {
    expect(aggregateSubset([item(record('a', 0, scores(1, 1, 1)))])).toBeUndefined();
    const empty = aggregateSubset([item(undefined, 'failed'), gate])!;
    expect(empty.means).toBeUndefined();
    expect(empty.failed).toBe(1);
  });
});

describe('LokalRunner', () => {
  // The runner is constructed as Vitest does, with the serialised config parts its constructor and hook read.
  const runner = new LokalRunner({ experimental: {}, logHeapUsage: false } as never);

  function task(meta: object, state: string) {
    return { type: 'test', mode: 'run', meta, result: { state } };
  }

  test('puts the subset aggregates into the suite meta when the suite ends', async () => {
    const r0 = record('a', 0, scores(1, 1, 100));
    const r1 = record('b', 1, scores(0, 0.5, 40), true);
    const suite = {
      type: 'suite', mode: 'run', name: 'italian · local', meta: {} as Record<string, unknown>, result: { state: 'pass' },
      tasks: [task({ lokalItem: r0 }, 'pass'), task({ lokalItem: r1 }, 'pass'), task({}, 'fail'), task({ lokalGroup: info }, 'pass')],
    };
    await runner.onAfterRunSuite(suite as never);
    expect(suite.meta.lokalAggregate).toEqual({
      ...info,
      scored: 2,
      missing: 1,
      failed: 1,
      skipped: 0,
      cached: 0,
      modelCalls: 1,
      modelMs: 0,
      prompts: [{ ...CHAT, items: 2 }],
      means: { em: 0.5, f1: 0.75, bleu: 35, chrf: 70, edit_distance: 0.5, edit_similarity: 0.75, edit_distance_first: 2 },
      // Categories come from the records' strings: both predictions are '' against the target 'x'.
      errors: { correct: 0, empty: 2, verbose: 0, truncated: 0, near: 0, wrong_script: 0, wrong: 0 },
    });
  });

  test('leaves other suites alone', async () => {
    const suite = { type: 'suite', mode: 'run', name: 'other', meta: {} as Record<string, unknown>, result: { state: 'pass' }, tasks: [task({}, 'pass')] };
    await runner.onAfterRunSuite(suite as never);
    expect(suite.meta).toEqual({});
  });
});
