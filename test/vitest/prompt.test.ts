// Prompt selection in the suite: which prompt (base/chat/auto), which few-shot examples, which answer is scored, and
// how the model is built (default model, provider options, response cache, chat detection).
import { mkdtempSync, readFileSync, rmSync, writeFileSync, cpSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { DEFAULT_CACHE_FILE } from '../../src/models/cache.ts';
import { OpenAIProvider } from '../../src/models/openai.ts';
import { ReplayProvider } from '../../src/models/replay.ts';
import { writeTinyModel } from '../support/tinyModel.ts';
import { DEFAULT_MODEL, TransformersProvider } from '../../src/models/transformers.ts';
import type { ModelProvider } from '../../src/models/types.ts';
import { ModelPool } from '../../src/vitest/fixtures.ts';
import {
  DEFAULT_MODEL_SPEC, folderHasChatTemplate, isChatModel, lokalModelOptions, modelSpec, openLokalModel,
} from '../../src/models/open.ts';
import { chooseFewshot, extractsAnswers, promptUse, renderItemPrompt, resolvePromptMode, scoredAnswer } from '../../src/benchmarks/multiloko/run/itemPrompt.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-prompt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const shot = { id: 'f1', question: 'Qual è la capitale della Sicilia?', targets: ['Palermo', 'palermo'], output_type: 'città' };
const dataset = { fewshot: { italian: [shot, { id: 'f2', question: 'Seconda?', answer: 'Due', output_type: 'numero' }], french: [] } };
const item = { id: 7, question: 'Chi ha scritto I promessi sposi?', output_type: 'un nome', targets: ['Alessandro Manzoni'] };
const italian = { file: 'italian/dev.jsonl', questionLanguage: 'italian' };

describe('few-shot choice', () => {
  test('dataset examples of the prompt language when present, else the official ones; official; none', () => {
    expect(chooseFewshot(dataset, 'italian', 'dataset')).toBe(dataset.fewshot.italian);
    expect(chooseFewshot(dataset, 'french', 'dataset')).toBe('official'); // an empty file
    expect(chooseFewshot(dataset, 'english', 'dataset')).toBe('official'); // no file
    expect(chooseFewshot(dataset, 'toString', 'dataset')).toBe('official'); // not an inherited property
    expect(chooseFewshot(dataset, 'italian', 'official')).toBe('official');
    expect(chooseFewshot(dataset, 'italian', 'none')).toBe('none');
  });
});

describe('prompt mode', () => {
  const asked: string[] = [];
  const target = (kind: string, chat: boolean) => ({ kind, chat: async () => (asked.push(kind), chat) });

  test('replay takes no prompt; base and chat as set; auto asks the model', async () => {
    expect(await resolvePromptMode('chat', target('replay', true))).toBe('none');
    expect(await resolvePromptMode('base', target('transformers', true))).toBe('base');
    expect(await resolvePromptMode('chat', target('transformers', false))).toBe('chat');
    expect(asked).toEqual([]);
    expect(await resolvePromptMode('auto', target('transformers', false))).toBe('base');
    expect(await resolvePromptMode('auto', target('openai', true))).toBe('chat');
    expect(asked).toEqual(['transformers', 'openai']);
  });
});

describe('renderItemPrompt', () => {
  // Goldens written by hand from the Italian few-shot template (src/benchmarks/multiloko/prompts/multiloko/prompts.json): the loop tags'
  // `-%}` eat the newline after them, so demonstrations follow each other and the query comes right after the last.
  const query = 'D: Chi ha scritto I promessi sposi? Produci solo risposte del seguente tipo: un nome.\nR:';

  test('base with one dataset example: completion prompt ending with the answer token, stop strings of the language', () => {
    const { request, fewshot } = renderItemPrompt(item, italian, { mode: 'base', fewshot: dataset.fewshot.italian, shots: 1 });
    expect(request.prompt).toBe(
      'Rispondi alla seguente domanda in modo chiaro e conciso.\nD: Qual è la capitale della Sicilia? Produci solo risposte del seguente tipo: città.\nR: Palermo\n\n' + query,
    );
    expect(request.stop).toEqual(['D:', '\n\n']);
    expect(request.messages).toBeUndefined();
    expect(fewshot).toEqual({ source: 'dataset', count: 1 });
  });

  test('base zero-shot and with the official examples', () => {
    expect(renderItemPrompt(item, italian, { mode: 'base', fewshot: 'none', shots: 5 }).request.prompt).toBe(query);
    const official = renderItemPrompt(item, italian, { mode: 'base', fewshot: 'official', shots: 2 });
    expect(official.fewshot).toEqual({ source: 'official', count: 2 });
    expect(official.request.prompt).toContain("D: Quando ha vinto l'Italia per l'ultima volta i mondiali di calcio? Produci solo risposte del seguente tipo: data.\nR: 2006\n\n");
    expect(official.request.prompt!.match(/^Rispondi /gmu)).toHaveLength(2);
    expect(official.request.prompt!.endsWith(query)).toBe(true);
  });

  test('chat: one user message in the question language, zero-shot', () => {
    const { request, fewshot } = renderItemPrompt(item, italian, { mode: 'chat', fewshot: dataset.fewshot.italian, shots: 5 });
    expect(request).toEqual({
      messages: [{ role: 'user', content: 'Rispondi alla seguente domanda in modo chiaro e conciso: Chi ha scritto I promessi sposi?\nProduci solo risposte del seguente tipo: un nome.\n' }],
    });
    expect(fewshot).toEqual({ source: 'none', count: 0 });
    // Italian questions translated into English are asked with the English prompt.
    const english = renderItemPrompt({ ...item, question: 'Who wrote The Betrothed?', output_type: 'a name' }, { file: 'italian/dev_translated_human_english.jsonl', questionLanguage: 'english' }, { mode: 'chat', fewshot: 'official', shots: 5 });
    expect(english.request.messages![0]!.content).toMatch(/^Please answer the following question\.\nQuestion: Who wrote The Betrothed\?\n[^]*The answer should only be a name\.\n\nThe answer is$/u);
  });

  test('errors name the subset file, the item and the field', () => {
    expect(() => renderItemPrompt({ id: 'x', targets: ['a'], question: 'Q?' }, italian, { mode: 'base', fewshot: 'official', shots: 5 })).toThrow(
      /^italian\/dev\.jsonl: .*item "x".*field "output_type" is missing/,
    );
    expect(() => renderItemPrompt(item, italian, { mode: 'base', fewshot: [{ id: 'f9', question: 'Q?', answer: 'A' }], shots: 5 })).toThrow(
      /^italian\/dev\.jsonl \(few-shot examples from italian\/knowledge_fewshot\.jsonl\): .*few-shot example 1 \(id "f9"\).*field "output_type" is missing/,
    );
    expect(() => renderItemPrompt({ id: 3, targets: ['a'] }, italian, { mode: 'chat', fewshot: 'none', shots: 0 })).toThrow('italian/dev.jsonl: item 3 has no "question" to ask');
    expect(() => renderItemPrompt(item, { file: 'klingon/dev.jsonl', questionLanguage: 'klingon' }, { mode: 'chat', fewshot: 'none', shots: 0 })).toThrow(
      /^klingon\/dev\.jsonl: no MultiLoKo prompts for language "klingon"/,
    );
  });
});

describe('the answer that is scored', () => {
  test('extraction: on for models, off for replay, LOKAL_EXTRACT decides when set', () => {
    expect(extractsAnswers(undefined, 'transformers')).toBe(true);
    expect(extractsAnswers(undefined, 'openai')).toBe(true);
    expect(extractsAnswers(undefined, 'replay')).toBe(false);
    expect(extractsAnswers(true, 'replay')).toBe(true);
    expect(extractsAnswers(false, 'openai')).toBe(false);
  });

  test('first line, echoed answer token, chat answer frame', () => {
    const raw = ' R: Alessandro Manzoni\nD: Chi ha dipinto';
    expect(scoredAnswer(raw, { extract: false, mode: 'base', language: 'italian', setting: 'auto' })).toBe(raw);
    expect(scoredAnswer(raw, { extract: true, mode: 'base', language: 'italian', setting: 'auto' })).toBe('Alessandro Manzoni');
    const chat = 'The answer is Alessandro Manzoni.\nBecause…';
    expect(scoredAnswer(chat, { extract: true, mode: 'chat', language: 'english', setting: 'auto' })).toBe('Alessandro Manzoni.');
    expect(scoredAnswer(chat, { extract: true, mode: 'base', language: 'english', setting: 'auto' })).toBe('The answer is Alessandro Manzoni.');
    // Replay answers (no prompt) are extracted as chat replies unless LOKAL_PROMPT=base.
    expect(scoredAnswer(chat, { extract: true, mode: 'none', language: 'english', setting: 'auto' })).toBe('Alessandro Manzoni.');
    expect(scoredAnswer(chat, { extract: true, mode: 'none', language: 'english', setting: 'base' })).toBe('The answer is Alessandro Manzoni.');
  });

  test('what the item meta records', () => {
    expect(promptUse('base', 'italian', { source: 'dataset', count: 2 }, true)).toEqual({ mode: 'base', language: 'italian', fewshot: 'dataset', shots: 2, extracted: true });
    expect(promptUse('none', 'italian', undefined, false)).toEqual({ mode: 'none', language: null, fewshot: 'none', shots: 0, extracted: false });
  });
});

describe('the model of a run', () => {
  const tiny = path.join(dir, 'tiny');
  writeTinyModel(tiny, { layers: 1, hidden: 16, vocab: 300 });
  const plain = path.join(dir, 'tiny-plain');
  cpSync(tiny, plain, { recursive: true });
  const tokenizerConfig = JSON.parse(readFileSync(path.join(plain, 'tokenizer_config.json'), 'utf8'));
  delete tokenizerConfig.chat_template;
  writeFileSync(path.join(plain, 'tokenizer_config.json'), JSON.stringify(tokenizerConfig));
  const replayFile = path.join(dir, 'p.jsonl');
  writeFileSync(replayFile, `${JSON.stringify({ language: 'italian', id: 7, prediction: 'Manzoni' })}\n`);

  test('default model and provider options from the settings', () => {
    expect(DEFAULT_MODEL_SPEC).toBe(`transformers:${DEFAULT_MODEL}`);
    expect(modelSpec({})).toBe(DEFAULT_MODEL_SPEC);
    expect(modelSpec({ model: 'openai:m' })).toBe('openai:m');
    expect(lokalModelOptions({ missing: 'empty' })).toEqual({
      replay: { onMissing: 'empty' }, transformers: {}, openai: {}, llama: {}, cache: { mode: 'readwrite', file: DEFAULT_CACHE_FILE },
    });
    expect(
      lokalModelOptions({ missing: 'fail', cache: 'read', cacheFile: 'c.jsonl', dtype: 'q4', modelDir: '/m', modelCache: '/hf', offline: true, concurrency: 3, baseUrl: 'http://h/v1' }),
    ).toEqual({
      replay: { onMissing: 'fail' },
      transformers: { dtype: 'q4', modelDir: '/m', cacheDir: '/hf', allowRemote: false },
      openai: { baseUrl: 'http://h/v1', concurrency: 3 },
      llama: {},
      cache: { mode: 'read', file: 'c.jsonl' },
    });
    expect(lokalModelOptions({ missing: 'empty', offline: false }).transformers).toEqual({});
    // transformers: onnxruntime's threads (LOKAL_THREADS) reach the provider; llama: keeps its own setting
    expect(lokalModelOptions({ missing: 'empty', threads: 2 }).transformers).toEqual({ threads: 2 });
    expect(lokalModelOptions({ missing: 'empty', threads: 2 }).llama).toEqual({});
    // llama: context and threads; never several sequences (LOKAL_GENERATE_BATCH_SIZE is transformers:'s).
    expect(lokalModelOptions({ missing: 'empty', generateBatchSize: 4, llamaContext: 2048, llamaThreads: 2 }).llama).toEqual({ contextSize: 2048, threads: 2 });
  });

  test('the response cache wraps transformers: and openai: providers, never replay, and not when off', async () => {
    const cache = { mode: 'readwrite' as const, file: path.join(dir, 'cache.jsonl') };
    const replay = await openLokalModel(`replay:${replayFile}`, { cache });
    expect(replay.kind).toBe('replay');
    expect(replay.provider).toBe(replay.inner);
    const local = await openLokalModel(`transformers:${tiny}`, { cache });
    expect(local.inner).toBeInstanceOf(TransformersProvider);
    expect(local.provider).not.toBe(local.inner);
    expect(local.provider).toMatchObject({ mode: 'readwrite', file: cache.file });
    expect(local.provider.describe()).toEqual(local.inner.describe());
    const off = await openLokalModel('openai:m', { cache: { ...cache, mode: 'off' }, openai: { baseUrl: 'http://127.0.0.1:9/v1' } });
    expect(off.provider).toBe(off.inner);
    expect((off.inner as OpenAIProvider).baseUrl).toBe('http://127.0.0.1:9/v1');
    const pool = new ModelPool();
    const a = await pool.open(`transformers:${tiny}`, { cache });
    expect(await pool.open(`transformers:${tiny}`, { cache })).toBe(a);
    expect(await pool.get(`transformers:${tiny}`, { cache })).toBe(a.provider);
    await pool.close();
  });

  test('chat models: openai always, transformers when the tokenizer has a chat template, replay never', async () => {
    expect(await isChatModel(new OpenAIProvider('m', { baseUrl: 'http://127.0.0.1:9/v1', env: {} }))).toBe(true);
    expect(folderHasChatTemplate(tiny)).toBe(true);
    expect(folderHasChatTemplate(plain)).toBe(false);
    expect(folderHasChatTemplate(dir)).toBeUndefined();
    expect(await isChatModel(new TransformersProvider(tiny, { env: {} }))).toBe(true);
    expect(await isChatModel(new TransformersProvider(plain, { env: {} }))).toBe(false);
    expect(await isChatModel(await ReplayProvider.fromFile(replayFile))).toBe(false);
    // A provider may say so itself, or in describe().settings.
    const stub = (settings: Record<string, unknown>, own?: () => boolean): ModelProvider =>
      Object.assign({ describe: () => ({ provider: 'openai', model: 'x', settings }), generate: async () => [], scoreContinuations: async () => [] }, own ? { isChatModel: own } : {});
    expect(await isChatModel(stub({ chatTemplate: false }))).toBe(false);
    expect(await isChatModel(stub({}, () => false))).toBe(false);
    // The memoised answer of a built model is the inner provider's.
    const model = await openLokalModel(`transformers:${plain}`, { cache: { mode: 'off', file: 'unused' } });
    expect([await model.chat(), await model.chat()]).toEqual([false, false]);
  });
});
