// A benchmark without data: skipped (visibly) when its location was never configured, failed when a configured
// location is wrong, and the whole run fails when no benchmark had data.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { REPO_ROOT, runVitest } from './helpers.ts';

// The child runs from an empty folder, so the default data/ lookups find nothing whatever this checkout holds.
const emptyCwd = mkdtempSync(path.join(tmpdir(), 'lokal-nodata-'));
const config = ['--config', path.join(REPO_ROOT, 'vitest.config.ts'), '--root', REPO_ROOT, '--project', 'evals'];
const predictions = path.join(emptyCwd, 'p.jsonl');
writeFileSync(predictions, '{"language":"italian","id":"001_colosseo.txt","prediction":"Roma"}\n');
const fixture = path.join(REPO_ROOT, 'data/fixtures/multiloko');
afterAll(() => rmSync(emptyCwd, { recursive: true, force: true }));

describe('benchmarks without data', () => {
  test('nothing configured and nothing in data/: both skipped with how-to, and the run exits 1', async () => {
    const run = await runVitest(['run', ...config], { LOKAL_MODEL: `replay:${predictions}`, LOKAL_OUTPUT: emptyCwd }, emptyCwd);
    expect(run.stderr + run.stdout).toContain('skipping kalahi: kalahi data not found in data/ — set LOKAL_KALAHI');
    expect(run.stderr + run.stdout).toContain('skipping multiloko: multiloko data not found in data/ — set LOKAL_MULTILOKO');
    expect(run.stderr).toContain('lokal: no benchmark ran');
    expect(run.code).toBe(1);
  }, 60_000);

  test('one benchmark with data: the other is skipped and the run passes', async () => {
    const run = await runVitest(['run', ...config], {
      LOKAL_MODEL: `replay:${predictions}`,
      LOKAL_MULTILOKO: fixture,
      LOKAL_SUBSETS: 'local',
      LOKAL_LANGUAGES: 'italian',
      LOKAL_OUTPUT: emptyCwd,
    }, emptyCwd);
    expect(run.stderr + run.stdout).toContain('skipping kalahi');
    expect(run.stderr).not.toContain('no benchmark ran');
    expect(run.code).toBe(0);
  }, 60_000);

  test('a replay file without Kalahi rows: Kalahi is skipped under "no rows in the predictions file", not "no data"', async () => {
    // Kalahi's data is there (one CSV of one prompt); the predictions file answers only MultiLoKo.
    const csv = path.join(emptyCwd, 'filipino.csv');
    writeFileSync(csv, 'prompt_variation_id,prompt_id,category,topic,prompt,best_answer,relevant_answers,irrelevant_answers\n0101000100,01010001,ethics,career,"Anong gagawin ko?",Mag-aral,Mag-aral;Magtanong,Tumigil;Maglaro\n');
    const json = path.join(emptyCwd, 'kalahi-report.json');
    const run = await runVitest(['run', ...config, 'evals/kalahi.eval.ts', '--reporter=default', `--reporter=${path.join(REPO_ROOT, 'reporters/lokal-reporter.ts')}`, '--reporter=json', `--outputFile.json=${json}`], {
      LOKAL_MODEL: `replay:${predictions}`,
      LOKAL_KALAHI: csv,
      LOKAL_OUTPUT: emptyCwd,
    }, emptyCwd);
    expect(run.stderr + run.stdout).toContain(`skipping kalahi: ${predictions} holds no Kalahi rows`);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { testResults: Array<{ assertionResults: Array<{ ancestorTitles: string[]; status: string }> }> };
    const skipped = report.testResults.flatMap((f) => f.assertionResults);
    expect(skipped.map((t) => [t.ancestorTitles.join(' > '), t.status])).toEqual([['kalahi · no rows in the predictions file', 'skipped']]);
    // The only benchmark of the run was skipped: the run fails, and the line does not blame missing data.
    expect(run.stderr).toContain('lokal: no benchmark ran — each was skipped for want of data or of rows in the predictions file');
    expect(run.code).toBe(1);
  }, 60_000);

  test('a configured location that does not exist fails its file', async () => {
    const run = await runVitest(['run', ...config, 'evals/kalahi.eval.ts'], {
      LOKAL_MODEL: `replay:${predictions}`,
      LOKAL_KALAHI: path.join(emptyCwd, 'nowhere'),
      LOKAL_OUTPUT: emptyCwd,
    }, emptyCwd);
    expect(run.stdout + run.stderr).toMatch(/nowhere: Kalahi data not found/);
    expect(run.code).toBe(1);
  }, 60_000);
});
