// Both benchmarks end to end with LOKAL_MODEL=llama:<dir>/model.gguf: child `vitest run --project evals` processes on
// the real data with a generated tiny model, checked against transformers:<dir> (the ONNX model of the same folder)
// listed after it in the same run (each model's results equal its run alone: test/vitest/multiModelProviders.test.ts):
// the same answers, Kalahi MC log-probabilities within 1e-4, and the response cache serving a rerun.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { KalahiPromptRecord } from '../../src/benchmarks/kalahi/run/records.ts';
import { writeTinyEncoder } from '../support/tinyEncoder.ts';
import { writeTinyModel } from '../support/tinyModel.ts';
import { writeTinyModelGguf } from '../support/tinyModelGguf.ts';
import { modelSlugs } from '../../src/core/modelList.ts';
import { MULTILOKO_EVAL, REPO_ROOT, runVitest, type ChildRun } from './helpers.ts';
import { titleUnless } from '../support/sharedData.ts';

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

/** One run of the listed models (comma-separated); each model's multiloko.json, in the order listed, and the run's stdout. */
async function multilokoRun(name: string, specs: readonly string[], prompt: string): Promise<{ results: Json[]; stdout: string }> {
  const output = path.join(dir, name);
  const run = await runVitest(['run', '--project', 'evals', MULTILOKO_EVAL], {
    LOKAL_MULTILOKO: ARCHIVE,
    LOKAL_LIMIT: '4',
    LOKAL_OUTPUT: output,
    LOKAL_PROMPT: prompt,
    LOKAL_MODEL: specs.join(','),
    LOKAL_CACHE_FILE: path.join(dir, 'cache.jsonl'),
  });
  expect(run.code, show(run)).toBe(0);
  // A single model keeps the usual file; several get a folder each (docs/results.md, "Several models in one run").
  const files = specs.length === 1 ? [path.join(output, 'multiloko.json')] : modelSlugs(specs).map((slug) => path.join(output, slug, 'multiloko.json'));
  return { results: files.map((file) => JSON.parse(readFileSync(file, 'utf8')) as Json), stdout: run.stdout };
}

const predictions = (results: Json) =>
  Object.entries(results.italian as Json)
    .filter(([, v]) => typeof v === 'object' && v !== null && 'prediction' in v)
    .map(([id, v]) => [id, v.prediction, v.em]);

describe.skipIf(!hasMultiloko)(titleUnless('MultiLoKo with llama:<model.gguf>', ARCHIVE), () => {
  test('base and chat prompts: the answers of transformers: on the same folder; a rerun comes from the cache', async () => {
    for (const prompt of ['base', 'chat']) {
      const { results: [llama, onnx], stdout } = await multilokoRun(`both-${prompt}`, [`llama:${gguf}`, `transformers:${model}`], prompt);
      expect(llama!.summary.model_description).toMatchObject({ provider: 'llama', model: gguf, settings: { decoding: 'greedy' } });
      expect(onnx!.summary.model_description).toMatchObject({ provider: 'transformers' });
      expect(llama!.summary.prompt).toMatchObject({ mode: prompt });
      expect(llama!.summary.calls).toMatchObject({ cached: 0, model_calls: 4 });
      expect(predictions(llama!).length).toBe(4);
      expect(predictions(llama!)).toEqual(predictions(onnx!));
      expect(stdout).toContain(`llama:${gguf}`);
    }
    const { results: [again] } = await multilokoRun('llama-base-again', [`llama:${gguf}`], 'base');
    expect(again!.summary.calls).toMatchObject({ cached: 4, model_calls: 0 });
  }, 600_000);
});

describe.skipIf(!hasKalahi)(titleUnless('Kalahi with llama:<model.gguf>', path.join(KALAHI, 'filipino.csv')), () => {
  test('MC log-probabilities within 1e-4 and generated replies equal to transformers: on the same folder', async () => {
    const bert = path.join(dir, 'bert');
    const bleurt = path.join(dir, 'bleurt');
    writeTinyEncoder(bert, { kind: 'bert', seed: 2 });
    writeTinyEncoder(bleurt, { kind: 'regression', seed: 5 });
    // llama: and transformers: in one run, each model's kalahi.json in its own folder.
    const specs = [`llama:${gguf}`, `transformers:${model}`];
    const output = path.join(dir, 'kalahi-both');
    const run = await runVitest(['run', '--project', 'evals', 'evals/kalahi.eval.ts'], {
      LOKAL_MODEL: specs.join(','),
      LOKAL_KALAHI: KALAHI,
      LOKAL_KALAHI_VARIANT: 'full',
      LOKAL_CACHE: 'off',
      LOKAL_LIMIT: '2',
      LOKAL_OUTPUT: output,
      LOKAL_BERTSCORE_MODEL: bert,
      LOKAL_BLEURT_MODEL: bleurt,
    });
    expect(run.code, show(run)).toBe(0);
    const [llama, onnx] = modelSlugs(specs).map((slug, i) => {
      const full = (JSON.parse(readFileSync(path.join(output, slug, 'kalahi.json'), 'utf8')) as Json).variants.full as Json;
      expect(full.model).toBe(specs[i]);
      return { records: full.records as KalahiPromptRecord[] };
    }) as [{ records: KalahiPromptRecord[] }, { records: KalahiPromptRecord[] }];
    // Each model's table is headed by its short name (the file's) and then its provider string.
    expect(run.stdout).toContain(`Kalahi · full · 2 of 150 prompts · model.gguf (${specs[0]})`);
    expect(run.stdout).toContain(`Kalahi · full · 2 of 150 prompts · tiny (${specs[1]})`);
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
