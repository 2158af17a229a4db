// A newcomer's first mistakes, each in a child `vitest run` of the evals project: a bad settings value or settings
// file is one line and exit 1 (not Vitest's "Unhandled Error" with a stack through the reporter), and a run with no
// model configured whose default model is not there names every way forward.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { MULTILOKO_EVAL, datasetSpec, runVitest, writeDataset, type ChildRun } from './helpers.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-first-mistakes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const dataset = writeDataset(dir, datasetSpec(4));

function evals(name: string, env: Record<string, string>): Promise<ChildRun> {
  return runVitest(['run', '--project', 'evals', MULTILOKO_EVAL], { LOKAL_MULTILOKO: dataset, LOKAL_OUTPUT: path.join(dir, name), LOKAL_CACHE: 'off', ...env });
}

const shown = (run: ChildRun) => `exit ${run.code}\n--- stdout\n${run.stdout.slice(-3000)}\n--- stderr\n${run.stderr.slice(-3000)}`;

/** The run stopped with exactly one line on stderr (which is returned), exit 1, no stack and no test. */
function oneLineFailure(run: ChildRun): string {
  expect(run.code, shown(run)).toBe(1);
  const output = `${run.stdout}\n${run.stderr}`;
  expect(output, shown(run)).not.toContain('Unhandled Error');
  expect(output, shown(run)).not.toMatch(/❯ .*:\d+:\d+|^\s+at /mu);
  expect(output, shown(run)).not.toMatch(/Test Files/u);
  // Rolldown's build-timing notice (printed when bundling the config is slow on a busy machine) is Vite's, not ours.
  const ours = run.stderr.replace(/\[PLUGIN_TIMINGS\][\s\S]*?Learn more at \S+\n?/gu, '');
  const lines = ours.split('\n').filter((line) => line.trim() !== '');
  expect(lines, shown(run)).toHaveLength(1);
  return lines[0]!;
}

describe('a bad setting stops the run with one line and exit 1', { timeout: 180_000 }, () => {
  test('a variable that does not parse', async () => {
    const line = oneLineFailure(await evals('bad-limit', { LOKAL_LIMIT: 'abc' }));
    expect(line).toBe('lokal: LOKAL_LIMIT: Invalid input: expected number, received string (got "abc")');
  });

  test('a settings file that is not JSON, and one that does not exist', async () => {
    const file = path.join(dir, 'broken.config.json');
    writeFileSync(file, '{ "limit": 3,, }\n');
    const line = oneLineFailure(await evals('bad-file', { LOKAL_CONFIG: file }));
    expect(line.startsWith(`lokal: ${file}: malformed JSON: `), line).toBe(true);
    const missing = path.join(dir, 'nowhere.json');
    expect(oneLineFailure(await evals('no-file', { LOKAL_CONFIG: missing }))).toBe(`lokal: LOKAL_CONFIG: ${missing} does not exist`);
  });

  test('a gate that does not parse', async () => {
    const line = oneLineFailure(await evals('bad-gate', { LOKAL_THRESHOLDS: 'em>=0.3, em>>x' }));
    expect(line).toBe('lokal: LOKAL_THRESHOLDS clause "em>>x": expected [<benchmark>.][<scope>.]<figure><op><number>, e.g. em>=0.30, italian.em>=0.35, kalahi.mc1>=0.40');
  });

  test('a gate on an unknown error category', async () => {
    const line = oneLineFailure(await evals('bad-category', { LOKAL_THRESHOLDS: 'em>=0.3, italian.error.typo<=0.1' }));
    expect(line).toBe('lokal: LOKAL_THRESHOLDS clause "italian.error.typo<=0.1": unknown error category "typo"; categories: correct, empty, verbose, truncated, near, wrong_script, wrong');
  });

  test('an unknown key in the settings file', async () => {
    const file = path.join(dir, 'typo.config.json');
    writeFileSync(file, '{ "limt": 3 }\n');
    const line = oneLineFailure(await evals('typo', { LOKAL_CONFIG: file }));
    expect(line).toMatch(new RegExp(`^lokal: ${file.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')} field "limt": unknown setting; did you mean "limit"\\?`, 'u'));
  });
});

test('no model configured and the default model not available: the one line names every way forward', { timeout: 180_000 }, async () => {
  const emptyCache = path.join(dir, 'empty-model-cache');
  mkdirSync(emptyCache);
  const run = await evals('no-model', { LOKAL_OFFLINE: '1', LOKAL_MODEL_CACHE: emptyCache });
  expect(run.code, shown(run)).toBe(1);
  const lines = `${run.stdout}\n${run.stderr}`.split('\n').filter((line) => line.includes('ModelUnusableError'));
  expect(lines, shown(run)).toHaveLength(1);
  const line = lines[0]!;
  expect(line).toContain('LOKAL_MODEL is not set and the default model transformers:onnx-community/Qwen2.5-0.5B-Instruct cannot be used');
  for (const way of ['replay:<predictions .jsonl|.csv>', 'openai:<model> with OPENAI_BASE_URL=', 'transformers:<folder>', 'npm run make:tiny-model', 'LOKAL_MODEL_DIR']) {
    expect(line, way).toContain(way);
  }
});
