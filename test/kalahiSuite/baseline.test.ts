// Kalahi's baseline gate through its roll-up (reportKalahi): MC1 and MC2 paired by prompt variation id against a
// kalahi.json written by the same roll-up; McNemar where prompts are independent (p = 2·0.5^k for k one-way flips),
// the cluster bootstrap where variations share a prompt id; tolerance mode; which file is whose.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { aggregateKalahi } from '../../src/benchmarks/kalahi/results/aggregate.ts';
import { reportKalahi } from '../../src/benchmarks/kalahi/results/report.ts';
import type { KalahiSettings } from '../../src/benchmarks/kalahi/run/config.ts';
import type { KalahiPromptRecord, KalahiRunInfo } from '../../src/benchmarks/kalahi/run/records.ts';
import { baselineFileFor } from '../../src/core/baseline/index.ts';
import { redactedText } from '../../src/core/redact.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-kalahi-baseline-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function info(variant: string, n: number): KalahiRunInfo {
  return {
    benchmark: 'kalahi', key: variant, name: `kalahi · ${variant}`, variant: variant as KalahiRunInfo['variant'], file: 'f.csv', order: 0, selected: n, total: n,
    categories: ['ethics'], model: 'replay:x', tasks: ['mc'], budget: { kind: 'max_length', tokens: 256, description: '' },
    labels: { rougeL: 'rougeLsum', chrf: 'chrF' }, learnedModels: { bleurt: 'off', bertscore: 'off' }, strict: false, thresholds: undefined,
  } as KalahiRunInfo;
}

function prompt(variant: string, i: number, promptId: string, mc1: number, mc2: number): KalahiPromptRecord {
  const figures = { mc1, mc2, mc2_normalised: mc2, mc3: mc1, lprob_max: 0, lprob_diff: 0 };
  return {
    suite: variant, promptVariationId: `v${i}`, promptId, category: 'ethics', topic: 't', row: i + 1, itemKey: `kalahi/${variant}/v${i}`,
    mc: { references: [], normalised: figures, nonNormalised: figures, preferred: { kind: mc1 ? 'relevant' : 'irrelevant', index: 0, text: mc1 ? 'right' : 'wrong', score: 0, best: !!mc1 }, latencyMs: 0, cached: false },
  };
}

/** A rolled variant of n prompts; `right(i)` gives MC1, MC2 is 0.5 throughout; `shared` puts two variations per prompt id. */
function rolled(variant: string, n: number, right: (i: number) => boolean, shared = false) {
  const records = Array.from({ length: n }, (_, i) => prompt(variant, i, shared ? `p${Math.floor(i / 2)}` : `p${i}`, right(i) ? 1 : 0, 0.5));
  return { aggregate: aggregateKalahi(info(variant, n), records.map((record) => ({ record, state: 'passed' }) as never)), records };
}

// Redaction off unless a test asks for it: under CI=true its default (auto) would hash the baseline's answers.
const settings = (baseline: string, extra: Partial<KalahiSettings> = {}) => ({ baseline, baselineTolerance: 0.02, baselineMode: 'significance', baselineAlpha: 0.05, baselineMargin: 0.01, redact: 'off', ...extra }) as KalahiSettings;

/** The roll-up's kalahi.json of a run, as a baseline file. */
function baselineOf(name: string, groups: ReturnType<typeof rolled>[]): string {
  const file = path.join(dir, `${name}.json`);
  writeFileSync(file, reportKalahi(groups, { clauses: [] }).resultsText!);
  return file;
}

describe('Kalahi baseline gate', () => {
  // Now: every third prompt right. Baseline: also the first 12 of the others (so 12 right → wrong, none back).
  const now = (i: number) => i % 3 === 0;
  const before = (i: number) => now(i) || (i % 3 !== 0 && i < 18);

  test('independent prompts: McNemar, p = 2·0.5^12, Holm over MC1 and MC2; the drop fails and is explained', () => {
    const base = baselineOf('drop', [rolled('unenriched', 60, before)]);
    const report = reportKalahi([rolled('unenriched', 60, now)], { clauses: [], settings: settings(base), root: dir });
    expect(report.passed).toBe(false);
    const results = JSON.parse(report.resultsText!);
    const [mc1, mc2] = results.baseline.tests;
    expect(mc1).toMatchObject({ key: 'unenriched.MC1', test: 'McNemar exact', n: 60, worse: 12, better: 0, verdict: 'significant drop', pass: false });
    expect(mc1.p).toBeCloseTo(2 * 0.5 ** 12, 12);
    // Holm over two: MC2 (all equal, p = 1) stays 1; MC1 doubles.
    expect(mc1.p_adjusted).toBeCloseTo(4 * 0.5 ** 12, 12);
    expect(mc1.diff).toBeCloseTo(-12 / 60, 12);
    expect(mc2).toMatchObject({ key: 'unenriched.MC2', test: 'paired bootstrap', diff: 0, p: 1, pass: true });
    expect(results.baseline.flips.unenriched.worse).toHaveLength(12);
    expect(results.baseline.flips.unenriched.worse[0]).toEqual({ promptVariationId: 'v1', baseline: 'right', current: 'wrong' });
    expect(results.gates_passed).toBe(false);
    expect(report.lines.join('\n')).toMatch(/✗ Kalahi unenriched MC1 vs baseline: Δ −0\.200 .* McNemar exact p = 0\.0005, Holm-adjusted p = 0\.0010 over 2 tests; .*a significant drop larger than the 0\.01 margin, so the gate fails/);
    // The intervals sit beside each variant's figures.
    expect(results.variants.unenriched.intervals.overall.mc.mc1).toMatchObject({ method: 'wilson', n: 60 });
  });

  test('redacted (LOKAL_REDACT), the flips quote the baseline\'s preferred answers as hashes, a redacted baseline\'s as they are', () => {
    const base = baselineOf('drop-redacted', [rolled('unenriched', 60, before)]);
    const report = reportKalahi([rolled('unenriched', 60, now)], { clauses: [], settings: settings(base, { redact: 'on' }), root: dir });
    const flip = JSON.parse(report.resultsText!).baseline.flips.unenriched.worse[0];
    // The run's own text ('wrong') is the record's as given here; the baseline's 'right' is hashed.
    expect(flip).toEqual({ promptVariationId: 'v1', baseline: redactedText('right'), current: 'wrong' });
    const hashedBase = path.join(dir, 'hashed-baseline.json');
    const hashedText = readFileSync(base, 'utf8').replaceAll('"text": "right"', `"text": "${redactedText('right')}"`);
    expect(hashedText).toContain(redactedText('right'));
    writeFileSync(hashedBase, hashedText);
    const again = reportKalahi([rolled('unenriched', 60, now)], { clauses: [], settings: settings(hashedBase, { redact: 'on' }), root: dir });
    expect(JSON.parse(again.resultsText!).baseline.flips.unenriched.worse[0].baseline).toBe(redactedText('right'));
  });

  test('variations of one prompt are one cluster: the bootstrap, not McNemar', () => {
    const base = baselineOf('shared', [rolled('full', 60, before, true)]);
    const results = JSON.parse(reportKalahi([rolled('full', 60, now, true)], { clauses: [], settings: settings(base), root: dir }).resultsText!);
    expect(results.baseline.tests[0]).toMatchObject({ key: 'full.MC1', test: 'paired bootstrap', n: 60, clusters: 30, bootstrap: { resamples: 2000, seed: 20261203 } });
    expect(results.baseline.tests[0].p_adjusted).toBeLessThan(0.05);
  });

  test('tolerance mode: the fixed allowed drop of each variant mean', () => {
    const base = baselineOf('drop2', [rolled('unenriched', 60, before)]);
    const report = reportKalahi([rolled('unenriched', 60, now)], { clauses: [], settings: settings(base, { baselineMode: 'tolerance' }), root: dir });
    const results = JSON.parse(report.resultsText!);
    expect(results.baseline).toBeUndefined();
    expect(results.gates.map((g: { figure: string; gate: string; value: number; bound: number; pass: boolean }) => [g.figure, g.gate, g.value, g.bound, g.pass])).toEqual([
      ['Kalahi unenriched MC1', 'baseline(-0.02)', 20 / 60, expect.closeTo(32 / 60 - 0.02, 12), false],
      ['Kalahi unenriched MC2', 'baseline(-0.02)', 0.5, expect.closeTo(0.48, 12), true],
    ]);
  });

  test('a variant missing in one run is not compared, and said so; with no other variant nothing is compared, which fails', () => {
    const base = baselineOf('other', [rolled('unenriched', 10, now)]);
    const report = reportKalahi([rolled('full', 10, now)], { clauses: [], settings: settings(base), root: dir });
    expect(report.passed).toBe(false);
    expect(report.lines.join('\n')).toContain(`Kalahi vs baseline: nothing was compared: ${base} pairs no prompt with this run: no variant is in both runs (the baseline's: unenriched; this run's: full), so the gate fails (gate baseline)`);
    const results = JSON.parse(report.resultsText!);
    expect(results.baseline).toMatchObject({ tests: [], only_current: ['full'], only_baseline: ['unenriched'] });
    expect(report.lines).toContain('  not in the baseline, not compared: full');
  });

  test('which baseline file is whose: a folder gives each its own file; a file by its "benchmark" field', () => {
    const folder = path.join(dir, 'results');
    mkdirSync(folder);
    writeFileSync(path.join(folder, 'kalahi.json'), '{"benchmark": "kalahi", "variants": {}}');
    expect(baselineFileFor(folder, dir, 'kalahi')).toBe(path.join(folder, 'kalahi.json'));
    expect(baselineFileFor(folder, dir, 'multiloko')).toBeUndefined();
    expect(baselineFileFor('results/kalahi.json', dir, 'kalahi')).toBe(path.join(folder, 'kalahi.json'));
    expect(baselineFileFor('results/kalahi.json', dir, 'multiloko')).toBeUndefined();
    writeFileSync(path.join(dir, 'score.json'), '{"italian": {"em": 0.5}}');
    expect(baselineFileFor('score.json', dir, 'multiloko')).toBe(path.join(dir, 'score.json'));
    expect(baselineFileFor('score.json', dir, 'kalahi')).toBeUndefined();
    // A missing file stays MultiLoKo's, whose reader names the problem.
    expect(baselineFileFor('nope.json', dir, 'multiloko')).toBe(path.join(dir, 'nope.json'));
  });
});
