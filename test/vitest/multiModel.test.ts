// LOKAL_MODEL listing two replay models in one child Vitest run: one describe per model over the same data, each
// model's results file in its own folder, gates judged per model, and the two side by side (table and compare.html)
// with figures worked out by hand from the predictions written here.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { modelFolderNames } from '../../src/core/modelList.ts';
import { MULTILOKO_EVAL, datasetSpec, runVitest, writeDataset, writeJsonl, type ChildRun } from './helpers.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-multi-model-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const N = 20;
const spec = datasetSpec(N);
// Model A answers the first half of every subset with its first target and the rest wrongly; model B the same, except
// that it answers every Italian item right. So A: EM 0.5 everywhere; B: Italian 1.0, the rest 0.5.
const answer = (right: boolean, targets: readonly string[]) => (right ? targets[0]! : 'zzz no idea');
const predictionsA = spec.flatMap((s) => s.items.map((item, i) => ({ language: s.key, id: item.id, prediction: answer(i < N / 2, item.targets) })));
const predictionsB = spec.flatMap((s) => s.items.map((item, i) => ({ language: s.key, id: item.id, prediction: answer(i < N / 2 || s.key === 'italian', item.targets) })));
// A comma inside the first path: the list splits only where a provider prefix follows the comma.
const fileA = path.join(dir, 'model a,first.jsonl');
const fileB = path.join(dir, 'model-b.jsonl');
const modelA = `replay:${fileA}`;
const modelB = `replay:${fileB}`;
const output = path.join(dir, 'out');
const [slugA, slugB] = modelFolderNames([{ spec: modelA }, { spec: modelB, label: 'b-model' }]);

type Results = Record<string, { em?: number }> & { summary: { model: string; gates: Array<{ gate: string; value: number; pass: boolean }> } };
const read = (slug: string) => JSON.parse(readFileSync(path.join(output, slug!, 'multiloko.json'), 'utf8')) as Results;
interface JsonReport {
  testResults: Array<{ assertionResults: Array<{ ancestorTitles: string[]; title: string; status: string }> }>;
}

let run: ChildRun;
let report: JsonReport;

beforeAll(async () => {
  const location = writeDataset(dir, spec);
  writeJsonl(fileA, predictionsA);
  writeJsonl(fileB, predictionsB);
  const json = path.join(dir, 'vitest.json');
  run = await runVitest(['run', '--project', 'evals', MULTILOKO_EVAL, '--reporter=default', '--reporter=./reporters/lokal-reporter.ts', '--reporter=json', `--outputFile.json=${json}`], {
    LOKAL_MULTILOKO: location,
    // B carries a label; A is named by the shortest tail of its provider string no other model ends with.
    LOKAL_MODEL: `${modelA},b-model=${modelB}`,
    LOKAL_OUTPUT: output,
    LOKAL_THRESHOLDS: 'italian.em>=0.9',
  });
  report = JSON.parse(readFileSync(json, 'utf8')) as JsonReport;
}, 240_000);

const show = () => `exit ${run.code}\n${run.stdout.slice(-4000)}\n${run.stderr.slice(-3000)}`;

describe('a run listing two models', () => {
  test('one top-level describe per model, each holding every item of the data', () => {
    const tests = report.testResults.flatMap((f) => f.assertionResults);
    const byModel = new Map<string, number>();
    for (const t of tests) byModel.set(t.ancestorTitles[0] ?? '(top level)', (byModel.get(t.ancestorTitles[0] ?? '(top level)') ?? 0) + 1);
    // 6 subsets × N items + a gate test per subset, and the model's summary test, under each model; nothing outside.
    expect(Object.fromEntries(byModel), show()).toEqual({ [modelA]: 6 * (N + 1) + 1, [modelB]: 6 * (N + 1) + 1 });
    const summaries = tests.filter((t) => t.title === 'summary');
    expect(summaries.map((t) => [t.ancestorTitles.join(' > '), t.status])).toEqual([
      [modelA, 'passed'],
      [modelB, 'passed'],
    ]);
    expect(tests.find((t) => t.ancestorTitles[0] === modelB && t.ancestorTitles[1] === 'italian · local')).toBeDefined();
  });

  test('one results file per model, in a folder named after its label, else its provider string, with the EMs worked out by hand', () => {
    expect([slugA, slugB]).toEqual([`replay-${dir.replace(/[^A-Za-z0-9._-]+/gu, '-').replace(/^-+/u, '')}-model-a-first.jsonl`.slice(-100), 'b-model']);
    const a = read(slugA!);
    const b = read(slugB!);
    expect(a.summary.model).toBe(modelA);
    expect(b.summary.model).toBe(modelB);
    for (const s of spec) {
      expect(a[s.key]!.em, `A ${s.key}`).toBe(0.5);
      expect(b[s.key]!.em, `B ${s.key}`).toBe(s.key === 'italian' ? 1 : 0.5);
    }
    // No single-model file beside them.
    expect(existsSync(path.join(output, 'multiloko.json'))).toBe(false);
    // Each model's report is headed by its label: B's as given; A's the shortest tail of its provider string B's
    // label does not equal (its file name).
    const heading = (slug: string) => /<h1>([^<]*)<\/h1>/u.exec(readFileSync(path.join(output, slug, 'report.html'), 'utf8'))?.[1];
    expect(heading(slugA!)).toBe(`vitest-lokal report · ${path.basename(modelA.slice('replay:'.length))}`);
    expect(heading(slugB!)).toBe('vitest-lokal report · b-model');
  });

  test('one leaderboard with a row per model, named by its label, and each model\'s tables headed by it', () => {
    // Not one single-row leaderboard per model: one table, the models in the order listed. A: 0.5 everywhere;
    // B: (50 + 50 + 100) / 3 over the three local languages.
    const headers = run.stdout.split('\n').filter((l) => l.startsWith('MultiLoKo leaderboard'));
    expect(headers, show()).toEqual(['MultiLoKo leaderboard · 2 models · EM × 100 over 3 local languages, ± = 2 SE across languages, MTE from human translations']);
    const table = run.stdout.slice(run.stdout.indexOf(headers[0]!)).split('\n').slice(1, 5);
    expect(table[2]).toMatch(/^\s+\| model a,first\.jsonl \|\s+50\.00 ± 0\.0 /u);
    expect(table[3]).toMatch(/^\s+\| b-model\s+\|\s+66\.67 ± /u);
    expect(run.stdout).toContain(`lokal: model b-model (${modelB})`);
    expect(run.stdout).toMatch(/^MultiLoKo per language · b-model · /mu);
  });

  test('the gate is judged per model: A misses italian.em>=0.9, B meets it, so the run fails', () => {
    expect(read(slugA!).summary.gates).toMatchObject([{ gate: 'italian.em>=0.9', value: 0.5, pass: false }]);
    expect(read(slugB!).summary.gates).toMatchObject([{ gate: 'italian.em>=0.9', value: 1, pass: true }]);
    expect(run.code, show()).toBe(1);
  });

  test('the side-by-side table: Δ and McNemar p by hand, and compare.html', () => {
    // Italian: B alone right on the N/2 = 10 second-half items, A alone right on none: McNemar's exact p = 2 · 0.5^10;
    // the other five subsets have no discordant pair (p = 1). The baseline gate's family adds the local subsets pooled
    // and every subset pooled (no translation shares an id with a local question here, so each item is its own cluster
    // and McNemar applies): the same 10 discordant pairs, the same p. Holm over the eight: 8p for the three smallest.
    const p = 2 * 0.5 ** (N / 2);
    expect((8 * p).toFixed(3)).toBe('0.016');
    expect(run.stdout, show()).toMatch(/^\s+italian\s+50\.00\s+100\.00\s+\+50\.00 \(p 0\.016\*\)\s*$/mu);
    expect(run.stdout).toMatch(/^\s+english\s+50\.00\s+50\.00\s+0\.00 \(p 1\.000\)\s*$/mu);
    // Headline: A 0.5; B (0.5 + 0.5 + 1) / 3. Pooled over the 60 local items: 10 gained, none lost, Δ = 10/60.
    expect(run.stdout).toMatch(/^\s+average\s+50\.00\s+66\.67\s+\+16\.67 \(p 0\.016\*\) pooled\s*$/mu);
    expect(run.stdout).toContain('#1 model a,first.jsonl ');
    expect(run.stdout).toContain('#2 b-model ');
    const html = readFileSync(path.join(output, 'compare.html'), 'utf8');
    expect(html).toContain('<svg');
    // Each run is read from its model's folder (B's named after its label).
    expect(html).toContain(`${path.sep}b-model`);
    // The chart's legend and the side-by-side table name the runs by their labels, whole; the table scrolls sideways.
    const legend = [...html.matchAll(/<g class="mark-text role-legend-label"[^>]*>([\s\S]*?)<\/g>/gu)].map((m) => m[1]).join('');
    expect(legend).toContain('>#1 model a,first.jsonl</text>');
    expect(legend).toContain('>#2 b-model</text>');
    expect(html).toMatch(/<div class="wide"><table id="compare-languages"><thead><tr><th><\/th><th class="num">#1 model a,first\.jsonl<\/th><th class="num">#2 b-model<\/th>/u);
  });
});
