// Wrong answers in Vitest UI, and nowhere else: child Vitest runs of a replay file on a generated subset. Under `--ui`
// (started without a terminal: it runs once and exits) each wrong answer is a failed item test whose error is its
// verdict line, unless LOKAL_STRICT says otherwise; a plain `vitest run` keeps item tests green and its exit code is the
// gates'. Which answers are wrong is worked out here from the predictions and targets (docs/metrics.md#exact-match). In
// every run the `summary` test is listed first and still carries the final figures.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { formatFigure } from '../../src/core/gates.ts';
import { freePort } from '../support/freePort.ts';
import { exactMatchByDefinition } from '../support/multilokoEm.ts';
import { MULTILOKO_EVAL, datasetSpec, predictionsFor, runVitest, writeDataset, writeJsonl, type ChildRun } from './helpers.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-ui-mode-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const spec = datasetSpec(5);
const location = writeDataset(dir, spec);
const predictions = path.join(dir, 'predictions.jsonl');
const rows = predictionsFor(spec, { dropLast: true });
writeJsonl(predictions, rows);

const key = (subset: string, id: string | number) => `${subset}/${String(id)}`;
const answers = new Map(rows.map((r) => [key(r.language, r.id), r.prediction]));
/** Every item's EM from its replay answer (none: scored as '') and its targets. */
const em = new Map(spec.flatMap((s) => s.items.map((item) => [key(s.key, item.id), exactMatchByDefinition(answers.get(key(s.key, item.id)), item.targets)] as const)));
const wrong = [...em].filter(([, v]) => v === 0).map(([k]) => k).sort();

interface JsonTest {
  title: string;
  fullName: string;
  ancestorTitles: string[];
  status: string;
  failureMessages: string[];
  meta: { lokalItem?: { subset: string; id: string | number; verdict: string }; lokalGroup?: unknown };
}

interface Run extends ChildRun {
  tests: JsonTest[];
  junit: string;
}

async function run(name: string, args: readonly string[], env: Record<string, string>): Promise<Run> {
  const out = path.join(dir, name);
  const json = path.join(out, 'vitest.json');
  const junit = path.join(out, 'junit.xml');
  const child = await runVitest(
    [...args, '--project', 'evals', MULTILOKO_EVAL, '--reporter=default', '--reporter=./reporters/lokal-reporter.ts', '--reporter=json', `--outputFile.json=${json}`, '--reporter=junit', `--outputFile.junit=${junit}`],
    { LOKAL_MULTILOKO: location, LOKAL_MODEL: `replay:${predictions}`, LOKAL_OUTPUT: out, LOKAL_REPORT: 'off', ...env },
  );
  const report = JSON.parse(readFileSync(json, 'utf8')) as { testResults: Array<{ assertionResults: JsonTest[] }> };
  return { ...child, tests: report.testResults.flatMap((f) => f.assertionResults), junit: readFileSync(junit, 'utf8') };
}

/** `vitest --ui` as a user starts it, without a terminal (no TTY on stdin, CI unset) on a port of its own. */
async function uiRun(name: string, env: Record<string, string>): Promise<Run> {
  return run(name, ['--ui', '--open=false', `--api.port=${await freePort()}`, '--api.host=127.0.0.1'], { CI: '', ...env });
}

const show = (r: ChildRun) => `exit ${r.code}\n${r.stdout.slice(-4000)}\n${r.stderr.slice(-3000)}`;
const items = (r: Run) => r.tests.filter((t) => t.meta.lokalItem !== undefined);
const failedItems = (r: Run) => items(r).filter((t) => t.status === 'failed').map((t) => key(t.meta.lokalItem!.subset, t.meta.lokalItem!.id)).sort();
const unescapeXml = (text: string) => text.replace(/&quot;/gu, '"').replace(/&apos;/gu, "'").replace(/&lt;/gu, '<').replace(/&gt;/gu, '>').replace(/&amp;/gu, '&');

/** The summary test is the file's first test case (as collected), and its annotation holds each local language's EM × 100. */
function expectSummaryFirstWithFinalFigures(r: Run): void {
  expect(r.tests[0]?.title, show(r)).toBe('summary');
  expect(r.tests[0]?.ancestorTitles).toEqual([]);
  const firstCase = /<testcase [^>]*name="([^"]*)"[^>]*>([\s\S]*?)<\/testcase>/u.exec(r.junit);
  expect(firstCase?.[1]).toBe('summary');
  const note = /<property name="summary" value="([^"]*)">/u.exec(firstCase![2]!);
  expect(note, firstCase![2]).not.toBeNull();
  const text = unescapeXml(note![1]!);
  for (const language of ['english', 'french', 'italian']) {
    const subset = spec.find((s) => s.key === language)!;
    const right = subset.items.filter((item) => em.get(key(language, item.id)) === 1).length;
    expect(text).toContain(` ${language} ${((100 * right) / subset.items.length).toFixed(2)} [`);
  }
}

describe('wrong answers fail their item tests in Vitest UI only', () => {
  test('the generated subset has right and wrong answers (else nothing below could fail)', () => {
    expect(wrong.length).toBeGreaterThan(5);
    expect(wrong.length).toBeLessThan(em.size - 5);
  });

  test('vitest --ui: the failed item tests are exactly the wrong answers, each with its verdict line as the error; it runs once and exits', async () => {
    const r = await uiRun('ui', { LOKAL_THRESHOLDS: 'em>=0.01' });
    // It exited by itself (runVitest waits for the process to close): failed item tests make the exit code 1.
    expect(r.code, show(r)).toBe(1);
    expect(items(r)).toHaveLength(em.size);
    expect(failedItems(r)).toEqual(wrong);
    for (const t of items(r).filter((t) => t.status === 'failed')) {
      // ✗ a wrong answer, ∅ none in the predictions file (scored as '')
      expect(t.meta.lokalItem!.verdict, t.meta.lokalItem!.verdict).toMatch(/^[✗∅] EM 0 · /u);
      expect(t.failureMessages[0]!.split('\n')[0]).toBe(`Error: ${t.meta.lokalItem!.verdict}`);
    }
    // The gate tests and the summary still pass: wrong answers are figures, not broken gates.
    expect(r.tests.filter((t) => t.meta.lokalItem === undefined).map((t) => [t.title, t.status])).toEqual([['summary', 'passed'], ...spec.map(() => ['gate', 'passed'])]);
    expectSummaryFirstWithFinalFigures(r);
  }, 180_000);

  test('vitest --ui with a run-wide gate missed: the summary test fails with the gate as its error (no group gate test shows it)', async () => {
    const r = await uiRun('ui-run-wide', { LOKAL_THRESHOLDS: 'em>=0.99' });
    expect(r.code, show(r)).toBe(1);
    const local = ['english', 'french', 'italian'].map((language) => spec.find((s) => s.key === language)!);
    const average = local.reduce((sum, s) => sum + s.items.filter((item) => em.get(key(s.key, item.id)) === 1).length / s.items.length, 0) / local.length;
    const summary = r.tests.find((t) => t.title === 'summary')!;
    expect(summary.status, show(r)).toBe('failed');
    expect(summary.failureMessages[0]!.split('\n').slice(0, 2)).toEqual([
      'Error: MultiLoKo: 1 gate missed over the run',
      `  average EM (3 local languages) = ${formatFigure(average)}, must be ≥ 0.9900 (gate em>=0.99)`,
    ]);
    expect(r.tests.filter((t) => t.title === 'gate').map((t) => t.status)).toEqual(spec.map(() => 'passed'));
    expectSummaryFirstWithFinalFigures(r);
  }, 180_000);

  test('vitest --ui with LOKAL_STRICT=0: every item test passes', async () => {
    const r = await uiRun('ui-not-strict', { LOKAL_STRICT: '0' });
    expect(r.code, show(r)).toBe(0);
    expect(items(r)).toHaveLength(em.size);
    expect(items(r).filter((t) => t.status !== 'passed')).toEqual([]);
  }, 180_000);

  test('plain vitest run: item tests stay green with wrong answers; the exit code is the gates’ (0 when met, 1 when missed)', async () => {
    const met = await run('run-met', ['run'], { LOKAL_THRESHOLDS: 'em>=0.01' });
    expect(met.code, show(met)).toBe(0);
    expect(items(met)).toHaveLength(em.size);
    expect(met.tests.filter((t) => t.status !== 'passed').map((t) => t.fullName)).toEqual([]);
    expectSummaryFirstWithFinalFigures(met);

    const missed = await run('run-missed', ['run'], { LOKAL_THRESHOLDS: 'english.em>=0.99' });
    expect(missed.code, show(missed)).toBe(1);
    // Only the English gate test failed (the summary test leaves a gate its group's test shows to it); every item test
    // (the wrong answers too) passed.
    expect(missed.tests.filter((t) => t.status === 'failed').map((t) => [t.ancestorTitles.join(' > '), t.title])).toEqual([['english · local', 'gate']]);
    expect(items(missed).every((t) => t.status === 'passed')).toBe(true);
  }, 240_000);
});
