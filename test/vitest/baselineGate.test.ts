// MultiLoKo's baseline gate inside judgeRun: per subset and pooled, a question and its translations one cluster in
// the all-subsets pool, subsets of one run only named, flips listed; a baseline of means only falls back to the
// tolerance rule and says so; tolerance mode keeps the old rule.
import { describe, expect, test } from 'vitest';
import { parseBaseline } from '../../src/benchmarks/multiloko/run/baseline.ts';
import type { LokalSubsetAggregate } from '../../src/benchmarks/multiloko/run/records.ts';
import { judgeRun, summariseGroups, summariseRun } from '../../src/benchmarks/multiloko/results/rollup.ts';
import type { RolledSubset } from '../../src/benchmarks/multiloko/run/rolledSubset.ts';

function subset(key: string, ems: number[], translated?: { source: string; question: string }): RolledSubset {
  const em = ems.reduce((a, b) => a + b, 0) / ems.length;
  const aggregate = {
    benchmark: 'multiloko', key, name: translated ? `${translated.source} → ${translated.question} · human` : `${key} · local`, language: translated?.source ?? key,
    sourceLanguage: translated?.source ?? key, questionLanguage: translated?.question ?? key, translated: !!translated, ...(translated ? { translation: 'human' } : {}),
    scored: ems.length, missing: 0, failed: 0, skipped: 0, cached: 0, modelCalls: 0, modelMs: 0, prompts: [],
    means: { em, f1: em, bleu: 100 * em, chrf: 100 * em, edit_distance: 1 - em, edit_similarity: em, edit_distance_first: 1 - em },
  } as unknown as LokalSubsetAggregate;
  const records = ems.map((v, i) => ({ subset: key, id: `q${i}`, index: i, prediction: v ? 'right' : 'wrong', scores: { em: v } }));
  return { aggregate, records: records as unknown as RolledSubset['records'] };
}

/** eval.py's layout of a baseline: per language every item's record and the mean. */
function baselineFile(subsets: Record<string, number[]>): string {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [key, ems] of Object.entries(subsets)) {
    out[key] = Object.fromEntries(ems.map((v, i) => [`q${i}`, { em: v, prediction: v ? 'right' : 'wrong', targets: ['right'] }]));
    out[key]!.em = ems.reduce((a, b) => a + b, 0) / ems.length;
  }
  return JSON.stringify(out);
}

const n = 40;
const half = Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 1 : 0));
/** The baseline with the first k wrong items right. */
const better = (k: number) => half.map((v, i) => (v === 0 && i < 2 * k ? 1 : v));

describe('MultiLoKo baseline gate in judgeRun', () => {
  test('per subset, local pool and all-subsets pool (a question and its translation one cluster); a subset missing in the baseline', () => {
    const run = [subset('italian', half), subset('french', half), subset('german', half), subset('italian_translated_human_english', half, { source: 'italian', question: 'english' })];
    const baseline = parseBaseline(baselineFile({ italian: better(3), french: half, italian_translated_human_english: better(3), spanish: half }), 'b.json');
    const judged = judgeRun(run, summariseGroups(run), { gates: [], baseline, baselineTolerance: 0.02 });
    const tests = judged.baseline!.tests;
    expect(tests.map((t) => [t.key, t.test, t.n, t.clusters, t.worse, t.better])).toEqual([
      ['italian', 'McNemar exact', 40, 40, 3, 0],
      ['french', 'McNemar exact', 40, 40, 0, 0],
      ['italian_translated_human_english', 'McNemar exact', 40, 40, 3, 0],
      ['pooled:local', 'McNemar exact', 80, 80, 3, 0],
      // italian q0..q39 and its English translation share ids: 40 italian clusters, 40 french
      ['pooled:all', 'paired bootstrap', 120, 80, 6, 0],
    ]);
    // McNemar with 3 one-way flips: 2·0.5³ = 0.25, not significant whatever Holm does.
    expect(tests[0]!.p).toBeCloseTo(0.25, 12);
    expect(tests.every((t) => t.family === 5)).toBe(true);
    expect(judged.baseline).toMatchObject({ only_current: ['german'], only_baseline: ['spanish'] });
    expect(judged.baseline!.flips.italian!.worse.map((f) => f.id)).toEqual(['q1', 'q3', 'q5']);
    expect(judged.baseline!.flips.italian!.worse[0]).toEqual({ id: 'q1', baseline: 'right', current: 'wrong' });
    expect(judged.baseline!.flips.french).toEqual({ worse: [], better: [] });
    expect(judged.outcomes.map((o) => o.pass)).toEqual([true, true, true, true, true]);
    expect(summariseRun(run, summariseGroups(run), judged).baseline).toBe(judged.baseline);
  });

  test('a baseline of means only: the tolerance rule, saying why', () => {
    const run = [subset('italian', half)];
    const judged = judgeRun(run, summariseGroups(run), { gates: [], baseline: parseBaseline('{"italian": {"em": 0.6}}', 'means.json'), baselineTolerance: 0.05 });
    expect(judged.baseline).toBeUndefined();
    expect(judged.outcomes).toHaveLength(1);
    expect(judged.outcomes[0]).toMatchObject({ gate: 'baseline(-0.05)', value: 0.5, pass: false });
    expect(judged.outcomes[0]!.bound).toBeCloseTo(0.55, 12);
    expect(judged.outcomes[0]!.message).toContain('means.json holds no per-item records, so it is compared by the tolerance rule (LOKAL_BASELINE_TOLERANCE), not paired tests');
  });

  test('tolerance mode ignores the items and keeps the fixed rule', () => {
    const run = [subset('italian', half)];
    const judged = judgeRun(run, summariseGroups(run), { gates: [], baseline: parseBaseline(baselineFile({ italian: better(3) }), 'b.json'), baselineTolerance: 0.02, baselineMode: 'tolerance' });
    expect(judged.baseline).toBeUndefined();
    expect(judged.outcomes.map((o) => [o.gate, o.pass])).toEqual([['baseline(-0.02)', false]]);
    expect(judged.outcomes[0]!.message).not.toContain('per-item');
  });
});
