// The fingerprint end to end: child `vitest run --project evals` processes on the real Italian dev data with a tiny
// generated transformers.js model. A baseline made with LOKAL_PROMPT=base fails a run with chat prompts, naming the
// field; a run with the same settings passes against it. A q8 model's baseline made in the exact mode (each item what
// it gets one prompt at a time) refuses a run of the same model batched (LOKAL_NUMERICS=batched) unless
// LOKAL_BASELINE_ALLOW accepts it.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHash } from 'node:crypto';
import { writeQuantisedModel } from '../support/quantiseOnnx.ts';
import { writeTinyModel } from '../support/tinyModel.ts';
import { MULTILOKO_EVAL, REPO_ROOT, runVitest, type ChildRun } from './helpers.ts';
import { titleUnless } from '../support/sharedData.ts';

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

describe.skipIf(!hasData)(titleUnless('fingerprint against a baseline, real Italian data and a generated model', ARCHIVE), () => {
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

describe.skipIf(!hasData)(titleUnless('numerics against a baseline, real Italian data and a generated q8 model', ARCHIVE), () => {
  const q8 = path.join(dir, 'tiny-q8');
  beforeAll(() => {
    writeTinyModel(q8, { layers: 1, hidden: 32, vocab: 320, seed: 4 });
    writeQuantisedModel(q8, 'q8');
  });

  test('a baseline made in the exact mode refuses a batched run in one line; model.numerics accepts it', async () => {
    const env = { LOKAL_MODEL: `transformers:${q8}`, LOKAL_DTYPE: 'q8', LOKAL_PROMPT: 'base', LOKAL_MODEL_CACHE: path.join(dir, 'model-cache') };
    const exact = await evalsRun('q8-exact', env);
    expect(exact.code, show(exact)).toBe(0);
    expect(exact.stdout + exact.stderr).toContain('(q8) gives each item what transformers.js gives it one prompt at a time (exact numerics)');
    const baseline = path.join(dir, 'q8-exact', 'multiloko.json');
    expect(JSON.parse(readFileSync(baseline, 'utf8')).summary.fingerprint.model).toMatchObject({ dtype: 'q8', numerics: 'exact' });

    const batched = await evalsRun('q8-batched', { ...env, LOKAL_NUMERICS: 'batched', LOKAL_BASELINE: baseline });
    expect(batched.code, show(batched)).toBe(1);
    expect(batched.stdout + batched.stderr).toContain('✗ not comparable: model.numerics exact→batched (baseline→this run; LOKAL_BASELINE_ALLOW=model.numerics accepts it)');

    const allowed = await evalsRun('q8-allowed', { ...env, LOKAL_NUMERICS: 'batched', LOKAL_BASELINE: baseline, LOKAL_BASELINE_ALLOW: 'model.numerics' });
    expect(allowed.stdout + allowed.stderr).not.toContain('not comparable');
    expect(allowed.stdout + allowed.stderr).toContain('model.numerics exact→batched');
  }, 300_000);
});

function readdirOnnx(): string {
  const dtypeFiles = ['model.onnx', 'model_quantized.onnx'];
  const found = dtypeFiles.map((f) => path.join(model, 'onnx', f)).find((f) => existsSync(f));
  if (!found) throw new Error(`no ONNX weights in ${model}/onnx`);
  return found;
}
