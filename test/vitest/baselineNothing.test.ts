// A baseline that compares nothing fails: LOKAL_BASELINE naming an empty folder (a CI artifact download that failed)
// or another benchmark's results gives a failing `baseline` gate that says why, in a real child run; a baseline
// sharing no id or no subset name with the run fails the same way in both modes; and a baseline score outside its
// metric's range is an error naming the file and the item.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parseKalahiBaseline } from '../../src/benchmarks/kalahi/run/baselineGate.ts';
import { reportKalahi } from '../../src/benchmarks/kalahi/results/report.ts';
import { parseBaseline } from '../../src/benchmarks/multiloko/run/baseline.ts';
import { judgeRun, summariseGroups } from '../../src/benchmarks/multiloko/results/rollup.ts';
import { rolledSubset } from '../support/rolledSubset.ts';
import { lastRun, multilokoReplayRun } from '../report/fixtures.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-baseline-nothing-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a child MultiLoKo run whose baseline gives it nothing to compare', () => {
  test('an empty baseline folder: a failing baseline gate naming the folder, exit 1', { timeout: 180_000 }, async () => {
    const empty = path.join(dir, 'artifact');
    mkdirSync(empty);
    const results = await multilokoReplayRun(path.join(dir, 'empty'), 6, 'em>=0.0', { LOKAL_BASELINE: empty });
    const run = lastRun!;
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(1);
    expect(run.stdout).toContain(`MultiLoKo vs baseline: nothing was compared: the baseline folder ${empty} is empty (an artifact download that failed?), so the gate fails (gate baseline)`);
    const summary = results.summary as { gates_passed: boolean; gates: Array<{ gate: string; pass: boolean }> };
    expect(summary.gates_passed).toBe(false);
    expect(summary.gates.filter((g) => g.gate === 'baseline').map((g) => g.pass)).toEqual([false]);
  });

  test("Kalahi's results file given as the baseline: failing, naming whose results it holds", { timeout: 180_000 }, async () => {
    const kalahi = path.join(dir, 'kalahi.json');
    writeFileSync(kalahi, JSON.stringify({ benchmark: 'kalahi', variants: {} }));
    await multilokoReplayRun(path.join(dir, 'kalahi'), 6, 'em>=0.0', { LOKAL_BASELINE: kalahi });
    const run = lastRun!;
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(1);
    expect(run.stdout).toContain(`nothing was compared: the baseline ${kalahi} holds kalahi results, not MultiLoKo's`);
  });
});

const ems = [1, 0, 1, 0, 1, 0];
const baselineText = (key: string, idPrefix = 'q') =>
  JSON.stringify({ [key]: { ...Object.fromEntries(ems.map((v, i) => [`${idPrefix}${i}`, { em: v, prediction: 'x' }])), em: 0.5 } });

describe('MultiLoKo: a baseline that pairs no item', () => {
  const run = [rolledSubset('italian', ems)];
  const failing = (baseline: string, mode: 'significance' | 'tolerance') => {
    const judged = judgeRun(run, summariseGroups(run), { gates: [], baseline: parseBaseline(baseline, 'b.json'), baselineTolerance: 0.02, baselineMode: mode });
    return judged.outcomes.filter((o) => o.gate === 'baseline');
  };

  test('the same language, no shared id: a failing gate saying so', () => {
    const [outcome, ...rest] = failing(baselineText('italian', 'other-'), 'significance');
    expect(rest).toEqual([]);
    expect(outcome!.pass).toBe(false);
    expect(outcome!.message).toBe('MultiLoKo vs baseline: nothing was compared: b.json pairs no item with this run: no item id of italian is in both runs, so the gate fails (gate baseline)');
  });

  test('the language named differently: a failing gate listing both runs\' subsets, in either mode', () => {
    for (const mode of ['significance', 'tolerance'] as const) {
      const [outcome] = failing(baselineText('Italian'), mode);
      expect(outcome!.pass).toBe(false);
      expect(outcome!.message).toContain("no subset is in both runs (the baseline's: Italian; this run's: italian)");
    }
  });

  test('control: a baseline sharing the items compares them and adds no such gate', () => {
    expect(failing(baselineText('italian'), 'significance')).toEqual([]);
  });
});

describe('Kalahi: a baseline that gives nothing to compare', () => {
  test('an empty baseline folder fails the run, naming the folder', () => {
    const empty = path.join(dir, 'kalahi-empty');
    mkdirSync(empty);
    const report = reportKalahi([], { clauses: [], settings: { baseline: 'kalahi-empty', baselineMode: 'significance' } as never, root: dir });
    expect(report.passed).toBe(false);
    expect(report.lines.join('\n')).toContain('Kalahi vs baseline: nothing was compared: the baseline folder kalahi-empty is empty (an artifact download that failed?), so the gate fails (gate baseline)');
  });

  test("MultiLoKo's results file as the baseline fails, naming what it holds", () => {
    const file = path.join(dir, 'multiloko-only.json');
    writeFileSync(file, baselineText('italian'));
    const report = reportKalahi([], { clauses: [], settings: { baseline: 'multiloko-only.json', baselineMode: 'significance' } as never, root: dir });
    expect(report.passed).toBe(false);
    expect(report.lines.join('\n')).toContain('nothing was compared: the baseline multiloko-only.json holds no Kalahi results');
  });
});

describe('a baseline score outside its range', () => {
  test('MultiLoKo em: 5 is an error naming the file and the item', () => {
    const text = JSON.stringify({ italian: { q0: { em: 1, prediction: 'a' }, q1: { em: 5, prediction: 'b' }, em: 0.5 } });
    expect(() => parseBaseline(text, 'b.json')).toThrow('baseline b.json field "italian.q1.em": is 5, outside EM\'s range [0, 1]');
    expect(() => parseBaseline(JSON.stringify({ italian: { em: 50 } }), 'b.json')).toThrow('field "italian.em": is 50');
  });

  test('Kalahi mc1: 5 is an error naming the file, the record and the prompt', () => {
    const text = JSON.stringify({ benchmark: 'kalahi', variants: { full: { records: [{ promptVariationId: '0101000100', mc: { normalised: { mc1: 5, mc2: 0.5 } } }] } } });
    expect(() => parseKalahiBaseline(text, 'k.json')).toThrow(`baseline k.json field "variants.full.records[0].mc.normalised.mc1": is 5, outside MC1's range [0, 1] (prompt 0101000100)`);
  });
});
