// No partial run passes for a complete one, end to end: a child Vitest run of the toy benchmark whose item 4 SIGKILLs
// its own worker (as the OOM killer would) must leave the previous complete toy.json alone, write toy.incomplete.json
// with complete: false and the groups that did not finish, fail the gates over them, exit 1 and say the worker exited.
// A -t filter that skips the whole benchmark leaves its results file alone and blames no runner configuration; one
// that keeps part of it writes the incomplete file with the filter as the reason. The rules' other cases (no item
// finished, a filter keeping one group) are test/run/endRun.test.ts's, on hand-built runs.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { MULTILOKO_EVAL, runVitest } from '../helpers.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-incomplete-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CONFIG = 'test/vitest/worker/vitest.config.ts';
// Every answer right: a complete run would pass every gate below.
const REPLIES = { 1: 'Rome', 2: 'Paris', 3: 'Madrid', 4: 'Tokyo', 5: 'Kathmandu' };
const PREVIOUS = `${JSON.stringify({ benchmark: 'toy', note: 'a complete earlier run' })}\n`;

function setUp(name: string): { output: string; predictions: string } {
  const output = path.join(dir, name, 'out');
  mkdirSync(output, { recursive: true });
  writeFileSync(path.join(output, 'toy.json'), PREVIOUS);
  const predictions = path.join(dir, name, 'replies.jsonl');
  writeFileSync(predictions, Object.entries(REPLIES).map(([id, prediction]) => JSON.stringify({ language: 'toy', id: Number(id), prediction })).join('\n') + '\n');
  return { output, predictions };
}

describe('a worker that dies mid-run', () => {
  test('the complete file is untouched; toy.incomplete.json says complete: false and names asia; exit 1; the worker is blamed', { timeout: 120_000 }, async () => {
    const { output, predictions } = setUp('killed');
    const run = await runVitest(['run', '--config', CONFIG], {
      TOY_KILL_ITEM: '4',
      LOKAL_MODEL: `replay:${predictions}`,
      LOKAL_OUTPUT: output,
      LOKAL_THRESHOLDS: 'toy.accuracy>=0.5,toy.europe.accuracy>=0.5,toy.asia.accuracy>=0.5',
    });
    const show = `${run.stdout}\n${run.stderr}`;
    expect(run.code, show).toBe(1);
    expect(readFileSync(path.join(output, 'toy.json'), 'utf8')).toBe(PREVIOUS);
    const results = JSON.parse(readFileSync(path.join(output, 'toy.incomplete.json'), 'utf8'));
    expect(results.complete).toBe(false);
    // Asia's item 4 never ended; Europe's three items and its gate did (the victim waits a second before dying).
    expect(results.missing_subsets).toEqual(['asia']);
    expect(results.incomplete_reason).toMatch(/^a Vitest worker exited unexpectedly/);
    expect(results.gates_passed).toBe(false);
    // Run-wide and Asia's clauses need Asia's data: failed. Europe's is judged as usual on Europe's three answers.
    expect(results.gates_failed_for_missing_data.map((g: { gate: string; pass: boolean }) => [g.gate, g.pass])).toEqual([
      ['toy.accuracy>=0.5', false],
      ['toy.asia.accuracy>=0.5', false],
    ]);
    expect(results.gates.map((g: { gate: string; pass: boolean; value: number }) => [g.gate, g.pass, g.value])).toEqual([['toy.europe.accuracy>=0.5', true, 1]]);
    expect(results.continents.europe.records.map((r: { id: number }) => r.id)).toEqual([1, 2, 3]);
    expect(run.stdout).toContain('lokal: toy: INCOMPLETE run: a Vitest worker exited unexpectedly');
    expect(run.stdout).toContain('✗ toy accuracy: depends on groups that did not finish (asia), so the gate fails (gate toy.accuracy>=0.5)');
    expect(show).not.toContain('configure the lokal runner');
    expect(readdirSync(output).sort()).toEqual(['toy.incomplete.json', 'toy.json']);
  });

  test('a worker that dies while collecting: no results written, exit 1, the file and the reason named', { timeout: 120_000 }, async () => {
    const { output, predictions } = setUp('collecting');
    const run = await runVitest(['run', '--config', CONFIG], { TOY_KILL_COLLECT: '1', LOKAL_MODEL: `replay:${predictions}`, LOKAL_OUTPUT: output });
    const show = `${run.stdout}\n${run.stderr}`;
    expect(run.code, show).toBe(1);
    expect(run.stdout).toMatch(/lokal: test\/vitest\/worker\/killing\.eval\.ts did not finish: a Vitest worker exited unexpectedly .*; its results were not written/);
    expect(readdirSync(output)).toEqual(['toy.json']);
    expect(readFileSync(path.join(output, 'toy.json'), 'utf8')).toBe(PREVIOUS);
  });

  test('a later complete run writes toy.json and removes the stale incomplete file', { timeout: 120_000 }, async () => {
    const { output, predictions } = setUp('rerun');
    writeFileSync(path.join(output, 'toy.incomplete.json'), '{"complete":false}\n');
    const run = await runVitest(['run', '--config', CONFIG], { LOKAL_MODEL: `replay:${predictions}`, LOKAL_OUTPUT: output, LOKAL_THRESHOLDS: 'toy.accuracy>=0.5' });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const results = JSON.parse(readFileSync(path.join(output, 'toy.json'), 'utf8'));
    expect(results.complete).toBeUndefined();
    expect(results.continents.asia.records).toHaveLength(2);
    expect(readdirSync(output)).toEqual(['toy.json']);
  });
});

describe('a -t filter', () => {
  test('that skips the whole benchmark leaves its results alone and names no runner problem', { timeout: 120_000 }, async () => {
    const { output, predictions } = setUp('filtered');
    const run = await runVitest(['run', '--config', CONFIG, '-t', 'no test has this name'], { LOKAL_MODEL: `replay:${predictions}`, LOKAL_OUTPUT: output });
    const show = `${run.stdout}\n${run.stderr}`;
    expect(run.stdout, show).toMatch(/Tests +8 skipped/); // 5 items, 2 gates and the summary test
    expect(readFileSync(path.join(output, 'toy.json'), 'utf8')).toBe(PREVIOUS);
    expect(show).not.toContain('configure the lokal runner');
    expect(run.stdout).toContain('lokal: toy: every test was skipped (a -t filter or .skip); its results file is left as it was');
  });

  test('that keeps one MultiLoKo item of 21: the incomplete file, and the line says the answer was read', { timeout: 180_000 }, async () => {
    const { output } = setUp('multiloko-item');
    writeFileSync(path.join(output, 'multiloko.json'), PREVIOUS);
    const predictions = path.join(dir, 'multiloko-item', 'predictions.jsonl');
    writeFileSync(predictions, `${JSON.stringify({ language: 'italian', id: '001_colosseo.txt', prediction: 'Roma' })}\n`);
    const run = await runVitest(['run', '--project', 'evals', MULTILOKO_EVAL, '-t', 'Colosseo'], {
      LOKAL_MULTILOKO: 'data/fixtures/multiloko',
      LOKAL_SUBSETS: 'local',
      LOKAL_MODEL: `replay:${predictions}`,
      LOKAL_OUTPUT: output,
    });
    const show = `${run.stdout}\n${run.stderr}`;
    expect(readFileSync(path.join(output, 'multiloko.json'), 'utf8'), show).toBe(PREVIOUS);
    const results = JSON.parse(readFileSync(path.join(output, 'multiloko.incomplete.json'), 'utf8'));
    expect(results.incomplete_reason).toMatch(/^a -t filter \(\/Colosseo\/\) kept 1 of \d+ items$/u);
    expect(results.italian['001_colosseo.txt'].em).toBe(1);
    expect(run.stdout).toContain('1 answers read from the predictions file');
    expect(show).not.toContain('could not be read');
  });
});
