// An item's result is its own on q8, q4 and fp16 copies of generated Qwen2 and Llama models: 24 items' greedy answers
// and multiple-choice log-probabilities are the same whatever the batch size (1, 8, 16), prefix reuse, concurrency
// (1 or 16 calls in flight), thread count and the saved optimised graph, and in the exact mode (q8, fp16) equal transformers.js's own generate one prompt at a time
// and its forward within 1e-4. q8's exact mode batches its decode steps (each item quantised on its own: perItemQuantisation.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AutoModelForCausalLM, AutoTokenizer, Tensor } from '@huggingface/transformers';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TransformersProvider, type TransformersProviderOptions } from '../../src/models/transformers.ts';
import type { ChatMessage, ContinuationRequest, GenerateRequest } from '../../src/models/types.ts';
import { writeQuantisedModel, type QuantisedDtype } from '../support/quantiseOnnx.ts';
import { writeTinyModel, type TinyModelSpec } from '../support/tinyModel.ts';

const root = mkdtempSync(path.join(tmpdir(), 'lokal-quantised-parity-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const QUESTIONS = [
  'Ano ang kabisera ng Pilipinas?', 'Which river flows through Rome?', 'Qual è la capitale della Francia?', 'Sino si Rizal?',
  'Wie heißt die Hauptstadt von Deutschland?', '¿Dónde está la estación de tren?', 'What is 2 + 2?', 'Oo?',
  'Столица России?', '日本の首都は?', 'Who wrote the letter to the mayor of the town?', 'Salamat po?',
  'La capital de España?', 'Numbers: 1, 2, 3, and then?', 'Thủ đô của Việt Nam?', 'A capital do Brasil?',
  'Il fiume più lungo?', 'Das Wetter ist heute schön?', 'Ano ang sagot?', 'Which town is on the bay?',
  'Kailan ang pista?', 'Is the answer short and exact?', 'Dove si trova Milano?', 'Ang Maynila ba ay malaki?',
];
const SYSTEM = 'Sagutin nang maikli at malinaw. Answer clearly and briefly, in one short sentence.';
const messages = (q: string): ChatMessage[] => [{ role: 'system', content: SYSTEM }, { role: 'user', content: q }];
const GENERATE: GenerateRequest[] = QUESTIONS.map((q, i) => ({ messages: messages(q), maxNewTokens: 6 + (i % 5), itemKey: `g${i}` }));
const ANSWERS = ['Maynila.', 'Hindi ko alam.', 'Roma, certo.'];
const SCORE: ContinuationRequest[] = QUESTIONS.slice(0, 8).flatMap((q, i) => ANSWERS.map((continuation) => ({ messages: messages(q), continuation, itemKey: `s${i}` })));

/** The layouts an item must not notice: batch sizes, prefix reuse, calls in flight. */
const LAYOUTS: Array<{ name: string; options: TransformersProviderOptions; concurrency: number }> = [
  { name: 'batch 1, no prefix reuse, 1 in flight', options: { generateBatchSize: 1, batchSize: 1, sharePrefix: false, cacheDir: path.join(root, 'model-cache') }, concurrency: 1 },
  { name: 'batch 8, prefix reuse, 16 in flight', options: { generateBatchSize: 8, batchSize: 8, sharePrefix: true, cacheDir: path.join(root, 'model-cache') }, concurrency: 16 },
  { name: 'batch 16, no prefix reuse, 16 in flight', options: { generateBatchSize: 16, batchSize: 16, sharePrefix: false, cacheDir: path.join(root, 'model-cache') }, concurrency: 16 },
  { name: 'batch 8, one thread, optimised and saved', options: { generateBatchSize: 8, batchSize: 8, threads: 1, saveOptimised: true, cacheDir: path.join(root, 'model-cache') }, concurrency: 16 },
  { name: 'batch 8, one thread, the saved optimised graph', options: { generateBatchSize: 8, batchSize: 8, threads: 1, saveOptimised: true, cacheDir: path.join(root, 'model-cache') }, concurrency: 16 },
];

/** Runs the requests with `concurrency` calls in flight, each item its own call (as concurrent item tests make them). */
async function inFlight<R, T>(requests: R[], concurrency: number, call: (r: R) => Promise<T>): Promise<T[]> {
  const out = new Array<T>(requests.length);
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < requests.length) {
      const i = next++;
      out[i] = await call(requests[i]!);
    }
  }));
  return out;
}

async function runLayout(dir: string, dtype: QuantisedDtype, layout: (typeof LAYOUTS)[number]) {
  const p = new TransformersProvider(dir, { env: {}, dtype, log: () => undefined, ...layout.options });
  try {
    const answers = await inFlight(GENERATE, layout.concurrency, async (r) => (await p.generate([r]))[0]!.text);
    const logprobs = await inFlight(SCORE, layout.concurrency, async (r) => (await p.scoreContinuations([r]))[0]!.logprob);
    return { numerics: p.numerics, load: p.loadReport?.kind, largestBatch: p.generationStats.largestBatch, answers, logprobs };
  } finally {
    await p.close();
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Hf = any;
const ids = (x: unknown) => (x as Array<number | bigint>).map(Number);
const int64 = (values: number[]) => new Tensor('int64', BigInt64Array.from(values.map(BigInt)), [1, values.length]);

/** transformers.js alone, one prompt at a time: its generate's greedy answers and its forward's log-probabilities. */
async function runtime(dir: string, dtype: QuantisedDtype) {
  const tokenizer: Hf = await AutoTokenizer.from_pretrained(dir);
  const model: Hf = await AutoModelForCausalLM.from_pretrained(dir, { dtype, device: 'cpu' });
  const chat = (m: ChatMessage[], generation: boolean) => ids(tokenizer.apply_chat_template(m, { add_generation_prompt: generation, return_tensor: false, return_dict: false }));
  try {
    const answers: string[] = [];
    for (const r of GENERATE) {
      const prompt = chat(r.messages!, true);
      const out = await model.generate({ input_ids: int64(prompt), attention_mask: int64(prompt.map(() => 1)), max_new_tokens: r.maxNewTokens, do_sample: false });
      const generated = ids(out.tolist()[0]).slice(prompt.length);
      const eos = generated.findIndex((t) => [model.generation_config.eos_token_id].flat().includes(t));
      answers.push(tokenizer.decode(eos >= 0 ? generated.slice(0, eos) : generated, { skip_special_tokens: true }));
    }
    const logprobs: number[] = [];
    for (const r of SCORE) {
      const p = chat(r.messages!, true).length;
      const full = chat([...r.messages!, { role: 'assistant', content: r.continuation }], false);
      const out = await model({ input_ids: int64(full), attention_mask: int64(full.map(() => 1)) });
      const logits = out.logits.to('float32').data as Float32Array;
      const vocab = logits.length / full.length;
      let sum = 0;
      for (let t = p; t < full.length; t++) {
        const row = logits.subarray((t - 1) * vocab, t * vocab);
        let max = -Infinity;
        for (const v of row) max = Math.max(max, v);
        let z = 0;
        for (const v of row) z += Math.exp(v - max);
        sum += row[full[t]!]! - max - Math.log(z);
      }
      logprobs.push(sum);
    }
    return { answers, logprobs };
  } finally {
    await model.dispose();
  }
}

const cases: Array<{ name: string; spec: Partial<TinyModelSpec> }> = [
  { name: 'qwen2', spec: { heads: 4, kvHeads: 2, qkvBias: true, hidden: 64, maxPositions: 512, seed: 41 } },
  { name: 'llama', spec: { heads: 4, hidden: 64, maxPositions: 512, seed: 42 } },
];

describe.each(cases)('quantised $name model', ({ name, spec }) => {
  const dir = path.join(root, name);
  beforeAll(() => {
    writeTinyModel(dir, spec);
    for (const dtype of ['q8', 'q4', 'fp16'] as const) writeQuantisedModel(dir, dtype);
  });

  test.each(['q8', 'fp16', 'q4'] as const)('%s: every layout gives each item the same answer and log-probabilities', async (dtype) => {
    const runs = [];
    for (const layout of LAYOUTS) runs.push(await runLayout(dir, dtype, layout));
    const [first, ...rest] = runs;
    expect(first!.numerics).toBe(dtype === 'q4' ? 'batched' : 'exact');
    // q8's exact mode keeps a per-item graph whatever the model's size (made once, then loaded); the others save from 64 MiB
    expect(runs.map((r) => r.load)).toEqual(dtype === 'q8' ? ['optimised', 'saved', 'saved', 'saved', 'saved'] : ['plain', 'plain', 'plain', 'optimised', 'saved']);
    // decode steps batched in every layout that allows it, but fp16's (exact, one prompt at a time)
    expect(runs.map((r) => r.largestBatch > 1)).toEqual(dtype === 'fp16' ? [false, false, false, false, false] : [false, true, true, true, true]);
    expect(new Set(first!.answers).size).toBeGreaterThan(4);
    for (const [i, run] of rest.entries()) {
      expect(run.answers, LAYOUTS[i + 1]!.name).toEqual(first!.answers);
      // float32 sums split differently (a shared prefix's cache): within 1e-6 of the log-probability's size
      run.logprobs.forEach((lp, j) => expect(Math.abs(lp - first!.logprobs[j]!), `${LAYOUTS[i + 1]!.name}, item ${j}`).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(lp))));
    }
    if (first!.numerics === 'exact') {
      const reference = await runtime(dir, dtype);
      expect(first!.answers).toEqual(reference.answers);
      first!.logprobs.forEach((lp, j) => expect(Math.abs(lp - reference.logprobs[j]!), `item ${j}`).toBeLessThanOrEqual(1e-4));
    }
  });
});
