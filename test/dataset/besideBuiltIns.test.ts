// A dataset benchmark run beside MultiLoKo: each benchmark's gate clauses and replay rows go to it alone. MultiLoKo's
// worker never imports the capitals benchmark, so it learns the run's benchmarks from the main process.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { datasetSpec, predictionsFor, runVitest, writeDataset, writeJsonl } from '../vitest/helpers.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-beside-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const subsets = datasetSpec(3);
const data = writeDataset(dir, subsets);
const CAPITALS = { 1: 'Rome', 2: 'Paris', 3: 'Madrid', 4: 'Lisbon', 5: 'Athens', 6: 'Tokyo', 7: 'Kathmandu', 8: 'New Delhi', 9: 'Bangkok', 10: 'Hanoi' };
const capitalRows = Object.entries(CAPITALS).map(([id, prediction]) => ({ language: 'capitals', id: Number(id), prediction }));

const run = (file: string, env: Record<string, string> = {}) =>
  runVitest(['run', '--config', 'test/dataset/besideBuiltIns.config.ts'], { LOKAL_MULTILOKO: data, LOKAL_MODEL: `replay:${file}`, LOKAL_REPORT: 'off', ...env });

describe('a dataset benchmark beside MultiLoKo', () => {
  test("its clauses, group form included, are left to it by MultiLoKo's file; one replay file serves each benchmark its rows", async () => {
    const both = path.join(dir, 'both.jsonl');
    writeJsonl(both, [...predictionsFor(subsets), ...capitalRows]);
    const output = path.join(dir, 'out');
    const result = await run(both, { LOKAL_OUTPUT: output, LOKAL_THRESHOLDS: 'em>=0.3,capitals.em>=0.95,capitals.asia.f1>=0.9' });
    const show = `${result.stdout}\n${result.stderr}`;
    expect(show).not.toContain('ThresholdError');
    expect(result.code, show).toBe(0);
    expect(result.stdout).toContain('✓ capitals asia F1 = 1, meets ≥ 0.9000 (gate capitals.asia.f1>=0.9)');
    expect(result.stdout).toContain('18 answers read from the predictions file');
    const multiloko = JSON.parse(readFileSync(path.join(output, 'multiloko.json'), 'utf8'));
    expect(multiloko.summary.gates.map((g: { gate: string }) => g.gate)).toEqual(['em>=0.3']);
    const capitals = JSON.parse(readFileSync(path.join(output, 'capitals.json'), 'utf8'));
    expect(capitals.gates.map((g: { gate: string; pass: boolean }) => [g.gate, g.pass])).toEqual([
      ['capitals.em>=0.95', true],
      ['capitals.asia.f1>=0.9', true],
    ]);
  });

  test('a replay file of capitals rows alone serves the capitals benchmark and MultiLoKo is skipped, not scored on them', async () => {
    const only = path.join(dir, 'capitals.jsonl');
    writeJsonl(only, capitalRows);
    const result = await run(only, { LOKAL_OUTPUT: path.join(dir, 'out-capitals') });
    const show = `${result.stdout}\n${result.stderr}`;
    expect(result.code, show).toBe(0);
    expect(show).toContain(`lokal: skipping multiloko: ${only} holds no MultiLoKo rows`);
    expect(show).not.toContain('MultiLoKo measured nothing');
  });
});
