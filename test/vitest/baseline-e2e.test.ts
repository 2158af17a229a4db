// The significance-tested baseline gate end to end: child `vitest run --project evals` replay runs of two local
// subsets of 250 items against baselines scored by `lokal score` from edited copies of the same predictions.
// A few flips pass ("too few items to tell"); a 10-point drop on italian's 250 items fails with p < 0.05.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadMultiLoKo } from '../../src/benchmarks/multiloko/index.ts';
import { readPredictions } from '../../src/models/predictions.ts';
import { scoreMultiLoKoPredictions } from '../../src/benchmarks/multiloko/metrics/score.ts';
import { MULTILOKO_EVAL, lcg, runVitest, writeDataset, writeJsonl, type ChildRun, type GeneratedSubset, type PredictionLine } from './helpers.ts';

const N = 250;
const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-baseline-e2e-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const subset = (key: string): GeneratedSubset => ({
  key,
  folder: key,
  fileName: 'dev.jsonl',
  items: Array.from({ length: N }, (_, i) => ({ id: `${key}-${String(i).padStart(3, '0')}`, question: `${key} question ${i}?`, targets: [`answer ${key} ${i}`] })),
});
const spec = [subset('french'), subset('italian')];
const location = writeDataset(dir, spec);

// About half right: the target as said, or a wrong answer.
const random = lcg(5);
const current: PredictionLine[] = spec.flatMap((s) => s.items.map((item) => ({ language: s.key, id: item.id, prediction: random() < 0.5 ? item.targets[0]! : 'non lo so' })));
const right = (p: PredictionLine) => p.prediction !== 'non lo so';
const target = (p: PredictionLine) => spec.find((s) => s.key === p.language)!.items.find((i) => i.id === p.id)!.targets[0]!;

/** The current predictions with `worse` italian items right in the baseline that are wrong now, and `better` the other way. */
function baselinePredictions(worse: number, better: number): PredictionLine[] {
  const italian = current.filter((p) => p.language === 'italian');
  const toRight = new Set(italian.filter((p) => !right(p)).slice(0, worse).map((p) => p.id));
  const toWrong = new Set(italian.filter(right).slice(0, better).map((p) => p.id));
  return current.map((p) => (toRight.has(p.id) ? { ...p, prediction: target(p) } : toWrong.has(p.id) ? { ...p, prediction: 'non lo so' } : p));
}

const currentFile = path.join(dir, 'current.jsonl');
writeJsonl(currentFile, current);

/** A baseline results file as `lokal score` writes it (per language every item's record, then the means). */
async function scoredBaseline(name: string, rows: PredictionLine[], only?: string[]): Promise<string> {
  const predictions = path.join(dir, `${name}.jsonl`);
  writeJsonl(predictions, only ? rows.filter((r) => only.includes(r.language)) : rows);
  const dataset = await loadMultiLoKo(location, 'dev');
  const scored = scoreMultiLoKoPredictions(only ? { ...dataset, subsets: dataset.subsets.filter((s) => only.includes(s.key)) } : dataset, await readPredictions(predictions));
  const file = path.join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(scored.results));
  return file;
}

const show = (run: ChildRun) => `exit ${run.code}\n${run.stdout.slice(-5000)}\n${run.stderr.slice(-3000)}`;
const run = (output: string, baseline: string, extra: Record<string, string> = {}) =>
  runVitest(['run', '--project', 'evals', MULTILOKO_EVAL], { LOKAL_MULTILOKO: location, LOKAL_MODEL: `replay:${currentFile}`, LOKAL_OUTPUT: output, LOKAL_BASELINE: baseline, ...extra });
const summaryOf = (output: string) => JSON.parse(readFileSync(path.join(output, 'multiloko.json'), 'utf8')).summary;

let perturbed: string;
let dropped: string;
beforeAll(async () => {
  // Italian only: french is then "not in the baseline" (a subset missing in one run).
  perturbed = await scoredBaseline('perturbed', baselinePredictions(2, 1), ['italian']);
  dropped = await scoredBaseline('dropped', baselinePredictions(30, 5));
});

describe('baseline gate in child vitest runs', () => {
  test('a baseline of the same predictions with three flips passes, saying why (too few items to tell)', async () => {
    const output = path.join(dir, 'perturbed-run');
    const result = await run(output, perturbed);
    expect(result.code, show(result)).toBe(0);
    // Italian: 2 right → wrong, 1 wrong → right; McNemar p = P(X ≤ 1 | 3, ½)·2 = 2·4/8 = 1.
    expect(result.stdout).toMatch(/✓ italian · local EM vs baseline: Δ −0\.004 \(95% CI \[[^\]]+\]\), \d\.\d{3} → \d\.\d{3} over 250 paired items \(2 right → wrong, 1 wrong → right\); McNemar exact p = 1\.0000, Holm-adjusted p = 1\.0000 over 1 test; MDE 0\.\d{3}: no significant change, but too few items to tell: MDE 0\.\d{3} > the 0\.01 margin/);
    expect(result.stdout).toContain('not in the baseline, not compared: french');
    const summary = summaryOf(output);
    expect(summary.gates_passed).toBe(true);
    expect(summary.baseline).toMatchObject({ mode: 'significance', alpha: 0.05, margin: 0.01, only_current: ['french'], only_baseline: [] });
    expect(summary.baseline.tests).toHaveLength(1);
    expect(summary.baseline.tests[0]).toMatchObject({ key: 'italian', n: 250, worse: 2, better: 1, verdict: 'too few items to tell', pass: true });
    expect(summary.baseline.tests[0].p).toBeCloseTo(1, 12);
    expect(summary.baseline.flips.italian.worse).toHaveLength(2);
    expect(summary.baseline.flips.italian.better).toHaveLength(1);
    expect(summary.baseline.flips.italian.worse[0]).toMatchObject({ current: 'non lo so' });
  });

  test('a real drop of 10 points on 250 items fails with p < 0.05, naming the figure and why', async () => {
    const output = path.join(dir, 'dropped-run');
    const result = await run(output, dropped);
    expect(result.code, show(result)).toBe(1);
    // 30 right → wrong, 5 wrong → right: Δ = −25/250; McNemar p = 2·P(X ≤ 5 | 35, ½) = 2·Σ_{i≤5} C(35,i)/2^35.
    let tail = 0;
    let binom = 1;
    for (let i = 0; i <= 5; i++) {
      tail += binom;
      binom = (binom * (35 - i)) / (i + 1);
    }
    const p = (2 * tail) / 2 ** 35;
    const summary = summaryOf(output);
    const italian = summary.baseline.tests.find((t: { key: string }) => t.key === 'italian');
    expect(italian).toMatchObject({ n: 250, worse: 30, better: 5, verdict: 'significant drop', pass: false, family: 3 });
    expect(italian.diff).toBeCloseTo(-0.1, 12);
    expect(italian.p).toBeCloseTo(p, 12);
    expect(italian.p_adjusted).toBeLessThan(0.05);
    expect(italian.p_adjusted).toBeCloseTo(Math.min(1, 3 * p), 10);
    expect(result.stdout).toMatch(/✗ italian · local EM vs baseline: Δ −0\.100 \(95% CI \[−0\.\d{3}, −0\.\d{3}\]\), \d\.\d{3} → \d\.\d{3} over 250 paired items \(30 right → wrong, 5 wrong → right\); McNemar exact p < 0\.0001, Holm-adjusted p < 0\.0001 over 3 tests; MDE 0\.\d{3}: a significant drop larger than the 0\.01 margin, so the gate fails/);
    // French did not change at all; the pooled figure (500 items) drops 5 points.
    expect(summary.baseline.tests.find((t: { key: string }) => t.key === 'french')).toMatchObject({ diff: 0, p: 1, pass: true });
    expect(summary.baseline.tests.find((t: { key: string }) => t.key === 'pooled:local')).toMatchObject({ n: 500, worse: 30, better: 5, pass: false });
    expect(summary.baseline.flips.italian.worse).toHaveLength(30);
    expect(summary.gates_passed).toBe(false);
    // No group's gate test judges the paired baseline tests: the summary test fails on them, and the last line names them.
    expect(result.stdout).toMatch(/× (?:.*multiloko\.eval\.ts > )?summary/u);
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe(
      'lokal: exit 1: 2 gates missed: MultiLoKo italian · local EM change vs baseline = -0.1000 (gate baseline(α=0.05, margin=0.01)), MultiLoKo local subsets pooled (2) EM change vs baseline = -0.0500 (gate baseline(α=0.05, margin=0.01))',
    );

    // The fixed rule of old sees the same drop (0.10 > 0.02) with LOKAL_BASELINE_MODE=tolerance.
    const tolerance = await run(path.join(dir, 'tolerance-run'), dropped, { LOKAL_BASELINE_MODE: 'tolerance' });
    expect(tolerance.code, show(tolerance)).toBe(1);
    expect(tolerance.stdout).toMatch(/✗ italian · local EM = \d\.\d{4}, must be ≥ \d\.\d{4} \(gate baseline\(-0\.02\)\)/);
  });
});
