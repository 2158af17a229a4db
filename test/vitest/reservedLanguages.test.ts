// A MultiLoKo language folder named like a results file's own key (`summary`, `group_metrics`, `lokal`) or a member
// every JavaScript object has (`__proto__`, `constructor`) is one data error at collection naming the folder: a run
// once let `summary` overwrite the run's summary silently and crashed on `constructor` ("could not be cloned").
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { MULTILOKO_EVAL, REPO_ROOT, runVitest } from './helpers.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'lokal-reserved-languages-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const config = ['--config', path.join(REPO_ROOT, 'vitest.config.ts'), '--root', REPO_ROOT, '--project', 'evals', MULTILOKO_EVAL];
const italian = path.join(REPO_ROOT, 'data/fixtures/multiloko/italian/dev.jsonl');

/** A dataset of the fixture's Italian questions under `italian/` and `language/`, with a predictions file for both. */
function dataset(language: string): { data: string; predictions: string } {
  const data = path.join(dir, language, 'data');
  for (const folder of ['italian', language]) {
    mkdirSync(path.join(data, folder), { recursive: true });
    copyFileSync(italian, path.join(data, folder, 'dev.jsonl'));
  }
  const predictions = path.join(dir, language, 'p.jsonl');
  writeFileSync(predictions, ['italian', language].map((l) => `${JSON.stringify({ language: l, id: '001_colosseo.txt', prediction: 'Roma' })}\n`).join(''));
  return { data, predictions };
}

describe('a MultiLoKo language named like a key the results file or every object has', () => {
  for (const language of ['summary', 'constructor']) {
    test(`${language}: the run fails with one data error naming the folder, nothing unhandled`, async () => {
      const { data, predictions } = dataset(language);
      const run = await runVitest(['run', ...config], { LOKAL_MODEL: `replay:${predictions}`, LOKAL_MULTILOKO: data, LOKAL_SUBSETS: 'local', LOKAL_OUTPUT: path.join(dir, language, 'out') });
      const output = run.stdout + run.stderr;
      expect(run.code).toBe(1);
      expect(output.split(`DataError: ${path.join(data, language)}: gives the language key "${language}", which cannot be one: `)).toHaveLength(2);
      expect(output).not.toMatch(/Unhandled|could not be cloned/u);
    }, 60_000);
  }
});
