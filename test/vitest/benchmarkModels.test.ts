// One run, several benchmarks, each with a model it can use. A replay file serves only the benchmarks it
// has rows for (the others are left out with one line), and `<benchmark>.model` gives a benchmark its own model.
// Child `vitest run --project evals` runs of both eval files on the MultiLoKo fixture and the real Kalahi CSVs.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { REPO_ROOT, runVitest, type ChildRun } from './helpers.ts';
import { titleUnless } from '../support/sharedData.ts';

const KALAHI = path.resolve(REPO_ROOT, '../shared/data/kalahi');
const haveKalahi = existsSync(path.join(KALAHI, 'filipino.csv'));
const MULTILOKO = path.join(REPO_ROOT, 'data/fixtures/multiloko');
const dir = mkdtempSync(path.join(tmpdir(), 'lokal-benchmark-models-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const config = ['--config', path.join(REPO_ROOT, 'vitest.config.ts'), '--project', 'evals'];
const multilokoRows = ['{"language":"italian","id":"001_colosseo.txt","prediction":"Roma"}'];
// The first two prompt variations of filipino.csv (its first column), answered in Filipino.
const kalahiIds = haveKalahi
  ? readFileSync(path.join(KALAHI, 'filipino.csv'), 'utf8').split('\n').slice(1).filter((l) => /^\d{10},/.test(l)).slice(0, 2).map((l) => l.slice(0, 10))
  : [];
const kalahiRows = kalahiIds.map((id) => JSON.stringify({ language: 'kalahi', id, prediction: 'Kausapin mo ang iyong mga magulang.' }));

function file(name: string, rows: string[]): string {
  const at = path.join(dir, name);
  writeFileSync(at, `${rows.join('\n')}\n`);
  return at;
}

const baseEnv = (output: string) => ({
  LOKAL_MULTILOKO: MULTILOKO,
  LOKAL_LANGUAGES: 'italian',
  LOKAL_SUBSETS: 'local',
  LOKAL_KALAHI: KALAHI,
  LOKAL_LIMIT: '2',
  LOKAL_BERTSCORE_MODEL: 'off',
  LOKAL_BLEURT_MODEL: 'off',
  LOKAL_OUTPUT: output,
  LOKAL_REPORT: 'off',
});
const show = (run: ChildRun) => `exit ${run.code}\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`;
const kalahiJson = (output: string) => JSON.parse(readFileSync(path.join(output, 'kalahi.json'), 'utf8')) as { variants: Record<string, { model: string; items: { recorded: number } }> };

describe.skipIf(!haveKalahi)(titleUnless('each benchmark gets a model it can use', path.join(KALAHI, 'filipino.csv')), () => {
  test('both eval files with only a MultiLoKo predictions file: Kalahi is left out with one line, exit 0', async () => {
    const output = path.join(dir, 'only-multiloko');
    const predictions = file('multiloko.jsonl', multilokoRows);
    const run = await runVitest(['run', ...config], { ...baseEnv(output), LOKAL_MODEL: `replay:${predictions}` });
    const text = run.stdout + run.stderr;
    expect(text, show(run)).toContain(`lokal: skipping kalahi: ${predictions} holds no Kalahi rows (LOKAL_MODEL=replay:${predictions}); LOKAL_KALAHI_MODEL gives Kalahi a model of its own`);
    expect(text).not.toContain('Kalahi measured nothing');
    expect(existsSync(path.join(output, 'multiloko.json'))).toBe(true);
    expect(existsSync(path.join(output, 'kalahi.json'))).toBe(false);
    expect(run.code, show(run)).toBe(0);
  }, 120_000);

  test('a file with rows for both serves both', async () => {
    const output = path.join(dir, 'both');
    const predictions = file('both.jsonl', [...multilokoRows, ...kalahiRows]);
    const run = await runVitest(['run', ...config], { ...baseEnv(output), LOKAL_MODEL: `replay:${predictions}` });
    expect(run.stdout + run.stderr).not.toContain('skipping');
    expect(run.code, show(run)).toBe(0);
    expect(kalahiJson(output).variants.full!.items.recorded).toBe(2);
    expect(existsSync(path.join(output, 'multiloko.json'))).toBe(true);
  }, 120_000);

  test('several models: a file without Kalahi rows is left out of Kalahi only, the others run', async () => {
    const output = path.join(dir, 'several');
    const multiloko = file('several-multiloko.jsonl', multilokoRows);
    const kalahi = file('several-kalahi.jsonl', kalahiRows);
    const run = await runVitest(['run', ...config, 'evals/kalahi.eval.ts'], { ...baseEnv(output), LOKAL_MODEL: `replay:${multiloko},replay:${kalahi}` });
    const text = run.stdout + run.stderr;
    expect(text, show(run)).toContain(`lokal: skipping kalahi for replay:${multiloko}: ${multiloko} holds no Kalahi rows`);
    expect(run.code, show(run)).toBe(0);
    // A listed run writes each model's results in its own folder: only the Kalahi file's has a kalahi.json.
    const folders = readdirSync(output).filter((f) => existsSync(path.join(output, f, 'kalahi.json')));
    expect(folders).toHaveLength(1);
    expect(kalahiJson(path.join(output, folders[0]!)).variants.full!.model).toBe(`replay:${kalahi}`);
  }, 120_000);

  test('LOKAL_KALAHI_MODEL gives Kalahi its own model beside the shared one', async () => {
    const output = path.join(dir, 'own');
    const multiloko = file('own-multiloko.jsonl', multilokoRows);
    const kalahi = file('own-kalahi.jsonl', kalahiRows);
    const run = await runVitest(['run', ...config], { ...baseEnv(output), LOKAL_MODEL: `replay:${multiloko}`, LOKAL_KALAHI_MODEL: `replay:${kalahi}` });
    expect(run.stdout + run.stderr).not.toContain('skipping');
    expect(run.code, show(run)).toBe(0);
    expect(kalahiJson(output).variants.full!.model).toBe(`replay:${kalahi}`);
    const multilokoJson = JSON.parse(readFileSync(path.join(output, 'multiloko.json'), 'utf8')) as { summary: { model: string } };
    expect(multilokoJson.summary.model).toBe(`replay:${multiloko}`);
  }, 120_000);
});
