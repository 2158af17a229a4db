// A benchmark from a data file (defineDatasetBenchmark) run by a child Vitest like a user's: describes per topic, item
// tests, gate tests, the roll-up table with intervals, the results file in the groups layout, the HTML report's
// section, the step summary and Vitest UI's summary; against a baseline, a 5-item drop on 10 items is "too few items
// to tell"; `lokal compare` puts two runs side by side and refuses a benchmark whose results it cannot read.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { REPO_ROOT, runVitest } from '../vitest/helpers.ts';
import { GroupsResultsSchema } from '../../src/report/groupsResults.ts';
import { wilsonClosedForm } from '../support/wilson.ts';
import { lokalBin } from '../support/installedPackage.ts';
import { drillRowsOf } from '../report/drillRows.ts';

// The built package's bin, as users run it (test/support/installedPackage.ts).
const LOKAL_BIN = await lokalBin();

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-dataset-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CAPITALS: Record<number, string> = { 1: 'Rome', 2: 'Paris', 3: 'Madrid', 4: 'Lisbon', 5: 'Athens', 6: 'Tokyo', 7: 'Kathmandu', 8: 'New Delhi', 9: 'Bangkok', 10: 'Hanoi' };

function replies(file: string, answers: Record<number, string>): string {
  const target = path.join(dir, file);
  writeFileSync(target, Object.entries(answers).map(([id, prediction]) => JSON.stringify({ language: 'capitals', id: Number(id), prediction })).join('\n') + '\n');
  return target;
}

const lokal = (args: string[]) => spawnSync(process.execPath, [LOKAL_BIN, ...args], { cwd: dir, encoding: 'utf8' });

describe('a dataset benchmark from a 10-item JSONL', () => {
  test('tests, gates, table, results, report section, step summary and the UI summary; a missed group gate exits 1', async () => {
    // Europe: Greece answered wrong (4/5; "Roma" and " paris" accepted after normalisation); Asia: Nepal wrong (4/5).
    const predictions = replies('replies.jsonl', { ...CAPITALS, 1: 'Roma', 2: ' paris.', 5: 'Sparta', 7: 'Pokhara', 8: 'Delhi' });
    const output = path.join(dir, 'out');
    const summary = path.join(dir, 'summary.md');
    const run = await runVitest(['run', '--config', 'test/dataset/vitest.config.ts'], {
      LOKAL_MODEL: `replay:${predictions}`,
      LOKAL_OUTPUT: output,
      LOKAL_THRESHOLDS: 'capitals.em>=0.75,capitals.asia.f1>=0.9',
      GITHUB_STEP_SUMMARY: summary,
    });
    const show = `${run.stdout}\n${run.stderr}`;
    expect(run.code, show).toBe(1);
    for (const name of ['capitals · europe > 1 · What is the capital of Italy?', 'capitals · asia > 10 · What is the capital of Vietnam?', 'capitals · europe > gate', 'capitals · asia > gate', '> summary']) {
      expect(run.stdout, show).toContain(name);
    }
    expect(run.stdout).toMatch(/✓ .*capitals · europe > gate/u);
    expect(run.stdout).toMatch(/× .*capitals · asia > gate/u);
    expect(run.stdout).toContain('capitals asia F1 = 0.8000, must be ≥ 0.9000 (gate capitals.asia.f1>=0.9)');
    // The table: EM 4/5 per topic and 8/10 in all, with Wilson's interval by its closed form.
    const [low5, high5] = wilsonClosedForm(4, 5).map((v) => v.toFixed(3));
    const [low10, high10] = wilsonClosedForm(8, 10).map((v) => v.toFixed(3));
    expect(run.stdout).toMatch(new RegExp(`europe +5 +0\\.800 \\[${low5}, ${high5}\\]`, 'u'));
    expect(run.stdout).toMatch(new RegExp(`all +10 +0\\.800 \\[${low10}, ${high10}\\]`, 'u'));
    expect(run.stdout).toContain('✓ capitals all EM = 0.8000, meets ≥ 0.7500 (gate capitals.em>=0.75)');
    // Vitest UI's summary test carries the same figures.
    expect(run.stdout).toContain(`all · 10 items: EM 0.800 [${low10}, ${high10}]`);

    const results = JSON.parse(readFileSync(path.join(output, 'capitals.json'), 'utf8'));
    expect(results).toMatchObject({ layout: 'lokal-groups/1', benchmark: 'capitals', gates_passed: false });
    // The file the writer wrote is one its schema reads (the report, compare and the baseline parse it so).
    expect(GroupsResultsSchema.safeParse(results).error?.issues).toBeUndefined();
    expect(results.groups.map((g: { key: string }) => g.key)).toEqual(['europe', 'asia']);
    const europe = results.groups[0];
    expect(europe.records.map((r: { id: number; verdict: string }) => [r.id, r.verdict])).toEqual([[1, 'correct'], [2, 'correct'], [3, 'correct'], [4, 'correct'], [5, 'wrong']]);
    expect(europe.records[1]).toMatchObject({ answer: ' paris.', prediction: 'paris', targets: ['paris'], scores: { em: 1, f1: 1 } });
    expect(europe.figures.em.value).toBe(0.8);
    expect(europe.figures.em.low).toBeCloseTo(wilsonClosedForm(4, 5)[0], 12);
    // New Delhi against "Delhi": F1 of the token sets by hand, 2·(1·½)/(1+½) = 2/3, but "Delhi" is also a target: 1.
    expect(results.groups[1].records[2].scores).toEqual({ em: 1, f1: 1 });
    // Error categories (MultiLoKo's rules): "sparta" for "athens" and "pokhara" for "kathmandu" share the script and
    // under 0.7 of their letters, so wrong; each group's counts are the count of its records' categories.
    expect(europe.records.map((r: { error: string }) => r.error)).toEqual(['correct', 'correct', 'correct', 'correct', 'wrong']);
    for (const g of results.groups as Array<{ errors: Record<string, number>; records: Array<{ error: string }> }>) {
      const counts: Record<string, number> = { correct: 0, empty: 0, verbose: 0, truncated: 0, near: 0, wrong_script: 0, wrong: 0 };
      for (const r of g.records) counts[r.error]!++;
      expect(g.errors).toEqual(counts);
    }

    const html = readFileSync(path.join(output, 'report.html'), 'utf8');
    expect(html).toContain('<section id="bench-capitals" data-benchmark="capitals"><h2>capitals</h2>');
    expect(html).toMatch(/<td class="num" data-key="capitals\.all\.em" data-value="0\.8"/u);
    // The drill-down the built-in benchmarks have: filters by group and verdict, the question, the accepted answers as
    // given and as scored, the reply as given and as scored.
    expect(html).toContain('<section class="drill" data-drill id="bench-capitals-items">');
    expect(html).toContain('<select data-filter="subset" aria-label="all groups"><option value="">all groups</option><option value="europe">capitals · europe (5)</option>');
    const rows = drillRowsOf(html, 'bench-capitals-items');
    expect(rows.map((r) => r.filters)).toContainEqual({ subset: 'asia', verdict: 'wrong', error: 'wrong' });
    const nepal = rows.find((r) => r.html.includes('<td class="id">7</td>'))!;
    expect(nepal.filters).toEqual({ subset: 'asia', verdict: 'wrong', error: 'wrong' });
    expect(nepal.html).toContain('<td>What is the capital of Nepal?</td><td>Kathmandu\n<span class="label">normalised</span> kathmandu</td><td><span class="label">raw output</span> Pokhara\n<span class="label">normalised</span> pokhara</td>');
    expect(results.groups[1].records[1]).toMatchObject({ question: 'What is the capital of Nepal?', accepted: ['Kathmandu'] });
    expect(html).toContain('data-verdict="missed"');

    const markdown = readFileSync(summary, 'utf8');
    expect(markdown).toContain('### capitals · replay:');
    expect(markdown).toContain(`| **all** | 10 | 0.800 [${low10}, ${high10}] |`);
    expect(markdown).toContain('| ❌ missed | capitals.asia.f1&gt;=0.9 | 0.8000 | ≥ 0.9000 |');
    // Error categories per group in the step summary and the report (bars, counts, the drill-down's filter).
    expect(markdown).toContain('| europe | 5 | 4 | 0 | 0 | 0 | 0 | 0 | 1 |');
    expect(html).toContain('id="chart-bench-capitals-errors"');
    expect(html).toContain('data-key="errors.europe.wrong">1</td>');
    expect(html).toContain('<select data-filter="error" aria-label="any error category"><option value="">any error category</option><option value="correct">correct (8)</option>');
  }, 120_000);

  test('against a baseline: a 5-item drop on 10 items is "too few items to tell" (exit 0); lokal compare sets the runs side by side', async () => {
    const base = path.join(dir, 'base');
    const first = await runVitest(['run', '--config', 'test/dataset/vitest.config.ts'], { LOKAL_MODEL: `replay:${replies('all.jsonl', CAPITALS)}`, LOKAL_OUTPUT: base, LOKAL_REPORT: 'off' });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const dropped = { ...CAPITALS, 1: 'no idea', 3: 'no idea', 6: 'no idea', 8: 'no idea', 10: 'no idea' };
    const now = path.join(dir, 'now');
    const second = await runVitest(['run', '--config', 'test/dataset/vitest.config.ts'], {
      LOKAL_MODEL: `replay:${replies('dropped.jsonl', dropped)}`,
      LOKAL_OUTPUT: now,
      LOKAL_BASELINE: path.join(base, 'capitals.json'),
      LOKAL_REPORT: 'off',
    });
    expect(second.code, second.stdout + second.stderr).toBe(0);
    // Five right → wrong, none the other way: McNemar's exact p = 2·0.5⁵ = 0.0625 before Holm, not below 0.05.
    expect(second.stdout).toContain('capitals all groups pooled (2) EM vs baseline: Δ −0.500');
    expect(second.stdout).toContain('(5 right → wrong, 0 wrong → right); McNemar exact p = 0.0625');
    const results = JSON.parse(readFileSync(path.join(now, 'capitals.json'), 'utf8'));
    expect(results.baseline.tests.map((t: { key: string; verdict: string }) => [t.key, t.verdict])).toEqual([
      ['europe', 'too few items to tell'],
      ['asia', 'too few items to tell'],
      ['pooled', 'too few items to tell'],
    ]);
    expect(results.gates_passed).toBe(true);

    const html = path.join(dir, 'compare.html');
    const compared = lokal(['compare', path.join(base, 'capitals.json'), now, '-o', html]);
    expect(compared.status, compared.stderr).toBe(0);
    expect(readFileSync(html, 'utf8')).toMatch(/<section id="compare-capitals" data-benchmark="capitals"><h2>capitals<\/h2>\n<div class="wide"><table id="compare-capitals-groups">/u);
    expect(compared.stdout).toMatch(/all EM +1\.000 +0\.500 +-0\.500 \(p 0\.188\)/u);
    expect(compared.stdout).toMatch(/europe F1 +1\.000 +0\.600\n/u);
  }, 180_000);

  test('lokal compare refuses a results file of a benchmark it cannot read, naming the benchmark (exit 2)', () => {
    // What the toy benchmark of test/toy writes: its own layout, a `benchmark` field.
    const toy = path.join(dir, 'toy.json');
    writeFileSync(toy, JSON.stringify({ benchmark: 'toy', continents: { europe: { accuracy: 1, records: [{ id: 1, em: 1 }] } }, gates: [], gates_passed: true }));
    const run = lokal(['compare', toy, toy, '--no-html']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`${toy}: holds results of the benchmark "toy", which are not in a layout the report reads`);
    expect(run.stdout).toBe('');
  });
});
