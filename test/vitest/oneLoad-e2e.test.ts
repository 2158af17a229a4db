// One load per run: a child `vitest run --project evals` of both eval files (MultiLoKo and Kalahi)
// with one local model loads it once: one `lokal: loaded` line, one onnxruntime session counted in the child processes, and both files pass.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { writeTinyModel } from '../support/tinyModel.ts';
import { REPO_ROOT, runVitest } from './helpers.ts';
import { titleUnless } from '../support/sharedData.ts';

// MultiLoKo from the repository's fixture; Kalahi's CSVs are only in the published data beside it.
const MULTILOKO = path.join(REPO_ROOT, 'data/fixtures/multiloko');
const KALAHI = path.resolve(REPO_ROOT, '../shared/data/kalahi');
const haveData = existsSync(path.join(KALAHI, 'filipino.csv'));

const dir = mkdtempSync(path.join(tmpdir(), 'lokal-one-load-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!haveData)(titleUnless('both eval files with transformers:<tiny model>', path.join(KALAHI, 'filipino.csv')), () => {
  test('the model is loaded once for the run, and each file writes its results', async () => {
    const model = path.join(dir, 'tiny');
    writeTinyModel(model, { layers: 1, hidden: 32, vocab: 320, seed: 3 });
    const output = path.join(dir, 'out');
    const sessions = path.join(dir, 'sessions.log');
    const run = await runVitest(['run', '--project', 'evals', 'evals/multiloko.eval.ts', 'evals/kalahi.eval.ts'], {
      NODE_OPTIONS: `--import ${pathToFileURL(path.join(REPO_ROOT, 'test/support/countSessions.mjs')).href}`,
      ORT_SESSION_COUNT_LOG: sessions,
      LOKAL_MODEL: `transformers:${model}`,
      LOKAL_MULTILOKO: MULTILOKO,
      LOKAL_KALAHI: KALAHI,
      LOKAL_LIMIT: '2',
      LOKAL_CACHE: 'off',
      LOKAL_OUTPUT: output,
      LOKAL_BLEURT_MODEL: 'off',
      LOKAL_BERTSCORE_MODEL: 'off',
    });
    const text = run.stdout + run.stderr;
    expect(run.code, text.slice(-4000)).toBe(0);
    expect(text).toMatch(/Test Files\s+2 passed/);
    const loads = text.split('\n').filter((line) => line.includes(`lokal: loaded transformers:${model}`));
    expect(loads, text.slice(-4000)).toHaveLength(1);
    // Second method, not the run's log: every onnxruntime session created in any process of the run
    // (test/support/countSessions.mjs); one load is one session on the model's file.
    const created = readFileSync(sessions, 'utf8').trim().split('\n').map((line) => line.slice(line.indexOf(' ') + 1));
    expect(created).toEqual([path.join(model, 'onnx', 'model.onnx')]);
    expect(Object.keys(JSON.parse(readFileSync(path.join(output, 'multiloko.json'), 'utf8')))).toContain('italian');
    expect(JSON.parse(readFileSync(path.join(output, 'kalahi.json'), 'utf8')).benchmark).toBe('kalahi');
  }, 300_000);
});
