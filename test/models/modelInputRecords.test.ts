// What the model saw: every provider reports the prompt as fed and its token counts, the response cache keeps them, and
// MultiLoKo's and Kalahi's item records and results files carry them (LOKAL_RECORD_PROMPTS=text|hash|off). Expected
// values come from a second source: node:crypto over the serialisation written out here, the tokenizer's own count,
// the reference network's greedy steps, and the toy server's definition of its tokens (code points).
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AutoTokenizer } from '@huggingface/transformers';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { canonicalModelInput, modelInputSha256, recordedInput, type RecordPrompts } from '../../src/models/recordedInput.ts';
import { TransformersProvider } from '../../src/models/transformers.ts';
import { OpenAIProvider } from '../../src/models/openai.ts';
import { withCache } from '../../src/models/cache.ts';
import { openLokalModel } from '../../src/models/open.ts';
import type { ChatMessage, GenerateRequest } from '../../src/models/types.ts';
import { SHARED_DEFAULTS } from '../../src/core/settings.ts';
import type { ItemContext } from '../../src/benchmarks/benchmark.ts';
import { MULTILOKO_DEFAULTS, type MultiLoKoSettings } from '../../src/benchmarks/multiloko/settings.ts';
import { prepareMultiLoKo } from '../../src/benchmarks/multiloko/run/plan.ts';
import { reportMultiLoKo } from '../../src/benchmarks/multiloko/results/report.ts';
import { aggregateSubset } from '../../src/benchmarks/multiloko/results/aggregate.ts';
import { renderMultilokoPrompt, type RenderedMultilokoChatPrompt } from '../../src/benchmarks/multiloko/prompts/index.ts';
import type { LokalItemRecord } from '../../src/benchmarks/multiloko/run/records.ts';
import type { MultiLoKoQuestion } from '../../src/benchmarks/multiloko/data/schema.ts';
import type { KalahiSettings } from '../../src/benchmarks/kalahi/run/config.ts';
import { prepareKalahi } from '../../src/benchmarks/kalahi/run/plan.ts';
import { reportKalahi } from '../../src/benchmarks/kalahi/results/report.ts';
import { aggregateKalahi } from '../../src/benchmarks/kalahi/results/aggregate.ts';
import type { KalahiPromptRecord } from '../../src/benchmarks/kalahi/run/records.ts';
import { startFakeOpenAIServer, toyAnswer, toyRenderChat, type FakeServer } from '../support/fakeOpenAIServer.ts';
import { loadTinyReferenceModel, type TinyReferenceModel } from '../support/tinyModelReference.ts';
import { writeTinyModel, type TinyModelInfo } from '../support/tinyModel.ts';
import { REPO_ROOT, datasetSpec, writeDataset } from '../vitest/helpers.ts';
import { titleUnless } from '../support/sharedData.ts';

const root = mkdtempSync(path.join(tmpdir(), 'lokal-model-input-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const sha256 = (text: string) => createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex');
const codePoints = (text: string) => [...text].length;

describe('LOKAL_RECORD_PROMPTS: the recorded prompt', () => {
  const messages: ChatMessage[] = [
    { role: 'system', content: 'Sagutin nang maikli.' },
    { role: 'user', content: 'Qual è la capitale d\'Italia? "Roma"\n日本 😀\t\\' },
  ];
  const text = 'Domanda: 1 + 1?\nRisposta: "2" — ü 😀\n';

  test('hash: SHA-256 of the compact JSON {"text":…} / {"messages":[{"role","content"}…]}, UTF-8, written out by hand here', () => {
    const textJson = '{"text":"Domanda: 1 + 1?\\nRisposta: \\"2\\" — ü 😀\\n"}';
    const messagesJson =
      '{"messages":[{"role":"system","content":"Sagutin nang maikli."},{"role":"user","content":"Qual è la capitale d\'Italia? \\"Roma\\"\\n日本 😀\\t\\\\"}]}';
    expect(canonicalModelInput({ text })).toBe(textJson);
    expect(canonicalModelInput({ messages })).toBe(messagesJson);
    expect(recordedInput({ text }, 'hash')).toEqual({ sha256: sha256(textJson) });
    expect(recordedInput({ messages }, 'hash')).toEqual({ sha256: sha256(messagesJson) });
    // extra message fields and key order do not change the digest: only role and content, in that order
    const reordered = messages.map((m) => ({ content: m.content, role: m.role, name: 'x' })) as unknown as ChatMessage[];
    expect(modelInputSha256({ messages: reordered })).toBe(sha256(messagesJson));
    expect(sha256(textJson)).toMatch(/^[0-9a-f]{64}$/);
  });

  test('text (the default) keeps the input as fed; off and nothing fed (replay) record null', () => {
    expect(recordedInput({ text })).toEqual({ text });
    expect(recordedInput({ messages }, 'text')).toEqual({ messages });
    expect(recordedInput({ text }, 'off')).toBeNull();
    expect(recordedInput(undefined, 'text')).toBeNull();
    expect(recordedInput(undefined, 'hash')).toBeNull();
  });
});

describe('transformers provider: the prompt as fed and token counts (tiny model)', () => {
  const dir = path.join(root, 'tiny');
  let info: TinyModelInfo;
  let ref: TinyReferenceModel;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let tokenizer: any;
  let batched: TransformersProvider;
  let sequential: TransformersProvider;
  const ids = (x: unknown) => (x as Array<number | bigint>).map(Number);
  const question: ChatMessage[] = [{ role: 'user', content: 'Ano ang kabisera ng Pilipinas?' }];
  /** TINY_CHAT_TEMPLATE (ChatML without a system prompt) rendered by hand. */
  const rendered = (m: ChatMessage[]) => m.map((x) => `<|im_start|>${x.role}\n${x.content}<|im_end|>\n`).join('') + '<|im_start|>assistant\n';

  beforeAll(async () => {
    info = writeTinyModel(dir, { seed: 7 });
    ref = loadTinyReferenceModel(dir);
    tokenizer = await AutoTokenizer.from_pretrained(dir);
    batched = new TransformersProvider(dir, { env: {}, threads: 1 });
    sequential = new TransformersProvider(dir, { env: {}, threads: 1, generateBatchSize: 1, sharePrefix: false });
  }, 60_000);
  afterAll(async () => {
    await batched?.close();
    await sequential?.close();
  });

  test('generate: the chat template rendered / the prompt text, prompt tokens as the tokenizer counts them, generated tokens as the reference network steps', async () => {
    const eos = [info.specialIds['<|im_end|>']!, info.specialIds['<|endoftext|>']!];
    const steps = 10;
    const cases: GenerateRequest[] = [{ messages: question }, { prompt: 'Question: What is 2 + 2?\nAnswer:' }];
    for (const c of cases) {
      const expectedText = c.messages ? rendered(c.messages) : c.prompt!;
      const promptIds = c.messages
        ? ids(tokenizer.apply_chat_template(c.messages, { add_generation_prompt: true, return_tensor: false, return_dict: false }))
        : ids(tokenizer.encode(c.prompt));
      const greedy = ref.greedy(promptIds, steps, eos);
      expect(Math.min(...greedy.margins)).toBeGreaterThan(1e-4);
      for (const provider of [batched, sequential]) {
        const [r] = await provider.generate([{ ...c, maxNewTokens: steps }]);
        expect(r!.input).toEqual({ text: expectedText });
        expect(r!.promptTokens).toBe(promptIds.length);
        expect(r!.outputTokens).toBe(greedy.tokens.length);
      }
    }
  });

  test('scoreContinuations: the prompt the continuation follows (generation prompt included) and its token count', async () => {
    const [chat, plain] = await batched.scoreContinuations([
      { messages: question, continuation: 'Maynila.' },
      { prompt: 'The capital of Italy is', continuation: ' Rome.' },
    ]);
    expect(chat!.input).toEqual({ text: rendered(question) });
    expect(chat!.promptTokens).toBe(ids(tokenizer.apply_chat_template(question, { add_generation_prompt: true, return_tensor: false, return_dict: false })).length);
    expect(plain!.input).toEqual({ text: 'The capital of Italy is' });
    expect(plain!.promptTokens).toBe(ids(tokenizer.encode('The capital of Italy is')).length);
  });

  test('the response cache keeps them: a hit reports the same input and counts as the call that filled it', async () => {
    const file = path.join(root, 'cache.jsonl');
    const requests: GenerateRequest[] = [{ messages: question, maxNewTokens: 6 }, { prompt: 'Numeri: 1, 2,', maxNewTokens: 6 }];
    const first = await withCache(batched, { file, mode: 'readwrite' }).generate(requests);
    const again = await withCache(batched, { file, mode: 'readwrite' }).generate(requests);
    expect(again.every((r) => r.cached)).toBe(true);
    expect(again.map(({ input, promptTokens, outputTokens }) => ({ input, promptTokens, outputTokens }))).toEqual(
      first.map(({ input, promptTokens, outputTokens }) => ({ input, promptTokens, outputTokens })),
    );
    expect(again[0]!.input).toEqual({ text: rendered(question) });
    // the plain prompt is stored as "the request itself", the rendered chat text in full
    const [header, ...lines] = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(header).toEqual({ lokal_response_cache: 1 }); // the cache's own first line (src/models/cache.ts)
    expect(lines.map((l) => l.input)).toEqual([{ text: rendered(question) }, 'request']);
    const scores = [{ messages: question, continuation: 'Maynila.' }];
    const scored = await withCache(batched, { file, mode: 'readwrite' }).scoreContinuations(scores);
    const hit = await withCache(batched, { file, mode: 'readwrite' }).scoreContinuations(scores);
    expect(hit[0]).toMatchObject({ cached: true, input: scored[0]!.input, promptTokens: scored[0]!.promptTokens, tokenCount: scored[0]!.tokenCount });
  });
});

describe('an OpenAI-compatible server: the messages or prompt sent, and usage.prompt_tokens / completion_tokens', () => {
  let server: FakeServer;
  beforeAll(async () => {
    server = await startFakeOpenAIServer();
  });
  afterAll(() => server?.close());

  test('generate and scoreContinuations report what was sent and the server\'s counts (the toy server counts code points)', async () => {
    const provider = new OpenAIProvider('toy', { baseUrl: server.url, env: {} });
    const messages: ChatMessage[] = [{ role: 'user', content: 'Ciao! Qual è la capitale? 😀' }];
    const [chat, plain] = await provider.generate([{ messages, maxNewTokens: 7 }, { prompt: 'Domanda: 1+1?', maxNewTokens: 50 }]);
    expect(chat).toMatchObject({ input: { messages }, promptTokens: codePoints(toyRenderChat(messages, true)), outputTokens: 7 });
    expect(plain).toMatchObject({ input: { text: 'Domanda: 1+1?' }, promptTokens: 13, outputTokens: codePoints(toyAnswer('Domanda: 1+1?')) });
    const [scoredChat, scoredPlain] = await provider.scoreContinuations([
      { messages, continuation: 'Roma.' },
      { prompt: 'La capitale è', continuation: ' Roma' },
    ]);
    expect(scoredChat).toMatchObject({ input: { messages }, promptTokens: codePoints(toyRenderChat(messages, true)), tokenCount: codePoints(toyRenderChat([...messages, { role: 'assistant', content: 'Roma.' }], false)) - codePoints(toyRenderChat(messages, true)) });
    expect(scoredPlain).toMatchObject({ input: { text: 'La capitale è' }, promptTokens: 13, tokenCount: 5 });
  });

  /** A MultiLoKo run's item records on a generated dataset (two Italian items, chat prompt), and its multiloko.json. */
  async function multilokoRun(mode: RecordPrompts | undefined): Promise<{ records: LokalItemRecord[]; items: MultiLoKoQuestion[]; json: Record<string, any> }> {
    // the chat prompt names the answer's type: the generated items get one
    const subsets = datasetSpec(2)
      .filter((s) => s.key === 'italian')
      .map((s) => ({ ...s, items: s.items.map((item) => ({ ...item, output_type: 'un nome' })) }));
    const data = writeDataset(path.join(root, `multiloko-${mode}`), subsets);
    const settings = {
      ...SHARED_DEFAULTS,
      ...MULTILOKO_DEFAULTS,
      data,
      model: 'openai:toy',
      languages: ['italian'],
      subsets: ['local'],
      ...(mode ? { recordPrompts: mode } : {}),
      // the records' prompt text is what is checked (LOKAL_REDACT=auto would hash it where CI is set)
      redact: 'off',
    } as MultiLoKoSettings;
    const plan = await prepareMultiLoKo(settings, []);
    const model = openLokalModel('openai:toy', { openai: { baseUrl: server.url, env: {} } });
    const context: ItemContext = { model: () => model, annotate: async () => undefined, expect: () => { throw new Error('not strict'); } };
    const group = plan.groups[0]!;
    const records = [];
    for (const item of group.items) records.push((await plan.runItem(item, group.info, context)).record);
    const aggregate = aggregateSubset(group.info, records.map((record) => ({ record, state: 'passed' as const })));
    const report = reportMultiLoKo([{ aggregate, records }], { settings, root: REPO_ROOT, clauses: [] });
    return { records, items: [...group.items], json: JSON.parse(report.resultsText!) };
  }

  test('MultiLoKo: the item meta and multiloko.json carry the messages sent and the server\'s usage; the official keys stay as they were', async () => {
    const { records, items, json } = await multilokoRun(undefined);
    expect(records).toHaveLength(2);
    records.forEach((record, i) => {
      const message = (renderMultilokoPrompt({ language: 'italian', item: items[i]!, mode: 'chat' }) as RenderedMultilokoChatPrompt).message;
      const sent = [{ role: 'user', content: message }];
      const promptText = toyRenderChat(sent, true);
      expect(record.modelInput).toEqual({ messages: sent });
      expect(record.promptTokens).toBe(codePoints(promptText));
      expect(record.outputTokens).toBe(Math.min(64, codePoints(toyAnswer(promptText))));
      const official = json.italian[String(record.id)];
      expect(Object.keys(official)).toEqual(['em', 'f1', 'bleu', 'chrf', 'edit_distance', 'edit_similarity', 'targets', 'prediction', 'edit_distance_first', 'f1_words', 'error', 'model_input', 'prompt_tokens', 'output_tokens']);
      expect(official).toMatchObject({ model_input: { messages: sent }, prompt_tokens: record.promptTokens, output_tokens: record.outputTokens });
    });
  });

  test('MultiLoKo with LOKAL_RECORD_PROMPTS=hash records the SHA-256 of the messages sent; off records nothing, counts stay', async () => {
    const hashed = await multilokoRun('hash');
    hashed.records.forEach((record, i) => {
      const message = (renderMultilokoPrompt({ language: 'italian', item: hashed.items[i]!, mode: 'chat' }) as RenderedMultilokoChatPrompt).message;
      const expected = sha256(`{"messages":[{"role":"user","content":${JSON.stringify(message)}}]}`);
      expect(record.modelInput).toEqual({ sha256: expected });
      expect(hashed.json.italian[String(record.id)].model_input).toEqual({ sha256: expected });
    });
    const off = await multilokoRun('off');
    for (const record of off.records) {
      expect(record.modelInput).toBeNull();
      expect(record.promptTokens).toBeGreaterThan(0);
      expect('model_input' in off.json.italian[String(record.id)]).toBe(false);
    }
  });

  const KALAHI = path.resolve(REPO_ROOT, '../shared/data/kalahi');
  test.skipIf(!existsSync(path.join(KALAHI, 'filipino.csv')))(titleUnless('Kalahi: MC and generation records and kalahi.json carry the messages sent and the server\'s counts', path.join(KALAHI, 'filipino.csv')), async () => {
    // redact off: the records' prompt text is what is checked (LOKAL_REDACT=auto would hash it where CI is set).
    const settings = { ...SHARED_DEFAULTS, redact: 'off', data: KALAHI, model: 'openai:toy', limit: 1, bertscoreModel: 'off', bleurtModel: 'off' } as KalahiSettings;
    const plan = await prepareKalahi(settings, []);
    const model = openLokalModel('openai:toy', { openai: { baseUrl: server.url, env: {} } });
    const context: ItemContext = { model: () => model, annotate: async () => undefined, expect: () => { throw new Error('not strict'); } };
    const group = plan.groups[0]!;
    const row = group.items[0]!;
    const result = await plan.runItem(row, group.info, context);
    expect(result.failures).toEqual([]);
    const record: KalahiPromptRecord = result.record;
    const sent = [{ role: 'user', content: row.prompt }];
    const promptText = toyRenderChat(sent, true);
    expect(record.mc).toMatchObject({ modelInput: { messages: sent }, promptTokens: codePoints(promptText) });
    // max_length=256 counts the prompt: the server is asked for up to 256 tokens and reports what it generated
    expect(record.generation).toMatchObject({ modelInput: { messages: sent }, promptTokens: codePoints(promptText), outputTokens: Math.min(256, codePoints(toyAnswer(promptText))) });
    const aggregate = aggregateKalahi(group.info, [{ record, state: 'passed' }]);
    const json = JSON.parse(reportKalahi([{ aggregate, records: [record] }], { clauses: [] }).resultsText!);
    const written = json.variants.full.records[0];
    expect(written.mc).toMatchObject({ modelInput: { messages: sent }, promptTokens: codePoints(promptText) });
    expect(written.generation).toMatchObject({ modelInput: { messages: sent }, promptTokens: record.generation!.promptTokens, outputTokens: record.generation!.outputTokens });
  });
});
