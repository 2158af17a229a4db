// Why a run failed, at its end: a missed run-wide gate fails no group's gate test, so the eval file's summary test
// fails on it (Vitest's summary and Vitest UI show it), and the reporter's last line names every missed gate.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ExitReasons } from '../../src/run/exitLine.ts';
import { runVitest } from './helpers.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-exit-line-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Europe 4 of 5 right (Greece wrong), Asia 4 of 5 (Nepal wrong): EM 0.8 over the run and in each group.
const ANSWERS: Record<number, string> = { 1: 'Rome', 2: 'Paris', 3: 'Madrid', 4: 'Lisbon', 5: 'Sparta', 6: 'Tokyo', 7: 'Pokhara', 8: 'New Delhi', 9: 'Bangkok', 10: 'Hanoi' };

describe("the run's last line and the summary test", () => {
  test('a missed run-wide gate fails the summary test; the last line names it and the missed group gate', async () => {
    const predictions = path.join(dir, 'replies.jsonl');
    writeFileSync(predictions, Object.entries(ANSWERS).map(([id, prediction]) => JSON.stringify({ language: 'capitals', id: Number(id), prediction })).join('\n') + '\n');
    const run = await runVitest(['run', '--config', 'test/dataset/vitest.config.ts'], {
      LOKAL_MODEL: `replay:${predictions}`,
      LOKAL_OUTPUT: path.join(dir, 'out'),
      LOKAL_REPORT: 'off',
      LOKAL_THRESHOLDS: 'capitals.em>=0.95,capitals.asia.em>=0.9',
    });
    const show = `${run.stdout}\n${run.stderr}`;
    expect(run.code, show).toBe(1);
    // The last line says why the process exits 1.
    const last = run.stdout.trimEnd().split('\n').at(-1);
    expect(last).toBe('lokal: exit 1: 2 gates missed: capitals all EM = 0.8000 (gate capitals.em>=0.95), capitals asia EM = 0.8000 (gate capitals.asia.em>=0.9)');
    // The run-wide gate has no gate test: the summary test fails on it alone (Asia's gate test shows its own miss).
    expect(run.stdout).toMatch(/× .*capitals\.eval\.ts > summary/u);
    expect(run.stdout).toMatch(/× .*capitals · asia > gate/u);
    expect(show).toContain('capitals: 1 gate missed over the run\n  capitals all EM = 0.8000, must be ≥ 0.9500 (gate capitals.em>=0.95)');
  });

  test('a run whose gates are met has no such line and a passing summary test', async () => {
    const predictions = path.join(dir, 'met.jsonl');
    writeFileSync(predictions, Object.entries(ANSWERS).map(([id, prediction]) => JSON.stringify({ language: 'capitals', id: Number(id), prediction })).join('\n') + '\n');
    const run = await runVitest(['run', '--config', 'test/dataset/vitest.config.ts'], {
      LOKAL_MODEL: `replay:${predictions}`,
      LOKAL_OUTPUT: path.join(dir, 'out-met'),
      LOKAL_REPORT: 'off',
      LOKAL_THRESHOLDS: 'capitals.em>=0.75',
    });
    const show = `${run.stdout}\n${run.stderr}`;
    expect(run.code, show).toBe(0);
    expect(run.stdout).toMatch(/✓ .*capitals\.eval\.ts > summary/u);
    expect(show).not.toContain('lokal: exit 1');
  });
});

describe('ExitReasons', () => {
  test('names each missed gate by its figure (the title prefixed unless the figure starts with it), then the other reasons', () => {
    const reasons = new ExitReasons();
    expect(reasons.line()).toBeUndefined();
    reasons.missed('MultiLoKo', [{ gate: 'em>=0.5', figure: 'average EM (3 local languages)', value: 0.42, message: '' }]);
    reasons.missed('Kalahi', [{ gate: 'kalahi.mc1>=0.4', figure: 'Kalahi tl MC1', value: Number.NaN, message: '' }]);
    reasons.add('kalahi: incomplete run');
    expect(reasons.line()).toBe('lokal: exit 1: 2 gates missed: MultiLoKo average EM (3 local languages) = 0.4200 (gate em>=0.5), Kalahi tl MC1 (gate kalahi.mc1>=0.4); kalahi: incomplete run');
  });
});
