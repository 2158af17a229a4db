// Sampled decoding on transformers: (a generated tiny model): a trial's answer is its own whatever the batch size,
// concurrency or numerics path; the first sampled token follows softmax(logits / T) cut to top-p, with the logits
// computed independently by the float64 reference network; temperature 0 and a one-token nucleus equal greedy.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AutoTokenizer } from '@huggingface/transformers';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { incompleteGamma } from '../../src/core/statistics/index.ts';
import { trialSeed } from '../../src/core/trialSeed.ts';
import { TransformersProvider, type TransformersProviderOptions } from '../../src/models/transformers.ts';
import type { GenerateRequest } from '../../src/models/types.ts';
import { writeTinyModel } from '../support/tinyModel.ts';
import { loadTinyReferenceModel, type TinyReferenceModel } from '../support/tinyModelReference.ts';

const root = mkdtempSync(path.join(tmpdir(), 'lokal-sampled-'));
const dir = path.join(root, 'tiny');
let ref: TinyReferenceModel;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let tokenizer: any;
beforeAll(async () => {
  writeTinyModel(dir, { seed: 41 });
  ref = loadTinyReferenceModel(dir);
  tokenizer = await AutoTokenizer.from_pretrained(dir);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function answers(options: TransformersProviderOptions, requests: GenerateRequest[], concurrent: boolean): Promise<string[]> {
  const p = new TransformersProvider(dir, { env: {}, threads: 1, ...options });
  try {
    if (concurrent) return (await Promise.all(requests.map((r) => p.generate([r])))).map((x) => x[0]!.text);
    const out: string[] = [];
    for (const r of requests) out.push((await p.generate([r]))[0]!.text);
    return out;
  } finally {
    await p.close();
  }
}

const PROMPTS = ['Question: What is the capital of Italy?\nAnswer:', 'Ano ang kabisera ng Pilipinas?', 'Numeri: 1, 2,', 'The river'];
// Four trials of each prompt, seeded as MultiLoKo seeds them (base seed 42, the prompt's index as item id).
const TRIALS: GenerateRequest[] = PROMPTS.flatMap((prompt, i) =>
  [0, 1, 2, 3].map((t) => ({ prompt, maxNewTokens: 10, temperature: 0.9, topP: 0.95, seed: trialSeed(42, String(i), t) })),
);

describe('transformers: sampled trials', () => {
  test('the same seed gives the same answer at batch 1 and 8, concurrency 1 and 8, and on the exact path', async () => {
    const base = await answers({ generateBatchSize: 1 }, TRIALS, false);
    expect(await answers({ generateBatchSize: 8 }, TRIALS, true)).toEqual(base);
    expect(await answers({ generateBatchSize: 8 }, TRIALS, false)).toEqual(base);
    expect(await answers({ generateBatchSize: 1 }, TRIALS, true)).toEqual(base);
    // transformers.js's own generate (one request at a time), drawing with the request's generator
    expect(await answers({ numerics: 'exact' }, TRIALS, true)).toEqual(base);
    // sampling is on: the four trials of a prompt do not all agree
    for (let i = 0; i < PROMPTS.length; i++) expect(new Set(base.slice(4 * i, 4 * i + 4)).size).toBeGreaterThan(1);
  });

  test('temperature 0, and a nucleus of one token, give the greedy answer exactly', async () => {
    const greedy = PROMPTS.map((prompt) => ({ prompt, maxNewTokens: 10 }));
    const expected = await answers({}, greedy, true);
    for (const extra of [{ temperature: 0, topP: 0.5, seed: 3 }, { temperature: 1.5, topP: 1e-9, seed: 3 }]) {
      const asked = greedy.map((r) => ({ ...r, ...extra }));
      expect(await answers({}, asked, true)).toEqual(expected);
      expect(await answers({ numerics: 'exact' }, asked, true)).toEqual(expected);
    }
  });

  test('the first sampled token over 1,200 seeds follows the reference logits (χ², p > 0.001); tokens cut by top-p never come', async () => {
    const prompt = 'Question: What is the capital of Italy?\nAnswer:';
    const temperature = 0.7;
    const topP = 0.6;
    // softmax(logits / T) of the float64 reference, sorted, cut at the smallest prefix reaching top-p, renormalised
    const logits = ref.lastLogits((tokenizer.encode(prompt) as number[]).map(Number));
    const top = Math.max(...logits);
    const weights = Array.from(logits, (l, token) => ({ token, w: Math.exp((l - top) / temperature) }));
    const total = weights.reduce((s, x) => s + x.w, 0);
    weights.sort((a, b) => b.w - a.w);
    let mass = 0;
    const kept: Array<{ token: number; w: number }> = [];
    for (const x of weights) {
      if (mass / total >= topP) break;
      kept.push(x);
      mass += x.w;
    }
    // precondition: the cut is not within float32 noise of top-p
    expect(Math.abs(mass / total - topP)).toBeGreaterThan(1e-4);
    expect(kept.length).toBeGreaterThan(3);
    const n = 1200;
    const requests = Array.from({ length: n }, (_, t) => ({ prompt, maxNewTokens: 1, temperature, topP, seed: trialSeed(7, 'first', t) }));
    const p = new TransformersProvider(dir, { env: {}, threads: 1 });
    // an answer is its one token's text (special tokens: empty): counted by text, expected summed by text
    const textOf = (token: number): string => tokenizer.decode([token], { skip_special_tokens: true });
    const counts = new Map<string, number>();
    try {
      for (const r of await Promise.all(requests.map((r) => p.generate([r])))) counts.set(r[0]!.text, (counts.get(r[0]!.text) ?? 0) + 1);
    } finally {
      await p.close();
    }
    const expectedByText = new Map<string, number>();
    for (const { token, w } of kept) expectedByText.set(textOf(token), (expectedByText.get(textOf(token)) ?? 0) + (n * w) / mass);
    for (const text of counts.keys()) expect(expectedByText.has(text)).toBe(true);
    // Pearson's χ²: bins of expected count ≥ 5, the rest pooled into one
    let chi = 0;
    let bins = 0;
    let poolObserved = 0;
    let poolExpected = 0;
    for (const [text, e] of expectedByText) {
      const o = counts.get(text) ?? 0;
      if (e >= 5) {
        chi += (o - e) ** 2 / e;
        bins++;
      } else {
        poolObserved += o;
        poolExpected += e;
      }
    }
    if (poolExpected > 0) {
      chi += (poolObserved - poolExpected) ** 2 / poolExpected;
      bins++;
    }
    expect(bins).toBeGreaterThan(2);
    const pValue = 1 - incompleteGamma((bins - 1) / 2, chi / 2);
    expect(pValue).toBeGreaterThan(0.001);
  });

  test('a bad seed or temperature is a config error naming the request', async () => {
    const p = new TransformersProvider(dir, { env: {}, threads: 1 });
    try {
      await expect(p.generate([{ prompt: 'x y', temperature: 1, seed: -1 }])).rejects.toThrow(/request 0: seed must be an integer from 0 to 4294967295 \(got -1\)/);
      await expect(p.generate([{ prompt: 'x y', temperature: -0.5 }])).rejects.toThrow(/temperature must be a number ≥ 0/);
    } finally {
      await p.close();
    }
  });
});
