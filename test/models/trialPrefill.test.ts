// The k trials of one prompt share one prompt pass in transformers:'s batched engine: each trial's answer stays the one
// it gets alone (transformers.js's own generate, one request at a time, same seed) at every batch size, with prefix
// reuse on or off and 1 or 16 calls in flight, on a generated Qwen2-shaped model (Qwen2.5's tokenizer) in fp32 and q8.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AutoTokenizer } from '@huggingface/transformers';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { trialSeed } from '../../src/core/trialSeed.ts';
import { samePromptLeaders } from '../../src/models/batchedGeneration.ts';
import { TransformersProvider, type TransformersProviderOptions } from '../../src/models/transformers.ts';
import type { ChatMessage, GenerateRequest } from '../../src/models/types.ts';
import { writeQuantisedModel } from '../support/quantiseOnnx.ts';
import { qwenTokenizerDir, writeTinyModel } from '../support/tinyModel.ts';

const root = mkdtempSync(path.join(tmpdir(), 'lokal-trial-prefill-'));
const dir = path.join(root, 'qwen-tiny');
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let tokenizer: any;

beforeAll(async () => {
  // npm run make:tiny-model -- DIR --tokenizer qwen2.5 --vocab 151665 --layers 2 --hidden 64 --heads 4 --kv-heads 2 --qkv-bias --dtypes fp32,q8,
  // with Qwen2.5-Instruct's repetition penalty, which each row's processors apply to its own copy of the first logits
  writeTinyModel(
    dir,
    { vocab: 151665, layers: 2, hidden: 64, heads: 4, kvHeads: 2, qkvBias: true, seed: 61 },
    { tokenizerDir: qwenTokenizerDir(), generationConfig: { eos_token_id: [151645, 151643], pad_token_id: 151643, do_sample: false, repetition_penalty: 1.1 } },
  );
  writeQuantisedModel(dir, 'q8');
  tokenizer = await AutoTokenizer.from_pretrained(dir);
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const chat = (content: string): ChatMessage[] => [{ role: 'system', content: 'Sagutin nang maikli. Answer briefly, in a few words.' }, { role: 'user', content }];
/** Items as MultiLoKo's item test asks them: each item's trials together, seeded by trialSeed(42, item id, t). */
const ITEMS: Array<{ id: string; request: GenerateRequest; trials: number; sampling?: { temperature: number; topP: number } }> = [
  { id: 'roma', request: { messages: chat('Qual è la capitale d\'Italia?'), maxNewTokens: 5 }, trials: 5, sampling: { temperature: 1, topP: 1 } },
  { id: 'manila', request: { prompt: 'Question: Ano ang kabisera ng Pilipinas?\nAnswer:', maxNewTokens: 5, stop: ['\n'] }, trials: 4, sampling: { temperature: 0.8, topP: 1 } },
  { id: 'rizal', request: { messages: chat('Sino si Rizal?'), maxNewTokens: 3 }, trials: 3, sampling: { temperature: 1.2, topP: 0.9 } },
  // greedy trials (temperature unset): each is its own cache entry, all the same answer
  { id: 'numbers', request: { prompt: 'Numeri: 1, 2, 3,', maxNewTokens: 5 }, trials: 2 },
];
const TRIALS: GenerateRequest[] = ITEMS.flatMap(({ id, request, trials, sampling }) =>
  Array.from({ length: trials }, (_, t) => ({ ...request, ...sampling, ...(sampling ? { seed: trialSeed(42, id, t) } : {}), ...(t > 0 ? { trial: t } : {}), itemKey: id })),
);

/** Runs the requests with `concurrency` calls in flight, each its own call (as concurrent item tests make them). */
async function inFlight(p: TransformersProvider, requests: GenerateRequest[], concurrency: number): Promise<string[]> {
  const out = new Array<string>(requests.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests.length) {
        const i = next++;
        out[i] = (await p.generate([requests[i]!]))[0]!.text;
      }
    }),
  );
  return out;
}

async function run(dtype: 'fp32' | 'q8', options: TransformersProviderOptions, concurrency: number) {
  const p = new TransformersProvider(dir, { env: {}, dtype, threads: 1, cacheDir: path.join(root, 'model-cache'), log: () => undefined, ...options });
  try {
    const answers = await inFlight(p, TRIALS, concurrency);
    return { answers, numerics: p.numerics, stats: { ...p.generationStats } };
  } finally {
    await p.close();
  }
}

/** transformers.js's own generate, one request at a time: what every trial answers alone. */
const ALONE: TransformersProviderOptions = { generateBatchSize: 1, sharePrefix: false };
const LAYOUTS: Array<{ name: string; options: TransformersProviderOptions; concurrency: number }> = [
  { name: 'batch 8, prefix reuse, 16 in flight', options: { generateBatchSize: 8 }, concurrency: 16 },
  { name: 'batch 16, no prefix reuse, 16 in flight', options: { generateBatchSize: 16, sharePrefix: false }, concurrency: 16 },
  { name: 'batch 8, prefix reuse, 1 in flight', options: { generateBatchSize: 8 }, concurrency: 1 },
  { name: 'batch 3, prefix reuse, every call at once (an item\'s trials split over admissions)', options: { generateBatchSize: 3 }, concurrency: TRIALS.length },
  { name: 'batch 32, no prefix reuse, every call at once', options: { generateBatchSize: 32, sharePrefix: false }, concurrency: TRIALS.length },
];

const promptIds = (r: GenerateRequest): number[] =>
  (r.messages ? tokenizer.encode(tokenizer.apply_chat_template(r.messages, { add_generation_prompt: true, tokenize: false }), { add_special_tokens: false }) : tokenizer.encode(r.prompt)).map(Number);

describe('samePromptLeaders', () => {
  test('each sequence points at the first equal one; a prefix or a longer sequence is not equal', () => {
    expect(samePromptLeaders([[1, 2], [3], [1, 2], [1, 2, 3], [1], [3], [1, 2]])).toEqual([0, 1, 0, 3, 4, 1, 0]);
    expect(samePromptLeaders([])).toEqual([]);
    // "12,3" and "1,23" join to different keys
    expect(samePromptLeaders([[12, 3], [1, 23]])).toEqual([0, 1]);
  });
});

describe('transformers: the trials of one prompt share its prompt pass', () => {
  test('fp32: every layout gives each trial its answer alone; all trials at once run each prompt once', async () => {
    const alone = await run('fp32', ALONE, 1);
    expect(alone.numerics).toBe('batched');
    // sampling is on: the trials of a sampled item do not all agree; the greedy trials do
    let at = 0;
    for (const item of ITEMS) {
      const answers = alone.answers.slice(at, (at += item.trials));
      if (item.sampling) expect(new Set(answers).size, item.id).toBeGreaterThan(1);
      else expect(new Set(answers).size, item.id).toBe(1);
    }
    for (const layout of LAYOUTS) {
      const got = await run('fp32', layout.options, layout.concurrency);
      expect(got.answers, layout.name).toEqual(alone.answers);
      if (layout.concurrency === 1) expect(got.stats.sharedPromptRows, layout.name).toBe(0);
      else expect(got.stats.sharedPromptRows, layout.name).toBeGreaterThan(0);
      if (layout.options.generateBatchSize === 32) {
        // one admission of all 14 calls: each item's prompt runs once, whole (no prefix reuse), the other trials copy it
        const unique = ITEMS.map((item) => promptIds(item.request).length);
        expect(got.stats.promptTokens).toBe(ITEMS.reduce((s, item, i) => s + item.trials * unique[i]!, 0));
        expect(got.stats.promptTokensComputed).toBe(unique.reduce((a, b) => a + b, 0));
        expect(got.stats.sharedPromptRows).toBe(TRIALS.length - ITEMS.length);
      }
    }
  }, 600_000);

  test('q8: the exact mode batched per item gives each trial its answer alone; trials share a prompt pass, no prefix is reused', async () => {
    const alone = await run('q8', ALONE, 1);
    // per-tensor activation quantisation: exact numerics, batched with each item quantised on its own
    expect(alone.numerics).toBe('exact');
    for (const layout of LAYOUTS) {
      const got = await run('q8', layout.options, layout.concurrency);
      expect(got.numerics).toBe('exact');
      expect(got.answers, layout.name).toEqual(alone.answers);
      // a stored prefix would split the prompt its quantisation scale is taken over
      expect([got.stats.prefixHits, got.stats.sharedPrefixes], layout.name).toEqual([0, 0]);
      if (layout.concurrency === 1) expect(got.stats.sharedPromptRows, layout.name).toBe(0);
      else expect(got.stats.sharedPromptRows, layout.name).toBeGreaterThan(0);
    }
  }, 600_000);
});
