// Both benchmarks end to end with LOKAL_MODEL=llama:<dir>/model.gguf: child `vitest run --project evals` processes on
// the real data with a generated tiny model, checked against the same runs with transformers:<dir> (the ONNX model of
// the same folder): the same answers, Kalahi MC log-probabilities within 1e-4, and the response cache serving a rerun.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { KalahiPromptRecord } from '../../src/benchmarks/kalahi/records.ts';
import { writeTinyEncoder } from '../support/tinyEncoder.ts';
import { writeTinyModel } from '../support/tinyModel.ts';
import { writeTinyModelGguf } from '../support/tinyModelGguf.ts';
import { MULTILOKO_EVAL, REPO_ROOT, runVitest, type ChildRun } from './helpers.ts';

const ARCHIVE = path.resolve(REPO_ROOT, '../shared/data/multiloko/benchmark_data.tar.xz.enc');
const KALAHI = path.resolve(REPO_ROOT, '../shared/data/kalahi');
const hasMultiloko = existsSync(ARCHIVE);
const hasKalahi = existsSync(path.join(KALAHI, 'filipino.csv'));

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-llama-e2e-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const model = path.join(dir, 'tiny');
const gguf = path.join(model, 'model.gguf');

beforeAll(() => {
  const info = writeTinyModel(model, { layers: 1, hidden: 32, vocab: 320, seed: 3 });
  writeTinyModelGguf(model, info.spec);
});

const show = (run: ChildRun) => `exit ${run.code}\n${run.stdout.slice(-4000)}\n${run.stderr.slice(-4000)}`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

async function multilokoRun(name: string, spec: string, prompt: string): Promise<Json> {
  const output = path.join(dir, name);
  const run = await runVitest(['run', '--project', 'evals', MULTILOKO_EVAL], {
    LOKAL_MULTILOKO: ARCHIVE,
    LOKAL_LIMIT: '4',
    LOKAL_OUTPUT: output,
    LOKAL_PROMPT: prompt,
    LOKAL_MODEL: spec,
    LOKAL_CACHE_FILE: path.join(dir, 'cache.jsonl'),
  });
  expect(run.code, show(run)).toBe(0);
  return { ...JSON.parse(readFileSync(path.join(output, 'multiloko.json'), 'utf8')), stdout: run.stdout };
}

const predictions = (results: Json) =>
  Object.entries(results.italian as Json)
    .filter(([, v]) => typeof v === 'object' && v !== null && 'prediction' in v)
    .map(([id, v]) => [id, v.prediction, v.em]);

describe.skipIf(!hasMultiloko)('MultiLoKo with llama:<model.gguf>', () => {
  test('base and chat prompts: the answers of transformers: on the same folder; a rerun comes from the cache', async () => {
    for (const prompt of ['base', 'chat']) {
      const llama = await multilokoRun(`llama-${prompt}`, `llama:${gguf}`, prompt);
      const onnx = await multilokoRun(`onnx-${prompt}`, `transformers:${model}`, prompt);
      expect(llama.summary.model_description).toMatchObject({ provider: 'llama', model: gguf, settings: { decoding: 'greedy' } });
      expect(llama.summary.prompt).toMatchObject({ mode: prompt });
      expect(llama.summary.calls).toMatchObject({ cached: 0, model_calls: 4 });
      expect(predictions(llama).length).toBe(4);
      expect(predictions(llama)).toEqual(predictions(onnx));
      expect(llama.stdout).toContain(`llama:${gguf}`);
    }
    const again = await multilokoRun('llama-base-again', `llama:${gguf}`, 'base');
    expect(again.summary.calls).toMatchObject({ cached: 4, model_calls: 0 });
  }, 600_000);
});

describe.skipIf(!hasKalahi)('Kalahi with llama:<model.gguf>', () => {
  test('MC log-probabilities within 1e-4 and generated replies equal to transformers: on the same folder', async () => {
    const bert = path.join(dir, 'bert');
    const bleurt = path.join(dir, 'bleurt');
    writeTinyEncoder(bert, { kind: 'bert', seed: 2 });
    writeTinyEncoder(bleurt, { kind: 'regression', seed: 5 });
    const kalahiRun = async (name: string, spec: string) => {
      const output = path.join(dir, name);
      const run = await runVitest(['run', '--project', 'evals', 'evals/kalahi.eval.ts'], {
        LOKAL_MODEL: spec,
        LOKAL_KALAHI: KALAHI,
        LOKAL_KALAHI_VARIANT: 'full',
        LOKAL_CACHE: 'off',
        LOKAL_LIMIT: '2',
        LOKAL_OUTPUT: output,
        LOKAL_BERTSCORE_MODEL: bert,
        LOKAL_BLEURT_MODEL: bleurt,
      });
      expect(run.code, show(run)).toBe(0);
      const results = JSON.parse(readFileSync(path.join(output, 'kalahi.json'), 'utf8')) as Json;
      return { records: results.variants.full.records as KalahiPromptRecord[], stdout: run.stdout };
    };
    const llama = await kalahiRun('kalahi-llama', `llama:${gguf}`);
    const onnx = await kalahiRun('kalahi-onnx', `transformers:${model}`);
    expect(llama.stdout).toMatch(/Kalahi · full · 2 of 150 prompts · llama:/);
    expect(llama.records.length).toBe(2);
    llama.records.forEach((record, i) => {
      const other = onnx.records[i]!;
      expect(record.promptVariationId).toBe(other.promptVariationId);
      const refs = record.mc!.references;
      expect(refs.length).toBe(other.mc!.references.length);
      refs.forEach((r, j) => {
        expect(Math.abs(r.logprob - other.mc!.references[j]!.logprob), `${record.itemKey} ${r.kind} ${r.index}`).toBeLessThan(1e-4);
        expect(r.tokens).toBe(other.mc!.references[j]!.tokens);
      });
      expect(record.mc!.preferred!.index).toBe(other.mc!.preferred!.index);
      expect(record.generation!.response).toBe(other.generation!.response);
    });
  }, 600_000);
});
