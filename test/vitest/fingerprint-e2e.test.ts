// The fingerprint end to end: child `vitest run --project evals` processes on the real Italian dev data with a tiny
// generated transformers.js model. A baseline made with LOKAL_PROMPT=base fails a run with chat prompts, naming the
// field; a run with the same settings passes against it.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHash } from 'node:crypto';
import { writeTinyModel } from '../support/tinyModel.ts';
import { MULTILOKO_EVAL, REPO_ROOT, runVitest, type ChildRun } from './helpers.ts';

const ARCHIVE = path.resolve(REPO_ROOT, '../shared/data/multiloko/benchmark_data.tar.xz.enc');
const hasData = existsSync(ARCHIVE);
const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-fingerprint-e2e-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const show = (run: ChildRun) => `exit ${run.code}\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`;
const model = path.join(dir, 'tiny-model');

function evalsRun(name: string, env: Record<string, string>): Promise<ChildRun> {
  return runVitest(['run', '--project', 'evals', MULTILOKO_EVAL, '--reporter=default', '--reporter=./reporters/lokal-reporter.ts'], {
    LOKAL_MULTILOKO: ARCHIVE, LOKAL_LIMIT: '3', LOKAL_LANGUAGES: 'italian', LOKAL_SUBSETS: 'local', LOKAL_OUTPUT: path.join(dir, name), LOKAL_REPORT: 'off',
    LOKAL_CACHE_FILE: path.join(dir, 'cache.jsonl'), LOKAL_MODEL: `transformers:${model}`, ...env,
  });
}

describe.skipIf(!hasData)('fingerprint against a baseline, real Italian data and a generated model', () => {
  beforeAll(() => writeTinyModel(model, { layers: 1, hidden: 32, vocab: 320, seed: 3 }));

  test('base baseline: chat prompts fail naming the field; the same settings pass; the fingerprint names the model file', async () => {
    const base = await evalsRun('base', { LOKAL_PROMPT: 'base' });
    expect(base.code, show(base)).toBe(0);
    const baseline = path.join(dir, 'base', 'multiloko.json');
    const fingerprint = JSON.parse(readFileSync(baseline, 'utf8')).summary.fingerprint;
    expect(fingerprint).toMatchObject({ prompt: 'base', shots: 5, extraction: true, decoding: { max_new_tokens: 64, temperature: 0 } });
    const onnx = readdirOnnx();
    expect(fingerprint.model).toMatchObject({ provider: 'transformers', sha256: createHash('sha256').update(readFileSync(onnx)).digest('hex') });

    const chat = await evalsRun('chat', { LOKAL_PROMPT: 'chat', LOKAL_BASELINE: baseline });
    expect(chat.code, show(chat)).toBe(1);
    expect(chat.stdout + chat.stderr).toMatch(/✗ not comparable: prompt base→chat; shots 5→0; fewshot official→none; decoding.stops question token, blank line→none /u);

    const same = await evalsRun('same', { LOKAL_PROMPT: 'base', LOKAL_BASELINE: baseline });
    expect(same.code, show(same)).toBe(0);
    expect(same.stdout + same.stderr).not.toContain('not comparable');
  }, 300_000);
});

function readdirOnnx(): string {
  const dtypeFiles = ['model.onnx', 'model_quantized.onnx'];
  const found = dtypeFiles.map((f) => path.join(model, 'onnx', f)).find((f) => existsSync(f));
  if (!found) throw new Error(`no ONNX weights in ${model}/onnx`);
  return found;
}
