// End to end: MultiLoKo split into part files (benchmarkSuite(multiloko, { part: [i, n] })) gives the unsharded run's
// answers, results file and gate verdicts item for item — the part files in one `vitest run`, and the part files spread
// over `--shard=i/n --reporter=blob` runs merged by `--merge-reports` — on a generated dataset and replay file.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadMultiLoKo } from '../../src/benchmarks/multiloko/data/multiloko.ts';
import { readPredictions } from '../../src/models/predictions.ts';
import { scoreMultiLoKoPredictions } from '../../src/benchmarks/multiloko/metrics/score.ts';
import { MULTILOKO_EVAL, REPO_ROOT, datasetSpec, predictionsFor, runVitest, writeDataset, writeJsonl, type ChildRun } from './helpers.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-parts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const spec = datasetSpec(12);
const location = writeDataset(dir, spec);
const predictions = path.join(dir, 'predictions.jsonl');
writeJsonl(predictions, predictionsFor(spec, { dropLast: true }));
const PARTS = 4;

type Results = Record<string, Record<string, unknown>> & { summary?: Record<string, any> };
const show = (run: ChildRun) => `exit ${run.code}\n${run.stdout.slice(-4000)}\n${run.stderr.slice(-4000)}`;
const readResults = (output: string) => JSON.parse(readFileSync(path.join(output, 'multiloko.json'), 'utf8')) as Results;
/** The reporter's lines from the roll-up on (tables, gates, files, last line), its output folder named alike, without Vitest's counts. */
const rollUp = (run: ChildRun, output: string) =>
  run.stdout
    .slice(run.stdout.indexOf('MultiLoKo'))
    .split('\n')
    .filter((l) => !/Duration|Start at|Tests |Test Files /u.test(l))
    .join('\n')
    .replaceAll(`${path.basename(output)}/`, '<output>/');

let gates: string;
let whole: { run: ChildRun; results: Results; output: string };
let config: string;

beforeAll(async () => {
  // Gates the whole run passes and misses: a subset's EM at exactly its value (a part may fall below it), the average
  // a point below, and a run-wide gap of 0 (missed: the languages differ).
  const scored = scoreMultiLoKoPredictions(await loadMultiLoKo(location, 'dev'), await readPredictions(predictions));
  const em = (key: string) => (scored.results as unknown as Record<string, { em: number }>)[key]!.em;
  const average = (em('english') + em('french') + em('italian')) / 3;
  gates = `italian.em>=${em('italian')},em>=${Math.floor(average * 100) / 100 - 0.01},gap<=0`;
  // The part files, in a folder of their own read through the repo's config.
  const evals = path.join(dir, 'parted', 'evals');
  mkdirSync(evals, { recursive: true });
  for (let i = 1; i <= PARTS; i++) {
    const file = `multiloko.part-${String(i).padStart(2, '0')}-of-${String(PARTS).padStart(2, '0')}.eval.ts`;
    writeFileSync(path.join(evals, file), `import { multiloko } from 'vitest-lokal/benchmarks';\nimport { benchmarkSuite } from 'vitest-lokal/vitest';\nawait benchmarkSuite(multiloko, { part: [${i}, ${PARTS}] });\n`);
  }
  config = path.join(dir, 'parted', 'vitest.config.mjs');
  writeFileSync(
    config,
    `import base from ${JSON.stringify(path.join(REPO_ROOT, 'vitest.config.ts'))};\n` +
      `base.test.projects.find((p) => p.test.name === 'evals').test.dir = ${JSON.stringify(path.dirname(evals))};\n` +
      'export default base;\n',
  );
  const output = path.join(dir, 'whole');
  const run = await runVitest(['run', '--project', 'evals', MULTILOKO_EVAL], env({ LOKAL_OUTPUT: output, LOKAL_THRESHOLDS: gates }));
  whole = { run, results: readResults(output), output };
});

function env(extra: Record<string, string>): Record<string, string> {
  return { LOKAL_MULTILOKO: location, LOKAL_MODEL: `replay:${predictions}`, ...extra };
}

describe('MultiLoKo in parts', () => {
  test('the unsharded run: 72 items, the gap gate missed (exit 1), the subset and average gates met', () => {
    expect(whole.run.code, show(whole.run)).toBe(1);
    expect(whole.results.summary!.items.selected).toBe(72);
    const verdicts = Object.fromEntries(whole.results.summary!.gates.map((g: { gate: string; pass: boolean }) => [g.gate.split('>=')[0]!.split('<=')[0], g.pass]));
    expect(verdicts).toEqual({ 'italian.em': true, em: true, gap: false });
  });

  test(`${PARTS} part files in one run: the same results file and roll-up; no part file fails on a gate of its part`, async () => {
    const output = path.join(dir, 'one-run');
    const run = await runVitest(['run', '--project', 'evals', '--config', config], env({ LOKAL_OUTPUT: output, LOKAL_THRESHOLDS: gates }));
    expect(run.code, show(run)).toBe(1);
    expect(readResults(output)).toEqual(whole.results);
    expect(rollUp(run, output)).toBe(rollUp(whole.run, whole.output));
    // The gates are the roll-up's: no test failed (the unsharded run's summary test fails on the gap).
    expect(run.stdout).not.toMatch(/Tests\s+\d+ failed/u);
    expect(whole.run.stdout).toMatch(/Tests\s+1 failed/u);
    expect(run.stdout).toMatch(new RegExp(`Test Files\\s+${PARTS} passed`, 'u'));
  });

  test(`the ${PARTS} part files over --shard=i/${PARTS} blob runs, merged: the same results file and roll-up`, { timeout: 180_000 }, async () => {
    const blobs = path.join(dir, 'blobs');
    for (let i = 1; i <= PARTS; i++) {
      const run = await runVitest(
        ['run', '--project', 'evals', '--config', config, `--shard=${i}/${PARTS}`, '--reporter=blob', `--outputFile=${path.join(blobs, `blob-${i}-${PARTS}.json`)}`],
        env({ LOKAL_OUTPUT: path.join(dir, 'unused'), LOKAL_THRESHOLDS: gates }),
      );
      // Vitest gives each shard one of the n files (files / shards = 1): every shard carries a part and passes.
      expect(run.code, show(run)).toBe(0);
      expect(run.stdout + run.stderr).not.toContain('No test files found');
    }
    const output = path.join(dir, 'merged');
    const merged = await runVitest(['run', '--project', 'evals', '--config', config, `--merge-reports=${blobs}`], env({ LOKAL_OUTPUT: output }));
    expect(merged.code, show(merged)).toBe(1);
    expect(merged.stdout).not.toContain('carry no aggregates');
    expect(readResults(output)).toEqual(whole.results);
    expect(rollUp(merged, output)).toBe(rollUp(whole.run, whole.output));
  });

  test('a part spec that is not i/n fails its file with one line naming it', async () => {
    const evals = path.join(dir, 'bad', 'evals');
    mkdirSync(evals, { recursive: true });
    writeFileSync(path.join(evals, 'bad.eval.ts'), "import { multiloko } from 'vitest-lokal/benchmarks';\nimport { benchmarkSuite } from 'vitest-lokal/vitest';\nawait benchmarkSuite(multiloko, { part: '5/4' });\n");
    const badConfig = path.join(dir, 'bad', 'vitest.config.mjs');
    writeFileSync(badConfig, readFileSync(config, 'utf8').replace(JSON.stringify(path.join(dir, 'parted')), JSON.stringify(path.join(dir, 'bad'))));
    const run = await runVitest(['run', '--project', 'evals', '--config', badConfig], env({ LOKAL_OUTPUT: path.join(dir, 'bad-out') }));
    expect(run.code, show(run)).toBe(1);
    expect(run.stdout + run.stderr).toContain('PartSpecError: multiloko: part "5/4" is not i/n with 1 ≤ i ≤ n (e.g. [2, 4] or "2/4")');
  });
});
