// The summary line says "replay" only for a replay run, and a replay whose predictions file is missing says so
// instead of "0 answers read from the predictions file".
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { callsLine } from '../../src/benchmarks/multiloko/callsLine.ts';
import { describePrompts, summarisePrompts } from '../../src/benchmarks/multiloko/usage.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-summary-line-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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
