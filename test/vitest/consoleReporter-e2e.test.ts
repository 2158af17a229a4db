// A quiet console: child `vitest run --project evals` processes of a MultiLoKo replay (12 Italian items, 7 of them
// wrong or unanswered) through lokalReporters(). Vitest's slow threshold is set to 0 ms, so without the lokal console
// reporter every item would be listed as slow; in strict mode each wrong answer is one line, with no stack or diff.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { MULTILOKO_EVAL, datasetSpec, predictionsFor, runVitest, writeDataset, writeJsonl, type ChildRun } from './helpers.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-console-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const spec = datasetSpec(12);
const location = writeDataset(dir, spec);
const predictions = path.join(dir, 'predictions.jsonl');
const rows = predictionsFor(spec, { dropLast: true });
writeJsonl(predictions, rows);
const italian = spec.find((s) => s.key === 'italian')!;

const show = (run: ChildRun) => `exit ${run.code}\n${run.stdout.slice(-6000)}\n${run.stderr.slice(-6000)}`;

function run(name: string, extra: Record<string, string>): Promise<ChildRun> {
  return runVitest(['run', '--project', 'evals', '--slowTestThreshold=0', MULTILOKO_EVAL], {
    LOKAL_MULTILOKO: location,
    LOKAL_MODEL: `replay:${predictions}`,
    LOKAL_OUTPUT: path.join(dir, name),
    LOKAL_LANGUAGES: 'italian',
    LOKAL_SUBSETS: 'local',
    LOKAL_REPORT: 'off',
    ...extra,
  });
}

/** The output lines that name item `id` of the Italian subset (its test name starts with the id). */
function linesNaming(run: ChildRun, id: string): string[] {
  return `${run.stdout}\n${run.stderr}`.split('\n').filter((line) => line.includes(`${id} · `));
}

describe('the console of an evals run', () => {
  test('no item test is listed as slow (Vitest slow threshold 0 ms): only the run, the gate and the roll-up', async () => {
    const result = await run('plain', {});
    expect(result.code, show(result)).toBe(0);
    for (const item of italian.items) expect(linesNaming(result, String(item.id)), show(result)).toEqual([]);
    expect(result.stdout).toMatch(/Tests\s+14 passed \(14\)/u);
  });

  test('strict mode: each wrong answer is one line naming the item, the answer and the targets; no stack, diff or code frame', async () => {
    const result = await run('strict', { LOKAL_STRICT: '1' });
    const out = `${result.stdout}\n${result.stderr}`;
    expect(result.code, show(result)).toBe(1);
    // The run's own results say which items were wrong (EM 0) and which had no prediction.
    const scored = JSON.parse(readFileSync(path.join(dir, 'strict', 'multiloko.json'), 'utf8')).italian as Record<string, { em: number }>;
    const missing = italian.items.map((i) => String(i.id)).filter((id) => !rows.some((r) => r.language === 'italian' && String(r.id) === id));
    const wrong = Object.keys(scored).filter((id) => scored[id]!.em === 0 && !missing.includes(id));
    expect(wrong.length + missing.length, show(result)).toBeGreaterThan(1);
    for (const id of wrong) {
      const lines = linesNaming(result, id);
      expect(lines, show(result)).toHaveLength(1);
      expect(lines[0]).toMatch(/^ FAIL .* · strict mode: expected answer to exact-match a target \(EM 0\) · answer: +".*" → normalised ".*" · targets: .* → normalised /u);
    }
    for (const id of missing) expect(linesNaming(result, id)).toEqual([expect.stringMatching(/ · strict mode: no prediction for multiloko\/italian\//u)]);
    // The items answered right are not listed, although their file failed.
    for (const item of italian.items.filter((i) => !wrong.includes(String(i.id)) && !missing.includes(String(i.id)))) expect(linesNaming(result, String(item.id))).toEqual([]);
    expect(out).not.toContain('Expected:');
    expect(out).not.toContain('benchmarkSuite.ts');
    expect(out).not.toContain('plan.ts');
    expect(result.stdout).toMatch(new RegExp(`Tests\\s+${wrong.length + missing.length} failed \\| ${14 - wrong.length - missing.length} passed \\(14\\)`, 'u'));
  });
});
