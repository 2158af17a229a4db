// What our scheduling gives on llama.cpp, small models only: 16 base-mode items sharing a few-shot prefix × 32 new
// tokens, on one model folder (ONNX + model.gguf from `make:tiny-model -- --format gguf`), in alternating rounds:
//   direct  — node-llama-cpp's own API, one item at a time, each prompt evaluated whole (the runtime's plain loop)
//   llama:  — one sequence / 8 sequences (batched decoding), with and without reusing the prompt prefix a sequence holds
//   transformers: — our ONNX path, batched with prefix reuse (its defaults)
// Usage: npx tsx bench/llamaScheduling.ts [<model dir>]   (default: builds inRunGeneration.ts's 6-layer model in a temp dir)
// BENCH_ROUNDS (default 2), BENCH_ITEMS (16), BENCH_NEW_TOKENS (32), LOKAL_LLAMA_THREADS (the provider's default).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getLlama, LlamaLogLevel, type Token } from 'node-llama-cpp';
import { LlamaProvider } from '../src/models/llama.ts';
import { TransformersProvider } from '../src/models/transformers.ts';
import type { GenerateRequest, ModelProvider } from '../src/models/types.ts';
import { writeTinyModel } from '../test/support/tinyModel.ts';
import { writeTinyModelGguf } from '../test/support/tinyModelGguf.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const ITEMS = Number(process.env.BENCH_ITEMS ?? 16);
const NEW_TOKENS = Number(process.env.BENCH_NEW_TOKENS ?? 32);

const SHOTS = [
  ['What is the capital of France?', 'Paris'],
  ['Which river flows through Rome?', 'The Tiber'],
  ['Who wrote the Divine Comedy?', 'Dante Alighieri'],
  ['What is the highest mountain in the Alps?', 'Mont Blanc'],
  ['In which city is the Uffizi gallery?', 'Florence'],
];
const prefix = `Answer the question briefly.\n\n${SHOTS.map(([q, a]) => `Q: ${q}\nA: ${a}\n`).join('\n')}\n`;
const requests: GenerateRequest[] = Array.from({ length: ITEMS }, (_, i) => ({ prompt: `${prefix}Q: What is item number ${i + 1} of the list?\nA:`, maxNewTokens: NEW_TOKENS }));

let dir = process.argv[2];
let temp: string | undefined;
if (!dir) {
  temp = mkdtempSync(path.join(tmpdir(), 'lokal-llama-bench-'));
  dir = path.join(temp, 'model');
  const info = writeTinyModel(dir, { layers: 6, hidden: 512, heads: 8, kvHeads: 2, qkvBias: true, intermediate: 1408, vocab: 8000 });
  writeTinyModelGguf(dir, info.spec);
}
if (!existsSync(path.join(dir, 'model.gguf'))) throw new Error(`${dir} has no model.gguf: make it with npm run make:tiny-model -- ${dir} --format gguf`);
const gguf = path.join(dir, 'model.gguf');

interface Sample {
  name: string;
  loadMs: number;
  itemsPerSecond: number;
  promptComputed?: string;
  texts: string[];
}

async function timeProvider(name: string, make: () => ModelProvider & { load(): Promise<unknown>; close(): Promise<void> }): Promise<Sample> {
  const provider = make();
  const t0 = performance.now();
  await provider.load();
  const loadMs = performance.now() - t0;
  await provider.generate([{ prompt: 'Warm up.', maxNewTokens: 2 }]);
  const before = provider instanceof LlamaProvider ? { ...provider.generationStats } : undefined;
  const started = performance.now();
  const results = await provider.generate(requests);
  const seconds = (performance.now() - started) / 1000;
  let promptComputed: string | undefined;
  if (provider instanceof LlamaProvider && before) {
    const s = provider.generationStats;
    promptComputed = `${s.promptTokensComputed - before.promptTokensComputed}/${s.promptTokens - before.promptTokens}`;
  }
  await provider.close();
  return { name, loadMs, itemsPerSecond: ITEMS / seconds, promptComputed, texts: results.map((r) => r.text) };
}

/** node-llama-cpp driven directly: one item at a time, a cleared sequence per item, greedy. */
async function direct(): Promise<Sample> {
  const t0 = performance.now();
  const llama = await getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.error });
  const model = await llama.loadModel({ modelPath: gguf });
  const threads = process.env.LOKAL_LLAMA_THREADS ? Number(process.env.LOKAL_LLAMA_THREADS) : model.size < 64 * 2 ** 20 ? 1 : undefined;
  const context = await model.createContext({ contextSize: 2048, flashAttention: false, experimentalKvCacheKeyType: 'F32', experimentalKvCacheValueType: 'F32', ...(threads ? { threads } : {}) });
  const loadMs = performance.now() - t0;
  const sequence = context.getSequence();
  const started = performance.now();
  for (const req of requests) {
    await sequence.clearHistory();
    let n = 0;
    for await (const t of sequence.evaluate(model.tokenize(req.prompt!, true), { temperature: 0, yieldEogToken: true })) if (++n >= NEW_TOKENS || model.isEogToken(t as Token)) break;
  }
  const seconds = (performance.now() - started) / 1000;
  await context.dispose();
  await model.dispose();
  await llama.dispose();
  return { name: 'direct node-llama-cpp, one at a time', loadMs, itemsPerSecond: ITEMS / seconds, texts: [] };
}

const ways: Array<() => Promise<Sample>> = [
  direct,
  () => timeProvider('llama: 1 sequence, no prefix reuse', () => new LlamaProvider(gguf, { sequences: 1, sharePrefix: false })),
  () => timeProvider('llama: 1 sequence, prefix reuse', () => new LlamaProvider(gguf, { sequences: 1 })),
  // Several sequences never reuse prefixes (LlamaProviderOptions.sharePrefix: wrong log-probabilities after reuse).
  () => timeProvider('llama: 8 sequences, no prefix reuse', () => new LlamaProvider(gguf, { sequences: 8 })),
  () => timeProvider('transformers: batched, prefix reuse', () => new TransformersProvider(dir!)),
];

const samples = new Map<string, Sample[]>();
for (let round = 0; round < ROUNDS; round++) {
  for (const way of round % 2 === 0 ? ways : [...ways].reverse()) {
    const s = await way();
    samples.set(s.name, [...(samples.get(s.name) ?? []), s]);
    console.log(`round ${round + 1}: ${s.name}: ${s.itemsPerSecond.toFixed(2)} items/s, load ${(s.loadMs / 1000).toFixed(2)} s${s.promptComputed ? `, prompt tokens evaluated ${s.promptComputed}` : ''}`);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const base = median(samples.get('direct node-llama-cpp, one at a time')!.map((s) => s.itemsPerSecond));
console.log(`\n${ITEMS} items × ${NEW_TOKENS} new tokens, ${ROUNDS} rounds (medians), model ${dir}`);
for (const [name, list] of samples) {
  const ips = median(list.map((s) => s.itemsPerSecond));
  console.log(`${name.padEnd(40)} ${ips.toFixed(2).padStart(7)} items/s  ${(ips / base).toFixed(2)}x direct  load ${(median(list.map((s) => s.loadMs)) / 1000).toFixed(2)} s`);
}
const texts = [...samples.values()].map((l) => l[0]!.texts).filter((t) => t.length > 0);
console.log(`greedy answers identical across llama: and transformers: ways: ${texts.every((t) => JSON.stringify(t) === JSON.stringify(texts[0]))}`);
if (temp) rmSync(temp, { recursive: true, force: true });
