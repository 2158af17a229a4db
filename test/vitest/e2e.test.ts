// End to end: child `vitest run --project evals` processes on a generated dataset and replay file. The reference for
// every number is `lokal score` (scoreMultiLoKoPredictions) on the same inputs; the standard error is Python's.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadMultiLoKo } from '../../src/benchmarks/multiloko/index.ts';
import { readPredictions } from '../../src/models/predictions.ts';
import { scoreMultiLoKoPredictions } from '../../src/benchmarks/multiloko/metrics/score.ts';
import { MULTILOKO_EVAL, REPO_ROOT, datasetSpec, predictionsFor, runVitest, writeDataset, writeJsonl, type ChildRun } from './helpers.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-e2e-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const spec = datasetSpec(12);
const location = writeDataset(dir, spec);
const predictions = path.join(dir, 'predictions.jsonl');
const rows = predictionsFor(spec, { dropLast: true });
writeJsonl(predictions, rows);
const LOCAL = ['english', 'french', 'italian'];

type Results = Record<string, Record<string, unknown>> & { summary?: Record<string, any> };
let reference: Results;
let localEm: number[];
let singleRun: Results | undefined;

beforeAll(async () => {
  const scored = scoreMultiLoKoPredictions(await loadMultiLoKo(location, 'dev'), await readPredictions(predictions));
  reference = JSON.parse(JSON.stringify(scored.results)) as Results;
  localEm = LOCAL.map((k) => reference[k]!.em as number);
});

function env(extra: Record<string, string>): Record<string, string> {
  return { LOKAL_MULTILOKO: location, LOKAL_MODEL: `replay:${predictions}`, ...extra };
}

function readResults(output: string): Results {
  return JSON.parse(readFileSync(path.join(output, 'multiloko.json'), 'utf8')) as Results;
}

/** eval.py's layout: without the run's summary and its own `lokal` section (each item's question, raw output and answer). */
function withoutSummary(results: Results): Results {
  const { summary: _summary, lokal: _lokal, ...rest } = results;
  return rest as Results;
}

const show = (run: ChildRun) => `exit ${run.code}\n${run.stdout.slice(-4000)}\n${run.stderr.slice(-4000)}`;

/** Python's statistics.stdev(values) / sqrt(n): the reference for the standard error. */
/** Standard error of the mean by its textbook two-pass formula: sample SD (n − 1) over √n. */
function standardErrorByHand(values: number[]): number {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((a, x) => a + (x - mean) ** 2, 0) / (values.length - 1);
  return Math.sqrt(variance) / Math.sqrt(values.length);
}

describe('evals runs in child vitest processes', () => {
  test('a replay run reproduces lokal score exactly, rolls up, and passes a gate below its EM', async () => {
    const output = path.join(dir, 'single');
    const average = (localEm[0]! + localEm[1]! + localEm[2]!) / 3;
    const below = Math.floor(average * 100) / 100 - 0.01;
    const json = path.join(dir, 'vitest.json');
    const run = await runVitest(
      ['run', '--project', 'evals', MULTILOKO_EVAL, '--reporter=default', '--reporter=./reporters/lokal-reporter.ts', '--reporter=json', `--outputFile.json=${json}`],
      env({ LOKAL_OUTPUT: output, LOKAL_THRESHOLDS: `em>=${below}` }),
    );
    expect(run.code, show(run)).toBe(0);
    const results = readResults(output);
    singleRun = results;

    // Per item and per language: identical to `lokal score`, missing items included (scored as '' and flagged).
    expect(withoutSummary(results)).toEqual(reference);
    expect(Object.values(results.italian!).filter((r) => (r as { missing?: boolean }).missing).length).toBe(1);

    // The runner's suite aggregates (summary) agree with the per-language means of the official layout.
    const summary = results.summary!;
    for (const s of summary.subsets) {
      for (const metric of ['em', 'f1', 'bleu', 'chrf', 'edit_distance', 'edit_similarity', 'f1_words']) {
        expect(s.means[metric], `${s.key}.${metric}`).toBe(reference[s.key]![metric]);
      }
    }
    // Each subset's error-category counts are the count of its item records' `error` in the same file.
    for (const s of summary.subsets) {
      const counts: Record<string, number> = { correct: 0, empty: 0, verbose: 0, truncated: 0, near: 0, wrong_script: 0, wrong: 0 };
      for (const value of Object.values(results[s.key]!)) if (typeof value === 'object' && value !== null) counts[(value as { error: string }).error]!++;
      expect(s.errors, s.key).toEqual(counts);
    }
    expect(summary.items).toEqual({ selected: 72, scored: 72, missing: 6, failed: 0, skipped: 0, cached: 0 });
    // Replay: no prompt is sent and predictions are scored as given.
    expect(summary.prompt).toMatchObject({ mode: 'none', fewshot: 'none', shots: 0, extraction: false });
    expect(summary.model_description).toMatchObject({ provider: 'replay', model: predictions });
    expect(summary.headline.languages).toBe(3);
    expect(summary.headline.em).toBe(average);
    expect(summary.headline.em_min).toBe(Math.min(...localEm));
    expect(summary.headline.em_gap).toBe(Math.max(...localEm) - Math.min(...localEm));
    expect(summary.headline.em_se).toBeCloseTo(standardErrorByHand(localEm), 14);
    // Mother tongue and locality effects from the same EMs: italian is the only language with translations here.
    const em = (key: string) => reference[key]!.em as number;
    expect(summary.headline.mte.human.per_language).toEqual({ italian: em('italian') - em('italian_translated_human_english') });
    expect(summary.headline.mte.machine.per_language).toEqual({ italian: em('italian') - em('italian_translated_machine_english') });
    expect(summary.headline.le.human.per_language).toEqual({ italian: em('italian') - em('english_translated_human_italian') });
    expect(summary.headline.le.machine).toMatchObject({ languages: 0, average: null, skipped: ['french', 'italian'] });
    expect(summary.headline.mte.human.skipped).toEqual(['french']);
    expect(run.stdout).toContain(`| italian  | ${(100 * em('italian')).toFixed(2)} |`);
    expect(summary.groups.map((g: { id: string; subsets: string[] }) => [g.id, g.subsets])).toEqual([
      ['local', LOCAL],
      ['human-to-english', ['italian_translated_human_english']],
      ['machine-to-english', ['italian_translated_machine_english']],
      ['human-from-english', ['english_translated_human_italian']],
    ]);
    expect(summary.gates).toHaveLength(1);
    expect(summary.gates[0]).toMatchObject({ gate: `em>=${below}`, value: average, pass: true });

    // The printed leaderboard.
    expect(run.stdout).toContain('MultiLoKo · local (headline)');
    expect(run.stdout).toMatch(/italian · local\s+12 \(1∅\)\s+\d\.\d{3}/);
    expect(run.stdout).toMatch(/EM \d\.\d{3} ± \d\.\d{3} \(2 SE over 3 languages\)/);

    // Vitest's json reporter carries each item's meta: the raw answer, its scores and the verdict.
    const report = JSON.parse(readFileSync(json, 'utf8'));
    const items = report.testResults.flatMap((f: any) => f.assertionResults).filter((a: any) => a.meta?.lokalItem);
    expect(items).toHaveLength(72);
    const first = rows[0]!;
    const item = items.find((a: any) => a.meta.lokalItem.subset === first.language && a.meta.lokalItem.id === first.id).meta.lokalItem;
    expect(item.rawPrediction).toBe(first.prediction);
    expect(item.scores.em).toBe((reference[first.language]![String(first.id)] as { em: number }).em);
    expect(item.verdict).toMatch(/^[✓✗∅] EM [01] · F1 /);
  });

  test('a cross-language gate above the achieved EM makes the run exit 1, fails the summary test alone and is named on the last line', async () => {
    const average = (localEm[0]! + localEm[1]! + localEm[2]!) / 3;
    const above = Math.min(1, Math.ceil(average * 100) / 100 + 0.01);
    const run = await runVitest(['run', '--project', 'evals', MULTILOKO_EVAL], env({ LOKAL_OUTPUT: path.join(dir, 'above'), LOKAL_THRESHOLDS: `em>=${above},gap<=1` }));
    expect(run.code, show(run)).toBe(1);
    // 72 items and 6 gate tests pass; the summary test fails on the run-wide gate no gate test judges.
    expect(run.stdout).toMatch(/Tests\s+1 failed \| 78 passed \(79\)/);
    expect(run.stdout).toMatch(/× (?:.*multiloko\.eval\.ts > )?summary/u);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe(`lokal: exit 1: 1 gate missed: MultiLoKo average EM (3 local languages) = ${average.toFixed(4)} (gate em>=${above})`);
    expect(run.stdout).toContain(`✗ average EM (3 local languages) = ${average.toFixed(4)}, must be ≥ ${above.toFixed(4)} (gate em>=${above})`);
    expect(run.stdout).toContain('✓ gap EM (3 local languages) = ');
    expect(readResults(path.join(dir, 'above')).summary!.gates_passed).toBe(false);
  });

  test('selection, strict mode and a missed subset gate fail their tests with figure, value and bound', async () => {
    const run = await runVitest(
      ['run', '--project', 'evals', MULTILOKO_EVAL],
      env({ LOKAL_OUTPUT: path.join(dir, 'strict'), LOKAL_LANGUAGES: 'italian', LOKAL_SUBSETS: 'local', LOKAL_LIMIT: '4', LOKAL_STRICT: '1', LOKAL_THRESHOLDS: 'italian.em>=0.99' }),
    );
    expect(run.code, show(run)).toBe(1);
    const results = readResults(path.join(dir, 'strict'));
    expect(Object.keys(results)).toEqual(['italian', 'group_metrics', 'summary', 'lokal']);
    const italian = spec.find((s) => s.key === 'italian')!;
    const answers = rows.filter((r) => r.language === 'italian').slice(0, 4);
    const wrong = answers.filter((r) => (reference.italian![String(r.id)] as { em: number }).em === 0);
    const em = (4 - wrong.length) / 4;
    expect(results.italian!.em).toBe(em);
    // The summary test passes too: it reports, the gate test judges.
    expect(run.stdout).toMatch(new RegExp(`Tests\\s+${wrong.length + 1} failed \\| ${5 - wrong.length} passed \\(6\\)`));
    // Strict failures show the normalised strings (one line each); the gate failure names the figure, its value and the bound.
    expect(run.stdout + run.stderr).toContain(`strict mode: expected answer to exact-match a target (EM 0) · answer:  ${JSON.stringify(wrong[0]!.prediction)} → normalised`);
    expect(run.stdout + run.stderr).toContain(`italian · local EM = ${em.toFixed(4)}, must be ≥ 0.9900 (gate italian.em>=0.99)`);
    expect(italian.items.slice(0, 4).map((i) => String(i.id))).toEqual(Object.keys(results.italian!).slice(0, 4));
  });

  test('--shard=1/2 and 2/2 with blob reports, merged, give the same roll-up as one run', async () => {
    // Two eval files (sharding splits files) in a folder of their own, read through the repo's config.
    const evals = path.join(dir, 'sharded', 'evals');
    mkdirSync(evals, { recursive: true });
    const header = "import { multiloko } from 'vitest-lokal/benchmarks';\nimport { benchmarkSuite } from 'vitest-lokal/vitest';\n";
    writeFileSync(path.join(evals, 'a.eval.ts'), `${header}await benchmarkSuite(multiloko, { multiloko: { languages: ['english', 'french'] } });\n`);
    writeFileSync(path.join(evals, 'b.eval.ts'), `${header}await benchmarkSuite(multiloko, { multiloko: { languages: ['italian'] } });\n`);
    const config = path.join(dir, 'sharded', 'vitest.config.mjs');
    writeFileSync(
      config,
      `import base from ${JSON.stringify(path.join(REPO_ROOT, 'vitest.config.ts'))};\n` +
        `base.test.projects.find((p) => p.test.name === 'evals').test.dir = ${JSON.stringify(path.dirname(evals))};\n` +
        'export default base;\n',
    );
    const blobs = path.join(dir, 'blobs');
    const average = (localEm[0]! + localEm[1]! + localEm[2]!) / 3;
    const gates = { LOKAL_THRESHOLDS: `em>=${Math.floor(average * 100) / 100 - 0.01}` };
    for (const shard of ['1/2', '2/2']) {
      const run = await runVitest(
        ['run', '--project', 'evals', '--config', config, `--shard=${shard}`, '--reporter=blob', `--outputFile=${path.join(blobs, `blob-${shard.replace('/', '-')}.json`)}`],
        env({ LOKAL_OUTPUT: path.join(dir, 'unused'), ...gates }),
      );
      expect(run.code, show(run)).toBe(0);
    }
    // No LOKAL_THRESHOLDS here: the merge judges by the gates the shards recorded in their meta.
    const merged = await runVitest(['run', '--project', 'evals', '--config', config, `--merge-reports=${blobs}`], env({ LOKAL_OUTPUT: path.join(dir, 'merged') }));
    expect(merged.code, show(merged)).toBe(0);
    expect(merged.stdout).not.toContain('carry no aggregates');
    expect(readResults(path.join(dir, 'merged'))).toEqual(singleRun);
  });
});
