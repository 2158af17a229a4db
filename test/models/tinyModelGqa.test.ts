// Tiny models with the default model's attention shape (Qwen2: grouped-query attention, q/k/v biases) loaded through
// transformers.js: scoring and greedy generation must equal the float64 reference network.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AutoTokenizer, Tensor } from '@huggingface/transformers';
import onnxProto from 'onnx-proto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { resolveTinyModelSpec, tinyParameterCount, tinyWeightNames, writeTinyModel, type TinyModelInfo, type TinyModelSpec } from '../support/tinyModel.ts';
import { loadTinyReferenceModel, type TinyReferenceModel } from '../support/tinyModelReference.ts';
import { TransformersProvider } from '../../src/models/transformers.ts';
import type { ChatMessage, ContinuationRequest } from '../../src/models/types.ts';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const root = mkdtempSync(path.join(tmpdir(), 'lokal-tiny-gqa-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ids = (x: unknown) => (x as Array<number | bigint>).map(Number);
const closeTo = (actual: number, expected: number) => expect(Math.abs(actual - expected)).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(expected)));
const onnxModel = (dir: string) => onnxProto.onnx.ModelProto.decode(readFileSync(path.join(dir, 'onnx', 'model.onnx')));
const dims = (info: { type?: { tensorType?: { shape?: { dim?: Array<{ dimValue?: unknown; dimParam?: string | null }> | null } | null } | null } | null }) =>
  (info.type?.tensorType?.shape?.dim ?? []).map((d) => (d.dimParam ? d.dimParam : Number(d.dimValue)));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type HfTokenizer = any;

/** The reference's view of a request: P and F token ids from the tokenizer directly (docs/metrics.md#per-answer-score). */
function referenceScore(tokenizer: HfTokenizer, ref: TinyReferenceModel, req: ContinuationRequest): { logprob: number; tokenCount: number } {
  const chat = (messages: ChatMessage[], addGenerationPrompt: boolean) =>
    ids(tokenizer.apply_chat_template(messages, { add_generation_prompt: addGenerationPrompt, return_tensor: false, return_dict: false }));
  const p = req.messages ? chat(req.messages, true) : ids(tokenizer.encode(req.prompt));
  const f = req.messages ? chat([...req.messages, { role: 'assistant', content: req.continuation }], false) : ids(tokenizer.encode(req.prompt! + req.continuation));
  return { logprob: f.length > p.length ? ref.continuationLogprob(f, p.length) : 0, tokenCount: f.length - p.length };
}

const chats: ChatMessage[][] = [
  [{ role: 'user', content: 'Oo?' }],
  [{ role: 'user', content: 'Ano ang kabisera ng Pilipinas?' }],
  [
    { role: 'system', content: 'Sagutin nang maikli at malinaw.' },
    { role: 'user', content: 'Which river flows through the capital city, and which towns does it pass on its way to the bay?' },
  ],
];
const answers = ['Maynila.', 'Hindi ko alam, pasensya na po.', 'Oo, tama! 😀'];
const requests: ContinuationRequest[] = [
  ...chats.flatMap((messages) => answers.map((continuation) => ({ messages, continuation }))),
  { prompt: 'The capital of Italy is', continuation: ' Rome.' },
  { prompt: 'The capital of Italy is', continuation: ' Milan, some say.' },
  { prompt: 'Numeri: 1, 2,', continuation: ' 3, 4 e così via' },
];

const cases: Array<{ name: string; spec: Partial<TinyModelSpec>; modelType: string }> = [
  { name: 'Qwen2 shape: 4 heads, 2 key/value heads, q/k/v biases', spec: { heads: 4, kvHeads: 2, qkvBias: true, seed: 11 }, modelType: 'qwen2' },
  { name: 'multi-query: 4 heads, 1 key/value head, no biases', spec: { heads: 4, kvHeads: 1, seed: 12 }, modelType: 'llama' },
];

describe.each(cases)('tiny model, $name', ({ name, spec, modelType }) => {
  const dir = path.join(root, name.replace(/\W+/g, '-'));
  let info: TinyModelInfo;
  let ref: TinyReferenceModel;
  let tokenizer: HfTokenizer;
  let provider: TransformersProvider;
  const kvHeads = spec.kvHeads!;

  beforeAll(async () => {
    info = writeTinyModel(dir, spec);
    ref = loadTinyReferenceModel(dir);
    tokenizer = await AutoTokenizer.from_pretrained(dir);
    provider = new TransformersProvider(dir, { env: {}, threads: 1 });
  });
  afterAll(async () => {
    await provider?.close();
  });

  test('config.json, the ONNX graph and its weights declare the key/value heads and the biases', () => {
    const d = info.spec.hidden / info.spec.heads;
    const config = JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8'));
    expect(config).toMatchObject({ model_type: modelType, num_attention_heads: 4, num_key_value_heads: kvHeads, head_dim: d });
    const model = onnxModel(dir);
    for (const input of model.graph!.input!.filter((i) => i.name!.startsWith('past_key_values.'))) {
      expect(dims(input)).toEqual(['batch_size', kvHeads, 'past_sequence_length', d]);
    }
    for (const output of model.graph!.output!.filter((o) => o.name!.startsWith('present.'))) {
      expect(dims(output)).toEqual(['batch_size', kvHeads, 'total_sequence_length', d]);
    }
    const shapes = new Map(model.graph!.initializer!.map((t) => [t.name!, t.dims!.map(Number)]));
    const names = tinyWeightNames(info.spec.layers);
    expect(shapes.get(names.layers[0]!.wq)).toEqual([info.spec.hidden, info.spec.hidden]);
    expect(shapes.get(names.layers[1]!.wk)).toEqual([info.spec.hidden, kvHeads * d]);
    expect(shapes.get(names.layers[1]!.wv)).toEqual([info.spec.hidden, kvHeads * d]);
    for (const b of names.biases) {
      expect(shapes.get(b.bq)).toEqual(spec.qkvBias ? [info.spec.hidden] : undefined);
      expect(shapes.get(b.bk)).toEqual(spec.qkvBias ? [kvHeads * d] : undefined);
    }
    expect(ref.config).toMatchObject({ kvHeads, qkvBias: spec.qkvBias === true });
  });

  test('the parameter count equals the sizes of the weight initializers in the file', () => {
    const names = tinyWeightNames(info.spec.layers);
    const weights = new Set([names.embed, names.finalNorm, names.lmHead, ...names.layers.flatMap(Object.values), ...names.biases.flatMap(Object.values)]);
    const stored = onnxModel(dir).graph!.initializer!.filter((t) => weights.has(t.name!)).reduce((s, t) => s + t.dims!.reduce((p, x) => p * Number(x), 1), 0);
    expect(info.parameters).toBe(stored);
  });

  test('transformers.js runs the graph with a cache of kvHeads heads, and the provider reads that shape', async () => {
    const loaded = await provider.load();
    expect(loaded.logitsSession?.past.map((p) => [p.heads, p.dim])).toEqual(
      Array.from({ length: 2 * info.spec.layers }, () => [kvHeads, info.spec.hidden / info.spec.heads]),
    );
    const prompt = ids(tokenizer.encode('The capital of Italy is'));
    const n = prompt.length;
    // no past given: transformers.js builds the empty cache itself from the session's input shapes
    const out = await loaded.model({
      input_ids: new Tensor('int64', BigInt64Array.from(prompt.map(BigInt)), [1, n]),
      attention_mask: new Tensor('int64', new BigInt64Array(n).fill(1n), [1, n]),
    });
    for (let layer = 0; layer < info.spec.layers; layer++) {
      expect(out[`present.${layer}.key`]!.dims).toEqual([1, kvHeads, n, info.spec.hidden / info.spec.heads]);
      expect(out[`present.${layer}.value`]!.dims).toEqual([1, kvHeads, n, info.spec.hidden / info.spec.heads]);
    }
    const logits = out.logits!.data as Float32Array;
    const expected = ref.logits(prompt).at(-1)!;
    const last = logits.subarray((n - 1) * info.spec.vocab, n * info.spec.vocab);
    for (let j = 0; j < info.spec.vocab; j++) expect(Math.abs(last[j]! - expected[j]!)).toBeLessThanOrEqual(1e-4 * Math.max(1, Math.abs(expected[j]!)));
  });

  test('continuation log-probs equal the reference: batched across prompts, one-by-one, and via transformers.js forward', async () => {
    const expected = requests.map((r) => referenceScore(tokenizer, ref, r));
    const check = (results: Array<{ logprob: number; tokenCount: number }>) =>
      results.forEach((r, i) => {
        expect(r.tokenCount).toBe(expected[i]!.tokenCount);
        closeTo(r.logprob, expected[i]!.logprob);
      });
    check(await provider.scoreContinuations(requests));

    const small = new TransformersProvider(dir, { env: {}, batchSize: 2, threads: 1 });
    const single = new TransformersProvider(dir, { env: {}, batchSize: 1, sharePrefix: false, threads: 1 });
    const viaForward = new TransformersProvider(dir, { env: {}, batchSize: 3, threads: 1 });
    try {
      check(await small.scoreContinuations(requests));
      // twelve continuations two at a time: several batches, each row continuing its own prompt's cache
      expect(small.scoringStats.forwardCalls).toBeGreaterThanOrEqual(requests.length / 2);
      const oneByOne = [];
      for (const r of requests) oneByOne.push(...(await single.scoreContinuations([r])));
      check(oneByOne);
      (await viaForward.load()).logitsSession = undefined;
      check(await viaForward.scoreContinuations(requests));
    } finally {
      await small.close();
      await single.close();
      await viaForward.close();
    }
  });

  test('greedy decoding equals the argmax of the reference network, step by step', async () => {
    const steps = 10;
    const eos = [info.specialIds['<|im_end|>'], info.specialIds['<|endoftext|>']];
    for (const c of [{ messages: chats[2]! }, { prompt: 'Question: What is 2 + 2?\nAnswer:' }]) {
      const promptIds = c.messages
        ? ids(tokenizer.apply_chat_template(c.messages, { add_generation_prompt: true, return_tensor: false, return_dict: false }))
        : ids(tokenizer.encode(c.prompt));
      const greedy = ref.greedy(promptIds, steps, eos);
      // precondition: no near-ties, so float32 vs float64 cannot flip an argmax
      expect(Math.min(...greedy.margins)).toBeGreaterThan(1e-4);
      const [r] = await provider.generate([{ ...c, maxNewTokens: steps }]);
      expect(r!.text).toBe(tokenizer.decode(greedy.tokens.filter((t) => !eos.includes(t)), { skip_special_tokens: true }));
    }
  });
});

describe('tiny model spec and script: key/value heads and biases', () => {
  test('kvHeads defaults to heads, must divide it, and qkvBias defaults to false', () => {
    expect(resolveTinyModelSpec({ hidden: 256 })).toMatchObject({ heads: 4, kvHeads: 4, qkvBias: false });
    expect(resolveTinyModelSpec({ heads: 8, hidden: 64 })).toMatchObject({ heads: 8, kvHeads: 8 });
    expect(() => resolveTinyModelSpec({ heads: 4, kvHeads: 3 })).toThrow(/heads \(4\) must be divisible by kvHeads \(3\)/);
    expect(() => resolveTinyModelSpec({ kvHeads: 0 })).toThrow(/kvHeads must be a positive integer/);
    // hidden 32, 4 heads of 8, 2 kv heads, vocab 384, intermediate 64, 2 layers: counted by hand
    const perLayer = 32 * 32 * 2 + 32 * 16 * 2 + (32 + 16 + 16) + 3 * 32 * 64 + 2 * 32;
    expect(tinyParameterCount(resolveTinyModelSpec({ kvHeads: 2, qkvBias: true }))).toBe(2 * 384 * 32 + 32 + 2 * perLayer);
  });

  test('make:tiny-model --kv-heads --qkv-bias writes a Qwen2-shaped model and rejects kv heads that do not divide heads', () => {
    const tsx = path.join(repoRoot, 'node_modules/tsx/dist/cli.mjs');
    const run = (args: string[]) =>
      spawnSync(process.execPath, [tsx, path.join(repoRoot, 'scripts/make-tiny-model.ts'), ...args], { cwd: repoRoot, encoding: 'utf8' });
    const out = path.join(root, 'script-model');
    const ok = run([out, '--layers', '1', '--heads', '4', '--kv-heads', '2', '--qkv-bias', '--seed', '3']);
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain('qwen2 (q/k/v biases), 1 layers, hidden 32, 4 heads (2 key/value heads)');
    expect(JSON.parse(readFileSync(path.join(out, 'config.json'), 'utf8'))).toMatchObject({ model_type: 'qwen2', num_key_value_heads: 2 });
    const bad = run([path.join(root, 'bad-model'), '--heads', '4', '--kv-heads', '3']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('heads (4) must be divisible by kvHeads (3)');
  }, 60_000);
});
