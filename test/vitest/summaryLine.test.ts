// The summary line says "replay" only for a replay run, and a replay whose predictions file is missing says so
// instead of "0 answers read from the predictions file"; a run in which nothing was answered fails.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { callsLine } from '../../src/benchmarks/multiloko/results/callsLine.ts';
import { describePrompts, summarisePrompts } from '../../src/benchmarks/multiloko/run/usage.ts';
import { MULTILOKO_EVAL, datasetSpec, runVitest, writeDataset, writeJsonl } from './helpers.ts';
import { titleUnless } from '../support/sharedData.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-summary-line-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const KALAHI = path.resolve(import.meta.dirname, '../../../shared/data/kalahi');

const calls = { cached: 2, model_calls: 3, model_ms_total: 30, model_ms_mean: 10 };
const description = { provider: 'replay', model: 'p.jsonl', settings: {} };

describe('the prompt part', () => {
  test('a run that is not a replay and answered nothing does not say replay', () => {
    const nothing = summarisePrompts([{ key: 'italian', prompts: [] }]);
    expect(describePrompts(nothing, 'openai:gpt-x')).toBe('no item was answered');
    expect(describePrompts(nothing, 'transformers:onnx-community/Qwen2.5-0.5B-Instruct')).toBe('no item was answered');
    expect(describePrompts(nothing, 'replay:p.jsonl')).toBe('no prompt (replay), answers as given');
  });

  test('a replay that answered is described as before', () => {
    const replayed = summarisePrompts([{ key: 'italian', prompts: [{ mode: 'none', language: 'italian', fewshot: 'none', shots: 0, extracted: false, items: 4 }] }]);
    expect(describePrompts(replayed, 'replay:p.jsonl')).toBe('no prompt (replay), answers as given');
  });
});

describe('the calls part', () => {
  test('a model run counts cache hits and calls', () => {
    expect(callsLine({ model: 'openai:gpt-x', model_description: null, calls }, dir)).toBe('2 items from the cache, 3 asked the model');
  });

  test('a replay run counts the answers read', () => {
    expect(callsLine({ model: 'replay:p.jsonl', model_description: description, calls }, dir)).toBe('3 answers read from the predictions file');
  });

  test('a replay whose file is missing says so (resolved against the root)', () => {
    expect(callsLine({ model: 'replay:absent.jsonl', model_description: null, calls: { ...calls, model_calls: 0 } }, dir)).toBe('the predictions file absent.jsonl does not exist');
    writeFileSync(path.join(dir, 'present.jsonl'), '');
    expect(callsLine({ model: 'replay:present.jsonl', model_description: null, calls: { ...calls, model_calls: 0 } }, dir)).toBe(
      'the predictions file present.jsonl could not be read (see the failed tests)',
    );
  });
});

describe('a child replay run in which nothing matched', () => {
  test('MultiLoKo: every item without a prediction fails the run, naming why', { timeout: 120_000 }, async () => {
    const location = writeDataset(path.join(dir, 'm'), datasetSpec(2).filter((s) => s.key === 'italian'));
    const predictions = path.join(dir, 'other.jsonl');
    writeJsonl(predictions, [{ language: 'french', id: 100, prediction: 'x' }]);
    const run = await runVitest(['run', '--project', 'evals', MULTILOKO_EVAL], { LOKAL_MULTILOKO: location, LOKAL_MODEL: `replay:${predictions}`, LOKAL_OUTPUT: path.join(dir, 'm-out') });
    const show = `${run.stdout}\n${run.stderr}`;
    expect(run.code, show).toBe(1);
    expect(run.stdout).toContain('lokal: MultiLoKo measured nothing: none of the 2 items got an answer (2 without a prediction, 0 failed), so the run fails');
    expect(JSON.parse(readFileSync(path.join(dir, 'm-out', 'multiloko.json'), 'utf8')).summary.gates_passed).toBe(false);
  });

  test.skipIf(!existsSync(KALAHI))(titleUnless('Kalahi: no reply matched a prompt fails the run', KALAHI), { timeout: 120_000 }, async () => {
    const replies = path.join(dir, 'kalahi-other.jsonl');
    writeJsonl(replies, [{ language: 'kalahi', id: 'no-such-prompt', prediction: 'x' }]);
    const run = await runVitest(['run', '--project', 'evals', 'evals/kalahi.eval.ts'], {
      LOKAL_KALAHI: KALAHI,
      LOKAL_KALAHI_VARIANT: 'full',
      LOKAL_LIMIT: '2',
      LOKAL_MODEL: `replay:${replies}`,
      LOKAL_OUTPUT: path.join(dir, 'k-out'),
      LOKAL_BERTSCORE_MODEL: 'off',
      LOKAL_BLEURT_MODEL: 'off',
    });
    const show = `${run.stdout}\n${run.stderr}`;
    expect(run.code, show).toBe(1);
    expect(run.stdout).toContain('lokal: Kalahi measured nothing: none of the 2 prompts was scored, so the run fails');
    expect(JSON.parse(readFileSync(path.join(dir, 'k-out', 'kalahi.json'), 'utf8')).gates_passed).toBe(false);
  });
});
