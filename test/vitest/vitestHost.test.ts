// The tests' Vitest host (test/support/vitestHost.mjs) must run a command line as `node vitest.mjs` does in a process
// of its own: the same exit code, results and lokal lines; nothing of one run's environment in the next; and a run
// that exits the process (a bad setting) ends as the CLI's does, the next run getting a fresh host.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { keepVitestHostFor, MULTILOKO_EVAL, REPO_ROOT, runVitest, runVitestAlone, type ChildRun } from './helpers.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-vitest-host-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const predictions = path.join(dir, 'predictions.jsonl');
// The fixture's first Italian item answered right; its other local items have no answer.
writeFileSync(predictions, `${JSON.stringify({ language: 'italian', id: '001_colosseo.txt', prediction: 'Roma' })}\n`);
const ARGS = ['run', '--project', 'evals', MULTILOKO_EVAL];
const env = (output: string, more: Record<string, string> = {}) => ({
  LOKAL_MULTILOKO: path.join(REPO_ROOT, 'data/fixtures/multiloko'),
  LOKAL_SUBSETS: 'local',
  LOKAL_MODEL: `replay:${predictions}`,
  LOKAL_OUTPUT: path.join(dir, output),
  LOKAL_REPORT: 'off',
  ...more,
});
const show = (run: ChildRun) => `exit ${run.code}\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`;
/** The run's lokal lines, its output folder written as OUT. */
const lokalLines = (run: ChildRun, output: string) =>
  run.stdout.split('\n').filter((line) => line.startsWith('lokal:')).map((line) => line.replaceAll(path.relative(REPO_ROOT, path.join(dir, output)), 'OUT'));
const results = (output: string) => JSON.parse(readFileSync(path.join(dir, output, 'multiloko.json'), 'utf8'));

describe('the Vitest host of child runs', () => {
  test('two runs in one host and one in a process of its own: the same exit code, lokal lines and scores', { timeout: 120_000 }, async () => {
    keepVitestHostFor(2);
    const first = await runVitest(ARGS, env('first'));
    const second = await runVitest(ARGS, env('second'));
    const alone = await runVitestAlone(ARGS, env('alone'));
    for (const run of [first, second, alone]) expect(run.code, show(run)).toBe(0);
    expect([first.ran?.hosted, second.ran?.hosted, alone.ran?.hosted]).toEqual([true, true, false]);
    expect(second.ran?.pid).toBe(first.ran?.pid);
    expect(lokalLines(first, 'first')).toEqual(lokalLines(alone, 'alone'));
    expect(lokalLines(second, 'second')).toEqual(lokalLines(alone, 'alone'));
    expect(lokalLines(alone, 'alone')).toContain('lokal: wrote OUT/multiloko.json');
    // One Italian item of the fixture's three right: EM 1/3 in each.
    const italianItems = readFileSync(path.join(REPO_ROOT, 'data/fixtures/multiloko/italian/dev.jsonl'), 'utf8').trim().split('\n').length;
    for (const output of ['first', 'second', 'alone']) expect(results(output).italian.em).toBeCloseTo(1 / italianItems, 12);
    const { summary: _a, ...firstScores } = results('first');
    const { summary: _b, ...aloneScores } = results('alone');
    expect(firstScores).toEqual(aloneScores);
  });

  test("a run's settings do not reach the next run in the same host", { timeout: 120_000 }, async () => {
    keepVitestHostFor(2);
    const gated = await runVitest(ARGS, env('gated', { LOKAL_THRESHOLDS: 'italian.em>=0.9' }));
    expect(gated.code, show(gated)).toBe(1);
    expect(gated.stdout).toMatch(/gate italian\.em>=0\.9/u);
    const plain = await runVitest(ARGS, env('plain'));
    expect(plain.code, show(plain)).toBe(0);
    expect(plain.ran?.pid).toBe(gated.ran?.pid);
    expect(plain.stdout).not.toContain('italian.em>=0.9');
  });

  test('a bad setting ends the host as it ends the CLI (exit 1, one line); the next run gets a new host', { timeout: 120_000 }, async () => {
    const bad = await runVitest(ARGS, env('bad', { LOKAL_LIMIT: 'abc' }));
    const alone = await runVitestAlone(ARGS, env('bad-alone', { LOKAL_LIMIT: 'abc' }));
    expect(bad.ran?.hosted).toBe(true);
    expect([bad.code, alone.code]).toEqual([1, 1]);
    const line = (run: ChildRun) => run.stderr.split('\n').filter((l) => l.startsWith('lokal: LOKAL_LIMIT'));
    expect(line(bad), show(bad)).toHaveLength(1);
    expect(line(bad)).toEqual(line(alone));
    const next = await runVitest(ARGS, env('next'));
    expect(next.code, show(next)).toBe(0);
    expect(next.ran?.hosted).toBe(true);
    expect(next.ran?.pid).not.toBe(bad.ran?.pid);
  });
});
