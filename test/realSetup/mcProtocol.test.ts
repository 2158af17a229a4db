// Issue 19 §2: results say which protocol produced MC1 (kalahi.json `variants.<v>.mc_protocol`), and the baseline gate
// and `lokal compare` never compare MC1 across protocols: each refuses with one line naming the field.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { aggregateKalahi } from '../../src/benchmarks/kalahi/aggregate.ts';
import type { KalahiSettings } from '../../src/benchmarks/kalahi/config.ts';
import type { KalahiPromptRecord, KalahiRunInfo } from '../../src/benchmarks/kalahi/records.ts';
import { reportKalahi } from '../../src/benchmarks/kalahi/report.ts';
import type { KalahiMCProtocol } from '../../src/benchmarks/kalahi/settings.ts';
import { main } from '../../src/cli/index.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-mc-protocol-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function info(protocol: KalahiMCProtocol | undefined): KalahiRunInfo {
  return {
    benchmark: 'kalahi', key: 'full', name: 'kalahi · full', variant: 'full', file: 'f.csv', order: 0, selected: 4, total: 4,
    categories: ['ethics'], model: 'openai:toy', tasks: ['mc'], ...(protocol ? { mcProtocol: protocol } : {}), budget: { kind: 'max_length', tokens: 256, description: '' },
    labels: { rougeL: 'rougeLsum', chrf: 'chrF' }, learnedModels: { bleurt: 'off', bertscore: 'off' }, strict: false, thresholds: undefined,
  };
}

function record(i: number, mc1: number): KalahiPromptRecord {
  const figures = { mc1, mc2: null, mc2_normalised: null, mc3: null, lprob_max: null, lprob_diff: null };
  return {
    suite: 'full', promptVariationId: `v${i}`, promptId: `p${i}`, category: 'ethics', topic: 't', row: i + 1, itemKey: `kalahi/v${i}`,
    mc: { references: [], normalised: figures, nonNormalised: figures, preferred: null, latencyMs: 0, cached: false },
  };
}

function rolled(protocol: KalahiMCProtocol | undefined) {
  const records = [1, 0, 1, 1].map((mc1, i) => record(i, mc1));
  return { aggregate: aggregateKalahi(info(protocol), records.map((r) => ({ record: r, state: 'passed' as const }))), records };
}

function written(name: string, protocol: KalahiMCProtocol | undefined): string {
  const file = path.join(dir, `${name}.json`);
  writeFileSync(file, reportKalahi([rolled(protocol)], { clauses: [] }).resultsText!);
  return file;
}

const settings = (baseline: string) => ({ baseline, baselineTolerance: 0.02, baselineMode: 'significance', baselineAlpha: 0.05, baselineMargin: 0.01 }) as KalahiSettings;

describe('the protocol that produced MC1', () => {
  test('is written to kalahi.json as variants.<variant>.mc_protocol', () => {
    const results = JSON.parse(reportKalahi([rolled('letter')], { clauses: [] }).resultsText!);
    expect(results.variants.full.mc_protocol).toBe('letter');
    expect(results.variants.full.mc.mc1).toBe(0.75);
  });

  test('the baseline gate refuses a baseline of the other protocol, with one line naming the field', () => {
    const base = written('logprobs-base', 'logprobs');
    // A failing baseline gate, not a thrown error: the results file is still written (issue: no crash loses results).
    const report = reportKalahi([rolled('letter')], { clauses: [], settings: settings(base), root: dir });
    expect(report.passed).toBe(false);
    expect(report.resultsText).toBeDefined();
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

  test('lokal compare refuses two runs of different protocols: the fingerprint names the field; allowing it still refuses MC', async () => {
    const a = written('compare-a', 'logprobs');
    const b = written('compare-b', 'letter');
    async function compare(...extra: string[]): Promise<{ code: number; errors: string }> {
      const errors: string[] = [];
      const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (errors.push(String(chunk)), true));
      const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
      try {
        return { code: await main(['compare', a, b, '--no-html', ...extra]), errors: errors.join('') };
      } finally {
        stderr.mockRestore();
        stdout.mockRestore();
      }
    }
    // The fingerprints differ in the Kalahi protocol: refused as any score-changing difference (exit 1).
    const refused = await compare();
    expect(refused.code).toBe(1);
    expect(refused.errors).toMatch(/^lokal compare: .*\(kalahi\) against #1: .*not comparable: protocol/u);
    expect(refused.errors.trim().split('\n')).toHaveLength(1);
    // Accepting the protocol field does not make MC figures of two protocols comparable: one line, exit 2.
    const allowed = await compare('--allow', 'protocol');
    expect(allowed.code).toBe(2);
    expect(allowed.errors).toContain(`lokal compare: ${a} field "variants.full.mc_protocol" is "logprobs" but ${b} measured MC1 by "letter" (LOKAL_KALAHI_MC): MC figures of two protocols are not compared; use LOKAL_KALAHI_MC=logprobs or a run of the same protocol\n`);
  });
});
