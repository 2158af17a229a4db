// One paired comparison for the report, `lokal compare` and the baseline gate: the same runs give the same p and the
// same Holm-adjusted p in each (before, the comparison used a paired t-test for MC2 and kept the pooled row out of Holm).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { aggregateKalahi } from '../../src/benchmarks/kalahi/results/aggregate.ts';
import { reportKalahi } from '../../src/benchmarks/kalahi/results/report.ts';
import type { KalahiSettings } from '../../src/benchmarks/kalahi/run/config.ts';
import type { KalahiPromptRecord, KalahiRunInfo } from '../../src/benchmarks/kalahi/run/records.ts';
import { parseBaseline } from '../../src/benchmarks/multiloko/run/baseline.ts';
import type { LokalSubsetAggregate } from '../../src/benchmarks/multiloko/run/records.ts';
import { judgeRun, summariseGroups } from '../../src/benchmarks/multiloko/results/rollup.ts';
import type { RolledSubset } from '../../src/benchmarks/multiloko/run/rolledSubset.ts';
import { compareKalahi } from '../../src/benchmarks/kalahi/results/section/reportCompare.ts';
import { kalahiView } from '../../src/benchmarks/kalahi/results/section/reportView.ts';
import { compareMultiLoKo } from '../../src/benchmarks/multiloko/results/section/reportCompare.ts';
import { multilokoView } from '../../src/benchmarks/multiloko/results/section/reportView.ts';
import type { KalahiResultsJson } from '../../src/benchmarks/kalahi/resultsSchema.ts';
import type { MultiLoKoResultsJson } from '../../src/benchmarks/multiloko/resultsSchema.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-same-comparison-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** 40 prompts, two variations each of 20 prompts; MC1 right where `right(i)`, MC2 a value of i. */
function kalahi(right: (i: number) => boolean, mc2: (i: number) => number) {
  const info = {
    benchmark: 'kalahi', key: 'full', name: 'kalahi · full', variant: 'full', file: 'f.csv', order: 0, selected: 40, total: 40, categories: ['ethics'], model: 'openai:m',
    tasks: ['mc'], budget: { kind: 'max_length', tokens: 256, description: '' }, labels: { rougeL: 'rougeLsum', chrf: 'chrF' }, learnedModels: { bleurt: 'off', bertscore: 'off' },
    strict: false, thresholds: undefined,
  } as unknown as KalahiRunInfo;
  const records = Array.from({ length: 40 }, (_, i): KalahiPromptRecord => {
    const figures = { mc1: right(i) ? 1 : 0, mc2: mc2(i), mc2_normalised: mc2(i), mc3: 0, lprob_max: 0, lprob_diff: 0 };
    return {
      suite: 'full', promptVariationId: `v${i}`, promptId: `p${Math.floor(i / 2)}`, category: 'ethics', topic: 't', row: i + 1, itemKey: `kalahi/full/v${i}`,
      mc: { references: [], normalised: figures, nonNormalised: figures, preferred: { kind: 'relevant', index: 0, text: 'x', score: 0, best: right(i) }, latencyMs: 0, cached: false },
    } as KalahiPromptRecord;
  });
  return { aggregate: aggregateKalahi(info, records.map((record) => ({ record, state: 'passed' as const }))), records };
}

describe('the gate and the comparison agree', () => {
  test('Kalahi MC1 and MC2: the same test, p and Holm-adjusted p in the report’s comparison as in the gate', () => {
    const baselineText = reportKalahi([kalahi((i) => i % 2 === 0, (i) => 0.5 + (i % 7) / 50)], { clauses: [] }).resultsText!;
    const file = path.join(dir, 'kalahi.json');
    writeFileSync(file, baselineText);
    const settings = { baseline: file, baselineTolerance: 0.02, baselineMode: 'significance', baselineAlpha: 0.05, baselineMargin: 0.01 } as KalahiSettings;
    const current = reportKalahi([kalahi((i) => i % 2 === 0 && i > 10, (i) => 0.48 + (i % 5) / 50)], { clauses: [], settings, root: dir });
    const results = JSON.parse(current.resultsText!) as KalahiResultsJson & { baseline: { tests: Array<{ key: string; test: string; p: number; p_adjusted: number; diff: number }> } };
    const rows = compareKalahi(kalahiView(results).variants, kalahiView(JSON.parse(baselineText) as KalahiResultsJson).variants).rows;
    expect(results.baseline.tests.map((t) => t.key)).toEqual(['full.MC1', 'full.MC2']);
    for (const gate of results.baseline.tests) {
      const row = rows.find((r) => r.key === gate.key)!;
      // Variations of one prompt share a source: a cluster bootstrap for both figures.
      expect(gate.test).toBe('paired bootstrap');
      expect({ test: row.test, p: row.p, pAdjusted: row.pAdjusted, diff: row.diff }).toEqual({ test: gate.test, p: gate.p, pAdjusted: gate.p_adjusted, diff: gate.diff });
    }
    expect(results.baseline.tests[1]!.p).toBeLessThan(1);
  });

  test('MultiLoKo: per subset and the local pool in one Holm family, as the gate judges them', () => {
    const ems = (n: number, right: (i: number) => boolean): number[] => Array.from({ length: n }, (_, i) => (right(i) ? 1 : 0));
    const now = { italian: ems(30, (i) => i >= 10 && i < 15), french: ems(30, (i) => i < 10) };
    const before = { italian: ems(30, (i) => i < 15), french: ems(30, (i) => i < 10) };
    const layout = (runs: Record<string, number[]>): MultiLoKoResultsJson => {
      const out: Record<string, Record<string, unknown>> = {};
      for (const [key, values] of Object.entries(runs)) {
        out[key] = Object.fromEntries(values.map((v, i) => [`q${i}`, { em: v, prediction: v ? 'right' : 'wrong', targets: ['right'] }]));
        out[key]!.em = values.reduce((a, b) => a + b, 0) / values.length;
      }
      return out as MultiLoKoResultsJson;
    };
    const rolled: RolledSubset[] = Object.entries(now).map(([key, values]) => ({
      aggregate: {
        benchmark: 'multiloko', key, name: `${key} · local`, language: key, sourceLanguage: key, questionLanguage: key, translated: false, scored: 30, missing: 0, failed: 0, skipped: 0,
        cached: 0, modelCalls: 0, modelMs: 0, prompts: [], means: { em: values.reduce((a, b) => a + b, 0) / 30, f1: 0, bleu: 0, chrf: 0, edit_distance: 0, edit_similarity: 0, edit_distance_first: 0 },
      } as unknown as LokalSubsetAggregate,
      records: values.map((v, i) => ({ id: `q${i}`, prediction: v ? 'right' : 'wrong', scores: { em: v } })) as unknown as RolledSubset['records'],
    }));
    const gate = judgeRun(rolled, summariseGroups(rolled), { gates: [], baseline: parseBaseline(JSON.stringify(layout(before)), 'b.json'), baselineTolerance: 0.02 }).baseline!.tests;
    const comparison = compareMultiLoKo(multilokoView(layout(now)).subsets, multilokoView(layout(before)).subsets);
    const rows = [...comparison.subsets, comparison.pooled!];
    // By hand: Italian lost 10 items (McNemar p = 2·0.5^10), French none (p = 1), the pool the same 10 (p = 2·0.5^10);
    // Holm over three: 3·p for the two smallest.
    const p = 2 * 0.5 ** 10;
    expect(rows.find((r) => r.key === 'italian')!.pAdjusted).toBeCloseTo(3 * p, 14);
    expect(comparison.pooled!.pAdjusted).toBeCloseTo(3 * p, 14);
    for (const t of gate) {
      const row = rows.find((r) => r.key === t.key)!;
      expect({ p: row.p, pAdjusted: row.pAdjusted, mde: row.mde }).toEqual({ p: t.p, pAdjusted: t.p_adjusted, mde: t.mde });
    }
    expect(gate.map((t) => t.key)).toEqual(['italian', 'french', 'pooled:local']);
  });
});
