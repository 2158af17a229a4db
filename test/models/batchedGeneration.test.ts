// Batched greedy generation with prefix reuse must answer exactly as one request at a time through transformers.js's
// own generate: on generated models of both shapes (Llama; Qwen2 with grouped-query attention and q/k/v biases).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AutoTokenizer } from '@huggingface/transformers';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { writeTinyModel, type TinyModelInfo, type TinyModelSpec } from '../support/tinyModel.ts';
import { loadTinyReferenceModel, type TinyReferenceModel } from '../support/tinyModelReference.ts';
import { TransformersProvider, type TransformersProviderOptions } from '../../src/models/transformers.ts';
import { ProviderError, type ChatMessage, type GenerateRequest, type GenerateResult } from '../../src/models/types.ts';

const root = mkdtempSync(path.join(tmpdir(), 'lokal-batched-gen-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ids = (x: unknown) => (x as Array<number | bigint>).map(Number);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type HfTokenizer = any;

/** transformers.js's generate, one request at a time: the behaviour every batched layout must reproduce. */
const SEQUENTIAL: TransformersProviderOptions = { env: {}, generateBatchSize: 1, sharePrefix: false, threads: 1 };

async function oneAtATime(dir: string, requests: GenerateRequest[]): Promise<Array<GenerateResult | Error>> {
  const p = new TransformersProvider(dir, SEQUENTIAL);
  try {
    const out: Array<GenerateResult | Error> = [];
    for (const r of requests) out.push(await p.generate([r]).then((x) => x[0]!, (e: Error) => e));
    return out;
  } finally {
    await p.close();
  }
}

/** Each request as its own concurrent call, as concurrent item tests make them. */
function concurrently(p: TransformersProvider, requests: GenerateRequest[]): Promise<Array<GenerateResult | Error>> {
  return Promise.all(requests.map((r) => p.generate([r]).then((x) => x[0]!, (e: Error) => e)));
}

const texts = (results: Array<GenerateResult | Error>) => results.map((r) => (r instanceof Error ? `error: ${r.message}` : r.text));

const instruction =
  'Answer the following question clearly and briefly, in one short sentence, without repeating the question. ' +
  'Sagutin ang tanong nang maikli at malinaw, sa isang pangungusap lamang. ';
const chat = (content: string): ChatMessage[] => [{ role: 'user', content }];

const cases: Array<{ name: string; spec: Partial<TinyModelSpec> }> = [
  { name: 'llama shape', spec: { seed: 21 } },
  { name: 'Qwen2 shape (4 heads, 2 key/value heads, q/k/v biases)', spec: { heads: 4, kvHeads: 2, qkvBias: true, seed: 22 } },
];

describe.each(cases)('batched generation, $name', ({ name, spec }) => {
  const dir = path.join(root, name.replace(/\W+/g, '-'));
  let info: TinyModelInfo;
  let tokenizer: HfTokenizer;
  let ref: TinyReferenceModel;

  beforeAll(async () => {
    info = writeTinyModel(dir, spec);
    tokenizer = await AutoTokenizer.from_pretrained(dir);
    ref = loadTinyReferenceModel(dir);
  });

  test('concurrent calls (chat and plain prompts, different budgets) answer as one at a time, in fewer passes', async () => {
    const requests: GenerateRequest[] = [
      { messages: chat(`${instruction}Ano ang kabisera ng Pilipinas?`), maxNewTokens: 3 },
      { messages: chat(`${instruction}Which river flows through the capital city?`), maxNewTokens: 17 },
      { messages: chat('Oo?'), maxNewTokens: 9 },
      { prompt: `${instruction}Question: What is 2 + 2?\nAnswer:`, maxNewTokens: 12 },
      { prompt: 'Numeri: 1, 2,', maxNewTokens: 1 },
      { messages: chat(`${instruction}Sino si Rizal?`), maxLength: 60 },
      { prompt: `${instruction}Question: Qual è la capitale d'Italia?\nAnswer:`, maxNewTokens: 24 },
    ];
    const expected = await oneAtATime(dir, requests);
    expect(expected.every((r) => !(r instanceof Error))).toBe(true);
    const p = new TransformersProvider(dir, { env: {}, threads: 1 });
    try {
      const results = await concurrently(p, requests);
      expect(texts(results)).toEqual(texts(expected));
      const stats = p.generationStats;
      expect(stats.requests).toBe(requests.length);
      expect(stats.largestBatch).toBeGreaterThanOrEqual(5); // rows done at their first token never join the decode batch
      // rows left at their own budgets: decode steps follow the longest row, not the sum of all rows
      const generated = stats.generatedTokens;
      expect(stats.decodeSteps).toBeLessThan(generated / 2);
      expect(stats.prefixHits).toBeGreaterThanOrEqual(5); // the chat header + instruction, computed once
      expect(stats.sharedPrefixes).toBeGreaterThanOrEqual(1);
      expect(stats.promptTokensComputed).toBeLessThan(stats.promptTokens);
      // after a batch's first step (which shows the session's output tensors), steps write into the engine's buffers
      expect(stats.decodeStepsInPlace).toBeGreaterThan(0);
      expect(stats.decodeStepsInPlace).toBeLessThan(stats.decodeSteps);
    } finally {
      await p.close();
    }
  });

  test('from the saved optimised graph, prompt passes compute logits at each row\'s last position only (in passes of a few tokens too); answers as one at a time', async () => {
    const requests: GenerateRequest[] = [
      { messages: chat(`${instruction}Ano ang kabisera ng Pilipinas?`), maxNewTokens: 5 },
      { messages: chat(`${instruction}Which river flows through the capital city?`), maxNewTokens: 9 },
      { prompt: `${instruction}Question: What is 2 + 2?\nAnswer:`, maxNewTokens: 7 },
      { prompt: 'Numeri: 1, 2,', maxNewTokens: 2 },
      { messages: chat(`${instruction}Sino si Rizal?`), maxNewTokens: 6 },
    ];
    const expected = await oneAtATime(dir, requests);
    const options: TransformersProviderOptions = { env: {}, threads: 1, cacheDir: path.join(dir, 'optimised-cache'), saveOptimised: true, log: () => undefined };
    // the first load runs the model's own graph (all positions) while it saves the edited one; later loads select
    for (const [kind, maxPassTokens] of [['optimised', 512], ['saved', 512], ['saved', 12]] as const) {
      // 12 positions a pass once the logits cap allows no more (it would allow a pass of 16M / vocab positions)
      const p = new TransformersProvider(dir, { ...options, maxPassTokens, ...(maxPassTokens === 12 ? { maxBatchLogits: 1 } : {}) });
      try {
        const results = await concurrently(p, requests);
        expect(p.loadReport?.kind).toBe(kind);
        expect(texts(results), `${kind}, maxPassTokens ${maxPassTokens}`).toEqual(texts(expected));
        const stats = p.generationStats;
        const promptPasses = stats.forwardCalls - stats.decodeSteps;
        expect(stats.lastLogitsPasses).toBe(kind === 'saved' ? promptPasses : 0);
        // the saved graph outputs each step's new keys and values, which the engine appends (newKeyValues.ts); the
        // model's own graph has only the whole caches, written into the engine's buffers after a batch's first step
        // ... and each row's greedy token, which every step of these greedy rows without processors fetches (nextToken.ts)
        if (kind === 'saved') expect([stats.decodeStepsAppended, stats.decodeStepsNextToken, stats.decodeStepsInPlace]).toEqual([stats.decodeSteps, stats.decodeSteps, 0]);
        else expect([stats.decodeStepsAppended, stats.decodeStepsNextToken, stats.decodeStepsInPlace > 0]).toEqual([0, 0, true]);
        expect(stats.sharedPrefixes).toBeGreaterThanOrEqual(1);
        // 12 positions a pass: the shared prefix and each prompt run in chunks, one row a pass
        if (maxPassTokens === 12) expect(promptPasses).toBeGreaterThan(Math.ceil(stats.promptTokensComputed / 12));
      } finally {
        await p.close();
      }
    }
  });

  test('rows stopping at different steps (stop strings spanning two tokens, EOS, budgets) leave while the others go on', async () => {
    const question = chat(`${instruction}Ano ang dapat gawin kapag may lindol?`);
    const promptIds = ids(tokenizer.apply_chat_template(question, { add_generation_prompt: true, return_tensor: false, return_dict: false }));
    const eos = [info.specialIds['<|im_end|>'], info.specialIds['<|endoftext|>']];
    const greedy = ref.greedy(promptIds, 24, eos).tokens.filter((t) => !eos.includes(t));
    const text = (n: number) => tokenizer.decode(greedy.slice(0, n)) as string;
    const full = text(greedy.length);
    // a stop string made of the last character of token k and the first character of token k + 1, found nowhere earlier
    const spanning = [];
    for (let k = 2; k + 1 < greedy.length; k++) {
      const before = text(k);
      const left = text(k + 1);
      const right = text(k + 2);
      if (!full.startsWith(left) || !full.startsWith(right) || left.length <= before.length || right.length <= left.length) continue;
      const stop = left.slice(-1) + right.slice(left.length, left.length + 1);
      if (!/\uFFFD/.test(stop) && full.indexOf(stop) === left.length - 1) spanning.push({ stop, at: left.length - 1 });
    }
    expect(spanning.length).toBeGreaterThan(0); // precondition
    const { stop, at } = spanning[0]!;
    const requests: GenerateRequest[] = [
      { messages: question, maxNewTokens: 24, stop: [stop] },
      { messages: question, maxNewTokens: 24, stop: ['zzzz-never', stop.slice(0, 1) + 'zzzz'] },
      { messages: question, maxNewTokens: 4 },
      { messages: question, maxNewTokens: 24 },
      { messages: chat('Oo?'), maxNewTokens: 30 },
      { prompt: `${instruction}Sagot:`, maxNewTokens: 11, stop: ['\n\n', 'Question:'] },
    ];
    const expected = await oneAtATime(dir, requests);
    expect((expected[0] as GenerateResult).text).toBe(full.slice(0, at));
    const p = new TransformersProvider(dir, { env: {}, threads: 1 });
    try {
      const answers = await concurrently(p, requests);
      expect(texts(answers)).toEqual(texts(expected));
      // all six rows start in one batch; each step at which some finish while others go on used to re-gather the cache
      const finishSteps = new Set(answers.map((a) => (a as GenerateResult).outputTokens)).size;
      expect(finishSteps).toBeGreaterThanOrEqual(4); // precondition
      expect(p.generationStats.largestBatch).toBe(requests.length);
      // finished rows idle in their slots until fewer than half the slots are live: 6 → 2 live re-gathers once
      expect(p.generationStats.decodeGathers).toBe(2);
    } finally {
      await p.close();
    }
  });

  test('greedy tokens of batched rows equal the float64 reference network for the first steps', async () => {
    const eos = [info.specialIds['<|im_end|>'], info.specialIds['<|endoftext|>']];
    const chats = [chat('Oo?'), chat(`${instruction}Sino si Rizal?`), chat(`${instruction}Which river flows through the capital city?`)];
    const steps = 8;
    const expected = chats.map((messages) => {
      const promptIds = ids(tokenizer.apply_chat_template(messages, { add_generation_prompt: true, return_tensor: false, return_dict: false }));
      const greedy = ref.greedy(promptIds, steps, eos);
      expect(Math.min(...greedy.margins)).toBeGreaterThan(1e-4); // precondition: no near-ties
      return tokenizer.decode(greedy.tokens.filter((t) => !eos.includes(t)), { skip_special_tokens: true });
    });
    const p = new TransformersProvider(dir, { env: {}, threads: 1 });
    try {
      const results = await concurrently(p, chats.map((messages) => ({ messages, maxNewTokens: steps })));
      expect(texts(results)).toEqual(expected);
      expect(p.generationStats.largestBatch).toBe(3);
    } finally {
      await p.close();
    }
  });

  test('a stored prefix ending mid-word: the token ids part early, the shorter match is reused and the fallback counted', async () => {
    const head = `${instruction}${instruction}Question: The capital of Italy is Rome and the capital of Germany is Berlin? Answer:`;
    const tail = ' The capital city of the Philippines is Manila, whose river is the Pasig.';
    // the first cut of the tail inside a word where the cut prompt's tokens are not a prefix of the whole prompt's
    let first: GenerateRequest | undefined;
    let a: number[] = [];
    const b = ids(tokenizer.encode(head + tail));
    for (let cut = 2; cut < tail.length && !first; cut++) {
      if (!/\w\w/.test(tail.slice(cut - 1, cut + 1))) continue;
      a = ids(tokenizer.encode(head + tail.slice(0, cut)));
      if (a.some((t, i) => b[i] !== t)) first = { prompt: head + tail.slice(0, cut), maxNewTokens: 6 };
    }
    expect(first).toBeDefined(); // precondition: such a boundary exists in this vocabulary
    const second: GenerateRequest = { prompt: head + tail, maxNewTokens: 6 };
    let common = 0;
    while (a[common] === b[common]) common++;
    expect(common).toBeGreaterThan(16);
    expect(a.length).toBeGreaterThanOrEqual(64); // kept whole as a possible prefix of later prompts
    const expected = await oneAtATime(dir, [first!, second]);
    const p = new TransformersProvider(dir, { env: {}, threads: 1 });
    try {
      const results = [...(await p.generate([first!])), ...(await p.generate([second]))];
      expect(texts(results)).toEqual(texts(expected));
      expect(p.generationStats).toMatchObject({ prefixMisses: 1, prefixHits: 1, prefixFallbacks: 1, prefixTokensReused: common });
      expect(p.generationStats.promptTokensComputed).toBe(a.length + b.length - common);
    } finally {
      await p.close();
    }
  });

  test('a batch with failing requests: those fail alone with one-line errors, the others are answered as one at a time', async () => {
    const small = path.join(root, `${name.replace(/\W+/g, '-')}-128`);
    writeTinyModel(small, { ...spec, maxPositions: 128 });
    const long = `${instruction}${instruction}`;
    const requests: GenerateRequest[] = [
      { messages: chat('Sino si Rizal?'), maxNewTokens: 10 },
      { continuation: 'neither prompt nor messages' } as unknown as GenerateRequest,
      { prompt: long, maxNewTokens: 4 }, // longer than the 128 positions the graph knows: fails in its prompt pass
      { prompt: `Question: ${instruction.slice(0, 120)}`, maxNewTokens: 100 }, // runs past position 128 while decoding
      { messages: chat('Ano ang kabisera ng Pilipinas?'), maxNewTokens: 12 },
      { prompt: 'Numeri: 1, 2,', maxNewTokens: 100 }, // still decoding when the step that overflows fails
    ];
    // preconditions: one prompt too long for the graph, one that outgrows it while decoding
    expect(ids(tokenizer.encode(long)).length).toBeGreaterThan(128);
    expect(ids(tokenizer.encode(requests[3]!.prompt)).length).toBeLessThan(100);
    const expected = await oneAtATime(small, requests);
    expect(expected.map((r) => r instanceof Error)).toEqual([false, true, true, true, false, false]);
    const p = new TransformersProvider(small, { env: {}, threads: 1 });
    try {
      const results = await concurrently(p, requests);
      expect(results.map((r) => r instanceof Error)).toEqual([false, true, true, true, false, false]);
      for (const i of [0, 4, 5]) expect((results[i] as GenerateResult).text).toBe((expected[i] as GenerateResult).text);
      for (const i of [1, 2, 3]) {
        expect(results[i]).toBeInstanceOf(ProviderError);
        expect((results[i] as Error).message).not.toContain('\n');
      }
      expect((results[1] as ProviderError).kind).toBe('config');
      expect((results[2] as ProviderError).kind).toBe('inference');
      expect((results[3] as ProviderError).kind).toBe('inference');
      expect(p.generationStats.largestBatch).toBeGreaterThanOrEqual(4);
    } finally {
      await p.close();
    }
  });
});

describe('batched generation: scheduling, processors, settings', () => {
  const dir = path.join(root, 'penalty');
  beforeAll(() => {
    // a repetition penalty in generation_config.json (Qwen2.5-Instruct ships 1.1): transformers.js applies it to greedy decoding too
    writeTinyModel(dir, { seed: 23, heads: 4, kvHeads: 2, qkvBias: true }, {
      generationConfig: { eos_token_id: [385, 384], pad_token_id: 384, do_sample: false, repetition_penalty: 1.5 },
    });
  });

  test('the model\'s repetition penalty applies to each row as transformers.js applies it', async () => {
    const requests: GenerateRequest[] = ['Oo?', `${instruction}Sino si Rizal?`, `${instruction}Ano ang kabisera?`].map((q) => ({ messages: chat(q), maxNewTokens: 20 }));
    const expected = await oneAtATime(dir, requests);
    const p = new TransformersProvider(dir, { env: {}, threads: 1 });
    const noPenalty = new TransformersProvider(dir, { env: {}, threads: 1 });
    try {
      expect(texts(await concurrently(p, requests))).toEqual(texts(expected));
      // precondition that the penalty matters: without it the text differs
      (await noPenalty.load()).model.generation_config!.repetition_penalty = 1;
      expect(texts(await concurrently(noPenalty, requests))).not.toEqual(texts(expected));
    } finally {
      await p.close();
      await noPenalty.close();
    }
  });

  test('from the saved graph, rows with a repetition penalty take their logits, not the graph\'s greedy token', async () => {
    const requests: GenerateRequest[] = ['Oo?', `${instruction}Sino si Rizal?`, `${instruction}Ano ang kabisera?`].map((q) => ({ messages: chat(q), maxNewTokens: 20 }));
    const expected = await oneAtATime(dir, requests);
    const options: TransformersProviderOptions = { env: {}, threads: 1, cacheDir: path.join(dir, 'optimised-cache'), saveOptimised: true, log: () => undefined };
    for (const kind of ['optimised', 'saved']) {
      const p = new TransformersProvider(dir, options);
      try {
        expect(texts(await concurrently(p, requests)), kind).toEqual(texts(expected));
        expect(p.loadReport?.kind).toBe(kind);
        const stats = p.generationStats;
        expect([stats.decodeSteps > 0, stats.decodeStepsNextToken]).toEqual([true, 0]);
        if (kind === 'saved') expect(stats.decodeStepsAppended).toBe(stats.decodeSteps);
      } finally {
        await p.close();
      }
    }
  });

  test('a call made while a batch decodes joins it; scoring calls made meanwhile get the model between batches', async () => {
    const p = new TransformersProvider(dir, { env: {}, threads: 1, generateBatchSize: 4 });
    const first: GenerateRequest[] = ['Oo?', 'Hindi?', `${instruction}Sino si Rizal?`].map((q) => ({ messages: chat(q), maxNewTokens: 40 }));
    const late: GenerateRequest = { messages: chat(`${instruction}Ano ang kabisera?`), maxNewTokens: 10 };
    const later: GenerateRequest[] = Array.from({ length: 5 }, (_, i) => ({ messages: chat(`Question ${i}: ${instruction}`), maxNewTokens: 5 + i }));
    const expected = await oneAtATime(dir, [...first, late, ...later]);
    try {
      await p.load();
      const running = concurrently(p, first);
      // wait until the first batch is decoding, then add one call and a scoring call
      while (p.generationStats.decodeSteps < 3) await new Promise((resolve) => setTimeout(resolve, 1));
      const joined = p.generate([late]);
      const scored = p.scoreContinuations([{ messages: chat('Oo?'), continuation: 'Oo, tama.' }]);
      const rest = concurrently(p, later);
      const [a, b, c, d] = await Promise.all([running, joined, scored, rest]);
      expect(texts([...a, ...b, ...d])).toEqual(texts(expected));
      expect(c[0]!.tokenCount).toBeGreaterThan(0);
      expect(p.generationStats.joinedRunning).toBeGreaterThanOrEqual(1);
      expect(p.generationStats.largestBatch).toBeLessThanOrEqual(4);
    } finally {
      await p.close();
    }
  });

  test('batch size 1 with prefix reuse, and maxBatchTokens too small for two rows, still answer as one at a time', async () => {
    const requests: GenerateRequest[] = ['Oo?', 'Hindi?', 'Siguro?'].map((q) => ({ messages: chat(`${instruction}${q}`), maxNewTokens: 6 }));
    const expected = await oneAtATime(dir, requests);
    for (const options of [{ generateBatchSize: 1 }, { maxBatchTokens: 40 }]) {
      const p = new TransformersProvider(dir, { env: {}, threads: 1, ...options });
      try {
        expect(texts(await concurrently(p, requests))).toEqual(texts(expected));
        expect(p.generationStats.largestBatch).toBe(1);
        expect(p.generationStats.prefixHits).toBeGreaterThanOrEqual(2);
      } finally {
        await p.close();
      }
    }
  });

  test('settings are checked', () => {
    expect(() => new TransformersProvider(dir, { env: {}, generateBatchSize: 0 })).toThrow(/generateBatchSize must be a positive integer/);
    expect(() => new TransformersProvider(dir, { env: {}, maxBatchTokens: 1.5 })).toThrow(/maxBatchTokens must be a positive integer/);
    expect(() => new TransformersProvider(dir, { env: {}, prefixCacheTokens: -1 })).toThrow(/prefixCacheTokens must be a non-negative integer/);
  });
});
