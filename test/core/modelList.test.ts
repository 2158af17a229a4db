// LOKAL_MODEL listing several models: split only at commas followed by a provider prefix, at most ten, no duplicates;
// and the folder names their results go to.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { KALAHI_SETTINGS } from '../../src/benchmarks/kalahi/settings.ts';
import { MULTILOKO_SETTINGS } from '../../src/benchmarks/multiloko/settings.ts';
import { MAX_MODELS, labelledPath, listModels, modelFolderNames, modelLabels, modelListProblem, modelSlugs, splitModelList } from '../../src/core/modelList.ts';
import { resolveSettingsTree } from '../../src/core/settings.ts';

const cwd = mkdtempSync(path.join(os.tmpdir(), 'lokal-model-list-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));
const resolveModel = (value: string) => resolveSettingsTree([MULTILOKO_SETTINGS, KALAHI_SETTINGS], {}, { cwd, env: { LOKAL_MODEL: value } }).model;

describe('splitModelList', () => {
  test('one model is one entry, unchanged, even with commas in its path', () => {
    expect(splitModelList('transformers:onnx-community/Qwen2.5-0.5B-Instruct')).toEqual(['transformers:onnx-community/Qwen2.5-0.5B-Instruct']);
    expect(splitModelList('replay:runs/a,b,c.jsonl')).toEqual(['replay:runs/a,b,c.jsonl']);
  });

  test('a comma separates models only before a provider prefix (spaces after it allowed)', () => {
    expect(splitModelList('replay:runs/a,b.jsonl,openai:gpt-4o-mini, transformers:onnx-community/Qwen2.5-0.5B-Instruct')).toEqual([
      'replay:runs/a,b.jsonl',
      'openai:gpt-4o-mini',
      'transformers:onnx-community/Qwen2.5-0.5B-Instruct',
    ]);
    // `,replay` without its colon is part of the path.
    expect(splitModelList('replay:x,replay.jsonl,replay:y.jsonl')).toEqual(['replay:x,replay.jsonl', 'replay:y.jsonl']);
    expect(splitModelList('llama:models/a,b.gguf,llama:ollama:qwen2.5:0.5b,transformers:m')).toEqual(['llama:models/a,b.gguf', 'llama:ollama:qwen2.5:0.5b', 'transformers:m']);
  });
});

describe('LOKAL_MODEL as a list', () => {
  test('a valid list is kept as given (split where used)', () => {
    expect(resolveModel('replay:a.jsonl,replay:b,c.jsonl')).toBe('replay:a.jsonl,replay:b,c.jsonl');
  });

  test('a model listed twice is refused, naming it and the variable', () => {
    expect(() => resolveModel('replay:a.jsonl,openai:m,replay:a.jsonl')).toThrow(/^LOKAL_MODEL: lists "replay:a\.jsonl" twice; each model runs once/u);
    // Equal once trimmed.
    expect(modelListProblem('openai:m, openai:m')).toMatch(/twice/u);
  });

  test('more than ten models are refused; ten are fine', () => {
    const list = (n: number) => Array.from({ length: n }, (_, i) => `replay:r${i}.jsonl`).join(',');
    expect(MAX_MODELS).toBe(10);
    expect(resolveModel(list(10))).toBe(list(10));
    expect(() => resolveModel(list(11))).toThrow(/^LOKAL_MODEL: lists 11 models; at most 10 run in one invocation/u);
  });

  test('an empty entry (a leading comma) is refused; a comma before another comma stays in the path', () => {
    expect(() => resolveModel(',openai:m')).toThrow(/^LOKAL_MODEL: a listed model is empty/u);
    expect(splitModelList('replay:a.jsonl,,openai:m')).toEqual(['replay:a.jsonl,', 'openai:m']);
    expect(modelListProblem('replay:a.jsonl,,openai:m')).toBeUndefined();
  });
});

describe('labels name folders and compared files', () => {
  test("a labelled model's results folder is named after its label, an unlabelled one after its provider string", () => {
    const listed = listModels('qwen3=replay:runs/qwen3.jsonl,replay:runs/ora.jsonl,Big.Model=openai:gpt-4o');
    expect(modelFolderNames(listed)).toEqual(['qwen3', 'replay-runs-ora.jsonl', 'Big.Model']);
    // A label equal (ignoring case) to another model's folder still gets its own.
    expect(modelFolderNames(listModels('replay-a=replay:a,replay:a'))).toEqual(['replay-a', 'replay-a-2']);
  });

  test('`name=path` gives a label and a path; a path alone, or one whose start is no label, gives none', () => {
    expect(labelledPath('qwen3=results/qwen3')).toEqual({ label: 'qwen3', path: 'results/qwen3' });
    expect(labelledPath('q.3=a=b.json')).toEqual({ label: 'q.3', path: 'a=b.json' });
    expect(labelledPath('results/qwen3')).toBeUndefined();
    expect(labelledPath('runs/a=b.json')).toBeUndefined();
    expect(labelledPath('qwen3=')).toBeUndefined();
  });
});

describe('modelSlugs', () => {
  test('characters outside [A-Za-z0-9._-] become one dash; ends trimmed', () => {
    expect(modelSlugs(['transformers:onnx-community/Qwen2.5-0.5B-Instruct', 'replay:/tmp/runs/a,b.jsonl', 'openai:gpt-4o-mini'])).toEqual([
      'transformers-onnx-community-Qwen2.5-0.5B-Instruct',
      'replay-tmp-runs-a-b.jsonl',
      'openai-gpt-4o-mini',
    ]);
  });

  test('names equal ignoring case are numbered in list order', () => {
    expect(modelSlugs(['replay:a b.jsonl', 'replay:a/b.jsonl', 'replay:A-B.jsonl'])).toEqual(['replay-a-b.jsonl', 'replay-a-b.jsonl-2', 'replay-A-B.jsonl-3']);
  });

  test('a long spec keeps its last 100 characters', () => {
    const slug = modelSlugs([`replay:${'x'.repeat(150)}/run.jsonl`])[0]!;
    expect(slug).toBe(`${'x'.repeat(90)}-run.jsonl`);
    expect(slug).toHaveLength(100);
  });
});

describe('model labels', () => {
  test('a label before a provider string is read off it; the list splits before a labelled entry too', () => {
    expect(listModels('qwen3=replay:runs/qwen3.jsonl,openai:gpt-4o-mini')).toEqual([{ spec: 'replay:runs/qwen3.jsonl', label: 'qwen3' }, { spec: 'openai:gpt-4o-mini' }]);
    expect(splitModelList('a=replay:x,b.jsonl,b=transformers:models/tiny')).toEqual(['replay:x,b.jsonl', 'transformers:models/tiny']);
    // `=` inside a path is not a label: no provider prefix follows it.
    expect(listModels('replay:runs/k=v.jsonl')).toEqual([{ spec: 'replay:runs/k=v.jsonl' }]);
    expect(modelListProblem('x=replay:a.jsonl,x=replay:b.jsonl')).toBe('gives the label "x" twice; each model needs its own');
  });

  test('without a label: the shortest tail of the provider string that no other model ends with', () => {
    const list = listModels('replay:/data/runs/ora.jsonl,replay:/data/other/ora.jsonl,replay:/data/runs/qwen.jsonl,openai:gpt-4o,q=transformers:models/qwen');
    // ora.jsonl twice: one more part tells them apart; the labelled model keeps its label.
    expect(modelLabels(list)).toEqual(['runs/ora.jsonl', 'other/ora.jsonl', 'qwen.jsonl', 'gpt-4o', 'q']);
    // Two identical tails all the way: the whole provider string.
    expect(modelLabels([{ spec: 'replay:a' }, { spec: 'openai:a' }])).toEqual(['replay:a', 'openai:a']);
  });

  test('the run opens the model without its label', async () => {
    const { modelSpec } = await import('../../src/models/open.ts');
    expect(modelSpec({ model: 'qwen3=replay:runs/qwen3.jsonl' })).toBe('replay:runs/qwen3.jsonl');
    expect(modelSpec({ model: 'a=openai:m1,openai:m2' })).toBe('openai:m1,openai:m2');
  });
});
