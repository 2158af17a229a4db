// A third benchmark added with defineBenchmark and one registration (test/toy): a child Vitest run gets its describes,
// item tests, gate tests, roll-up table, gates and results file from the generic layer alone.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { runVitest } from '../vitest/helpers.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-toy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a toy benchmark from defineBenchmark', () => {
  test('describes, item tests, gates, table and toy.json; a missed gate exits 1', async () => {
    // Europe all right (3/3), Asia one of two (Kathmandu answered wrong).
    const replies = { 1: 'Rome', 2: ' paris ', 3: 'Madrid', 4: 'Tokyo', 5: 'Pokhara' };
    const predictions = path.join(dir, 'replies.jsonl');
    writeFileSync(predictions, Object.entries(replies).map(([id, prediction]) => JSON.stringify({ language: 'toy', id: Number(id), prediction })).join('\n') + '\n');
    const output = path.join(dir, 'out');
    const run = await runVitest(['run', '--config', 'test/toy/vitest.config.ts'], {
      LOKAL_MODEL: `replay:${predictions}`,
      LOKAL_OUTPUT: output,
      LOKAL_THRESHOLDS: 'toy.accuracy>=0.75,toy.asia.accuracy>=0.9',
    });
    const show = `${run.stdout}\n${run.stderr}`;
    expect(run.code, show).toBe(1);
    // One describe per continent, one test per item, one gate test each.
    for (const name of ['toy · europe > 1 · capital of Italy', 'toy · europe > 3 · capital of Spain', 'toy · asia > 5 · capital of Nepal', 'toy · europe > gate']) {
      expect(run.stdout, show).toContain(name);
    }
    // Europe's gate test has no clause of its own and passes; Asia's fails on its clause (1/2 < 0.9).
    expect(run.stdout).toMatch(/✓ .*toy · europe > gate/);
    expect(run.stdout + run.stderr).toContain('toy asia accuracy = 0.5000, must be ≥ 0.9000 (gate toy.asia.accuracy>=0.9)');
    // The roll-up table and the run-wide gate: 4 of 5 correct = 0.8.
    expect(run.stdout).toMatch(/continent +items +accuracy\n *europe +3 +1\n *asia +2 +0\.5/);
    expect(run.stdout).toContain('✓ toy all accuracy = 0.8000, meets ≥ 0.7500 (gate toy.accuracy>=0.75)');
    expect(run.stdout).not.toContain('carry no aggregates');
    const results = JSON.parse(readFileSync(path.join(output, 'toy.json'), 'utf8'));
    expect(results.continents.europe.accuracy).toBe(1);
    expect(results.continents.asia.records).toEqual([
      { id: 4, reply: 'Tokyo', correct: true },
      { id: 5, reply: 'Pokhara', correct: false },
    ]);
    expect(results.gates.map((g: { gate: string; pass: boolean }) => [g.gate, g.pass])).toEqual([
      ['toy.accuracy>=0.75', true],
      ['toy.asia.accuracy>=0.9', false],
    ]);
    expect(results.gates_passed).toBe(false);
  });
});
