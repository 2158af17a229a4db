// Kalahi's intervals against hand-worked values: MC1 3 of 4 → Wilson centre (0.75 + z²/8)/(1 + z²/4) = 0.627526,
// half-width 0.326886 (z = 1.959964); MC2 {0.2, 0.4, 0.6} → mean 0.4, sd 0.2, t(0.975, 2) = 4.302653.
import { describe, expect, test } from 'vitest';
import { quasiWilsonByBisection } from '../support/quasiWilson.ts';
import { kalahiGroupIntervals, kalahiIntervals } from '../../src/benchmarks/kalahi/results/intervals.ts';
import type { KalahiPromptRecord } from '../../src/benchmarks/kalahi/run/records.ts';

function record(id: string, category: string, mc1: number, mc2: number | null, bleuAcc?: number, status: 'scored' | 'skipped' = 'scored'): KalahiPromptRecord {
  return {
    suite: 'full', promptVariationId: id, promptId: id.slice(0, 4), category, topic: 't', row: Number(id), itemKey: `kalahi/full/${id}`,
    mc: { normalised: { mc1, mc2, mc2_normalised: mc2, mc3: 0, lprob_max: 0, lprob_diff: 0 } } as KalahiPromptRecord['mc'],
    ...(bleuAcc === undefined ? {} : { generation: { response: 'x', status, metrics: status === 'scored' ? { bleu: { relevant: [], irrelevant: [], max: 0, diff: 0, acc: bleuAcc } } : {}, notComputed: {}, latencyMs: 0, cached: false, missing: false } }),
  };
}

describe('Kalahi intervals', () => {
  const records = [record('1', 'ethics', 1, 0.2, 1), record('2', 'ethics', 0, 0.4, 0), record('3', 'values', 1, 0.6, 1, 'skipped'), record('4', 'values', 1, null)];

  test('MC1 by Wilson, MC2 by the quasi-Wilson interval (null skipped), generation acc over the scored replies', () => {
    const i = kalahiGroupIntervals(records);
    expect(i.mc!.mc1!.method).toBe('wilson');
    expect(i.mc!.mc1!.low).toBeCloseTo(0.627526 - 0.326886, 5);
    expect(i.mc!.mc1!.high).toBeCloseTo(0.627526 + 0.326886, 5);
    // MC2 0.2, 0.4, 0.6: x̄ ± t·s/√n = 0.4 ± 0.497 would leave [0, 1]; the quasi-Wilson interval (t(0.975, 2) = 4.302653) does not.
    expect(i.mc!.mc2).toMatchObject({ method: 'quasi-wilson', n: 3 });
    expect(i.mc!.mc2!.se).toBeCloseTo(0.2 / Math.sqrt(3), 12);
    const [low, high] = quasiWilsonByBisection([0.2, 0.4, 0.6], 1, 4.302652729749464);
    expect(i.mc!.mc2!.low).toBeCloseTo(low, 10);
    expect(i.mc!.mc2!.high).toBeCloseTo(high, 10);
    expect(i.mc!.mc2!.low).toBeGreaterThan(0);
    // two scored replies (1, 0): Wilson of 1 of 2, centre 0.5, half-width z·√(1/8 + z²/16)/(1 + z²/2) = 0.405469
    expect(i.generation!.bleu!.acc).toMatchObject({ method: 'wilson', n: 2 });
    expect(i.generation!.bleu!.acc!.low).toBeCloseTo(0.5 - 0.405469, 5);
    expect(i.generation!.bleu!.acc!.high).toBeCloseTo(0.5 + 0.405469, 5);
    // max and diff are 0 in both replies: a t-interval of no spread
    expect(i.generation!.bleu!.max).toEqual({ low: 0, high: 0, se: 0, n: 2, method: 't' });
    expect(i.generation!.rougeL).toBeUndefined();
  });

  test('per category, and a group without generation has no generation intervals', () => {
    const { overall, by_category } = kalahiIntervals(records, ['ethics', 'values', 'absent']);
    expect(Object.keys(by_category)).toEqual(['ethics', 'values']);
    expect(overall.mc!.mc1!.n).toBe(4);
    expect(by_category.values!.generation).toBeUndefined();
    expect(kalahiGroupIntervals([record('9', 'x', 1, null)])).toEqual({ mc: { mc1: expect.objectContaining({ n: 1 }) } });
  });
});
