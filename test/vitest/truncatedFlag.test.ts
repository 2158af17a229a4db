// A prediction cut for chrF (longer than CHRF_MAX_HYPOTHESIS_CODE_POINTS) is flagged `"truncated": true` in the Vitest
// run's multiloko.json as in `lokal score` output: a child replay run and `lokal score` on the same predictions give
// the item the same record, flag included, and an ordinary item has no flag in either.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { CHRF_MAX_HYPOTHESIS_CODE_POINTS } from '../../src/metrics/chrfScore.ts';
import { MULTILOKO_EVAL, REPO_ROOT, runVitest } from './helpers.ts';
import { lokalBin } from '../support/installedPackage.ts';

// The built package's bin, as users run it (test/support/installedPackage.ts).
const LOKAL_BIN = await lokalBin();

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-truncated-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('the Vitest results file carries "truncated": true where lokal score does', { timeout: 240_000 }, async () => {
  const data = path.join(REPO_ROOT, 'data/fixtures/multiloko');
  const runaway = `Roma ${'x'.repeat(CHRF_MAX_HYPOTHESIS_CODE_POINTS)}`;
  const predictions = path.join(dir, 'predictions.jsonl');
  const rows = [
    { language: 'italian', id: '001_colosseo.txt', prediction: runaway },
    { language: 'italian', id: '002_po.txt', prediction: 'il Po' },
  ];
  writeFileSync(predictions, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const output = path.join(dir, 'out');
  mkdirSync(output);
  const run = await runVitest(['run', '--project', 'evals', MULTILOKO_EVAL], { LOKAL_MULTILOKO: data, LOKAL_LANGUAGES: 'italian', LOKAL_SUBSETS: 'local', LOKAL_MODEL: `replay:${predictions}`, LOKAL_OUTPUT: output });
  const vitest = JSON.parse(readFileSync(path.join(output, 'multiloko.json'), 'utf8'));
  expect(vitest.italian, `${run.stdout}\n${run.stderr}`).toBeDefined();
  const scored = spawnSync(process.execPath, [LOKAL_BIN, 'score', '-d', data, '-s', 'dev', '-p', predictions], { cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  const score = JSON.parse(scored.stdout);
  const long = vitest.italian['001_colosseo.txt'];
  expect(long.truncated).toBe(true);
  expect(score.italian['001_colosseo.txt'].truncated).toBe(true);
  // The same scores and flag in both files (the Vitest record adds nothing else for a replay answer).
  const keys = ['em', 'f1', 'chrf', 'truncated'];
  const pick = (r: Record<string, unknown>) => Object.fromEntries(keys.map((k) => [k, r[k]]));
  expect(pick(long)).toEqual(pick(score.italian['001_colosseo.txt']));
  expect(vitest.italian['002_po.txt']).not.toHaveProperty('truncated');
  expect(score.italian['002_po.txt']).not.toHaveProperty('truncated');
});
