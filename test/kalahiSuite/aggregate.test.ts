// The runner-side aggregation: only a variant suite (whose direct child is the gate test) gets aggregates, over the
// prompt tests of its category describes; failed and skipped prompt tests are counted.
import { describe, expect, test } from 'vitest';
import { groupAggregate as kalahiSuiteAggregate } from '../../src/vitest/runner.ts';
import type { KalahiPromptRecord, KalahiRunInfo, KalahiSuiteAggregate } from '../../src/benchmarks/kalahi/run/records.ts';

const info = {
  benchmark: 'kalahi',
  key: 'full',
  name: 'kalahi · full',
  variant: 'full',
  file: 'filipino.csv',
  order: 0,
  selected: 4,
  total: 150,
  categories: ['ethics', 'shared knowledge'],
  model: 'transformers:tiny',
  tasks: ['mc'],
  budget: { kind: 'max_length', tokens: 256, description: '' },
  labels: { rougeL: 'rougeLsum', chrf: 'chrF' },
  learnedModels: { bleurt: 'off', bertscore: 'off' },
  strict: false,
  thresholds: undefined,
} satisfies KalahiRunInfo;

function prompt(id: string, row: number, category: string, mc1: number): KalahiPromptRecord {
  const figures = { mc1, mc2: 0.5, mc2_normalised: 0.5, mc3: mc1, lprob_max: 0, lprob_diff: 0 };
  return {
    suite: 'full', promptVariationId: id, promptId: id, category, topic: 't', row, itemKey: `kalahi/${id}`,
    mc: { references: [], normalised: figures, nonNormalised: figures, preferred: { kind: 'relevant', index: 0, text: '', score: 0, best: true }, latencyMs: 0, cached: false },
  };
}

const test_ = (meta: object, state?: string, mode = 'run') => ({ type: 'test', meta, mode, ...(state ? { result: { state } } : {}) });

describe('kalahiSuiteAggregate', () => {
  const ethics = { type: 'suite', meta: {}, mode: 'run', tasks: [test_({ lokalItem: prompt('a', 1, 'ethics', 1) }, 'pass'), test_({ lokalItem: prompt('b', 2, 'ethics', 0) }, 'fail'), test_({}, 'fail')] };
  const shared = { type: 'suite', meta: {}, mode: 'run', tasks: [test_({ lokalItem: prompt('c', 3, 'shared knowledge', 1) }, 'pass'), test_({}, undefined, 'skip')] };
  const variant = { type: 'suite', meta: {}, mode: 'run', tasks: [ethics, shared, test_({ lokalGroup: info }, 'pass')] };

  test('a variant suite: prompt tests of every category; counts; means', () => {
    const aggregate = kalahiSuiteAggregate(variant) as KalahiSuiteAggregate;
    expect(aggregate).toMatchObject({ variant: 'full', recorded: 3, failed: 2, skipped: 1 });
    expect(aggregate.overall.mc!.normalised.mc1).toBe(2 / 3);
    expect(aggregate.byCategory.ethics!.mc!.normalised.mc1).toBe(0.5);
    expect(aggregate.byCategory['shared knowledge']!.prompts).toBe(1);
  });

  test('category describes and the file around the variant get none', () => {
    expect(kalahiSuiteAggregate(ethics)).toBeUndefined();
    expect(kalahiSuiteAggregate({ tasks: [variant] })).toBeUndefined();
  });
});
