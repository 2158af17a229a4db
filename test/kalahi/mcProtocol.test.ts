// Results say which protocol produced MC1 (kalahi.json `variants.<v>.mc_protocol`), and the baseline gate
// and `lokal compare` never compare MC1 across protocols: each leaves those figures out with one line naming the field
// and the setting that would compare them, and compares what is comparable.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { KalahiResultsSchema } from '../../src/benchmarks/kalahi/resultsSchema.ts';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { mkdirSync } from 'node:fs';
import { aggregateKalahi } from '../../src/benchmarks/kalahi/results/aggregate.ts';
import type { KalahiSettings } from '../../src/benchmarks/kalahi/run/config.ts';
import type { KalahiPromptRecord, KalahiRunInfo } from '../../src/benchmarks/kalahi/run/records.ts';
import { reportKalahi } from '../../src/benchmarks/kalahi/results/report.ts';
import type { KalahiMCProtocol } from '../../src/benchmarks/kalahi/settings.ts';
import { main } from '../../src/cli/index.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-mc-protocol-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function info(protocol: KalahiMCProtocol | undefined, variant: KalahiRunInfo['variant'] = 'full'): KalahiRunInfo {
  return {
    benchmark: 'kalahi', key: variant, name: `kalahi · ${variant}`, variant, file: 'f.csv', order: 0, selected: 4, total: 4,
    categories: ['ethics'], model: 'openai:toy', tasks: ['mc'], ...(protocol ? { mcProtocol: protocol } : {}), budget: { kind: 'max_length', tokens: 256, description: '' },
    labels: { rougeL: 'rougeLsum', chrf: 'chrF' }, learnedModels: { bleurt: 'off', bertscore: 'off' }, strict: false, thresholds: undefined,
  };
}

function record(i: number, mc1: number, variant = 'full'): KalahiPromptRecord {
  const figures = { mc1, mc2: null, mc2_normalised: null, mc3: null, lprob_max: null, lprob_diff: null };
  return {
    suite: variant, promptVariationId: `v${i}`, promptId: `p${i}`, category: 'ethics', topic: 't', row: i + 1, itemKey: `kalahi/v${i}`,
    mc: { references: [], normalised: figures, nonNormalised: figures, preferred: null, latencyMs: 0, cached: false },
  };
}

function rolled(protocol: KalahiMCProtocol | undefined, variant: KalahiRunInfo['variant'] = 'full') {
  const records = [1, 0, 1, 1].map((mc1, i) => record(i, mc1, variant));
  return { aggregate: aggregateKalahi(info(protocol, variant), records.map((r) => ({ record: r, state: 'passed' as const }))), records };
}

function written(name: string, protocol: KalahiMCProtocol | undefined, also: Array<ReturnType<typeof rolled>> = []): string {
  const file = path.join(dir, `${name}.json`);
  writeFileSync(file, reportKalahi([rolled(protocol), ...also], { clauses: [] }).resultsText!);
  return file;
}

/** `lokal compare` in this process: its exit code, stdout and stderr. */
async function compare(...args: string[]): Promise<{ code: number; output: string; errors: string }> {
  const errors: string[] = [];
  const output: string[] = [];
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (errors.push(String(chunk)), true));
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (output.push(String(chunk)), true));
  try {
    return { code: await main(['compare', ...args, '--no-html']), output: output.join(''), errors: errors.join('') };
  } finally {
    stderr.mockRestore();
    stdout.mockRestore();
  }
}

/** A run's folder: a MultiLoKo results file of 20 Italian items (the first `right` correct) beside a kalahi.json. */
function runFolder(name: string, right: number, kalahi: string): string {
  const folder = path.join(dir, name);
  mkdirSync(folder, { recursive: true });
  const italian = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`it${i}`, { em: i < right ? 1 : 0, prediction: 'p', targets: ['t'] }]));
  writeFileSync(path.join(folder, 'multiloko.json'), JSON.stringify({ italian, summary: { model: `model-${name}` } }));
  writeFileSync(path.join(folder, 'kalahi.json'), readFileSync(kalahi));
  return folder;
}

const settings = (baseline: string) => ({ baseline, baselineTolerance: 0.02, baselineMode: 'significance', baselineAlpha: 0.05, baselineMargin: 0.01 }) as KalahiSettings;

describe('the protocol that produced MC1', () => {
  test('is written to kalahi.json as variants.<variant>.mc_protocol', () => {
    const results = JSON.parse(reportKalahi([rolled('letter')], { clauses: [] }).resultsText!);
    expect(results.variants.full.mc_protocol).toBe('letter');
    // The writer's file is one kalahi.json's schema reads (the letter protocol's records hold a null \`preferred\`).
    expect(KalahiResultsSchema.safeParse(results).error?.issues).toBeUndefined();
    expect(results.variants.full.mc.mc1).toBe(0.75);
  });

  test('the baseline gate refuses a baseline of the other protocol, with one line naming the field', () => {
    const base = written('logprobs-base', 'logprobs');
    // A failing baseline gate, not a thrown error: the results file is still written.
    const report = reportKalahi([rolled('letter')], { clauses: [], settings: settings(base), root: dir });
    expect(report.passed).toBe(false);
    // The results file still holds this run's MC figures, and the failed gate.
    const results = JSON.parse(report.resultsText!);
    expect([results.variants.full.mc_protocol, results.variants.full.mc.mc1, results.gates_passed]).toEqual(['letter', 0.75, false]);
    const line = `baseline ${base} field "variants.full.mc_protocol" is "logprobs" but this run measured MC1 by "letter" (LOKAL_KALAHI_MC): MC figures of two protocols are not compared; use LOKAL_KALAHI_MC=logprobs or a run of the same protocol`;
    expect(report.lines.filter((l) => l.includes(line))).toHaveLength(1);
  });

  test('a baseline older than the field counts as logprobs; the same protocol is compared', () => {
    const old = path.join(dir, 'old.json');
    const text = JSON.parse(reportKalahi([rolled('logprobs')], { clauses: [] }).resultsText!);
    delete text.variants.full.mc_protocol;
    writeFileSync(old, JSON.stringify(text));
    const refused = reportKalahi([rolled('letter')], { clauses: [], settings: settings(old), root: dir });
    expect(refused.passed).toBe(false);
    expect(refused.lines.join('\n')).toMatch(/field "variants\.full\.mc_protocol" is "logprobs"/u);
    expect(reportKalahi([rolled('logprobs')], { clauses: [], settings: settings(old), root: dir }).passed).toBe(true);
    const letterBase = written('letter-base', 'letter');
    expect(reportKalahi([rolled('letter')], { clauses: [], settings: settings(letterBase), root: dir }).passed).toBe(true);
  });

  test('the baseline gate judges the variants of the same protocol and fails the other with its line, never offering LOKAL_BASELINE_ALLOW', () => {
    // The baseline measured both variants by log-probabilities; this run measured `full` by the lettered question.
    const base = written('two-variants-base', 'logprobs', [rolled('logprobs', 'unenriched')]);
    const report = reportKalahi([rolled('letter'), rolled('logprobs', 'unenriched')], { clauses: [], settings: { ...settings(base), baselineAllow: ['protocol'] }, root: dir });
    const text = report.lines.join('\n');
    expect(report.passed).toBe(false);
    expect(text).toContain(`baseline ${base} field "variants.full.mc_protocol" is "logprobs" but this run measured MC1 by "letter"`);
    // The variant of the same protocol is compared prompt by prompt (the same answers: no change).
    expect(text).toContain('✓ Kalahi unenriched MC1 vs baseline: Δ ±0.000');
    expect(text).not.toContain('not compared: full');
    expect(text).not.toMatch(/Kalahi full MC1 vs baseline/u);
    expect(text).not.toContain('LOKAL_BASELINE_ALLOW=');
  });

  test('lokal compare shows the MultiLoKo table when Kalahi MC protocols differ, leaves out the MC figures alone, and offers only a hint that works', async () => {
    const a = runFolder('run-a', 12, written('compare-a', 'logprobs'));
    const b = runFolder('run-b', 8, written('compare-b', 'letter'));
    const run = await compare(a, b);
    expect(run.code, run.errors).toBe(0);
    // MultiLoKo is compared: 12/20 → 8/20 on Italian.
    expect(run.output).toMatch(/italian +60\.00 +40\.00 +-20\.00 \(p /u);
    // Kalahi's MC figures of two protocols are left out with the setting that would make them comparable.
    expect(run.errors).toContain('(kalahi full): MC1 and MC2 left out: #1 measured MC1 by "logprobs", this run by "letter" (mc_protocol); MC figures of two protocols are not compared — a run with LOKAL_KALAHI_MC=logprobs is');
    expect(run.output).not.toMatch(/full MC1/u);
    // No hint that would be refused again: the protocol difference is not offered to --allow.
    expect(run.errors).not.toContain('--allow');
  });

  test('lokal compare: a refused benchmark is left out of that run only, and the --allow it suggests is accepted', async () => {
    const a = written('refuse-a', 'logprobs');
    const results = JSON.parse(readFileSync(a, 'utf8'));
    results.fingerprint.scorer = 'another-scorer';
    const changed = path.join(dir, 'refuse-b.json');
    writeFileSync(changed, JSON.stringify(results));
    const refused = await compare(runFolder('ref-a', 10, a), runFolder('ref-b', 10, changed));
    expect(refused.code, refused.errors).toBe(0);
    expect(refused.output).toMatch(/italian +50\.00 +50\.00/u);
    const hint = /is left out: .*--allow (\S+) accepts it/u.exec(refused.errors);
    expect(hint?.[1]).toBe('scorer');
    expect(refused.output).not.toContain('Kalahi');
    const allowed = await compare(runFolder('ref-a', 10, a), runFolder('ref-b', 10, changed), '--allow', hint![1]!);
    expect(allowed.code, allowed.errors).toBe(0);
    expect(allowed.output).toMatch(/full MC1 +0\.750 +0\.750 +0\.000 \(p 1\.000\)/u);
    // Kalahi alone, refused: nothing comparable is left (exit 1).
    const alone = await compare(a, changed);
    expect(alone.code).toBe(1);
    expect(alone.errors).toContain('nothing comparable is left');
  });
});
