// The GGUF writer and `make:tiny-model --format gguf`: files that node-llama-cpp's own GGUF parser reads back value
// for value, and that llama.cpp runs to the same log-probabilities and greedy text as the ONNX model of the folder.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getLlama, LlamaLogLevel, readGgufFileInfo, type Token } from 'node-llama-cpp';
import { afterAll, describe, expect, test } from 'vitest';
import { writeGguf } from '../support/ggufWriter.ts';
import { TransformersProvider } from '../../src/models/transformers.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsx = path.join(root, 'node_modules/tsx/dist/cli.mjs');
const makeTinyModel = (args: string[]) =>
  spawnSync(process.execPath, [tsx, path.join(root, 'scripts/make-tiny-model.ts'), ...args], { cwd: root, encoding: 'utf8' });

const work = mkdtempSync(path.join(tmpdir(), 'lokal-gguf-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('writeGguf', () => {
  test('node-llama-cpp reads back every metadata type, tensor dims, offsets and data', async () => {
    const file = path.join(work, 'plain.gguf');
    const a = Float32Array.from({ length: 6 }, (_, i) => i + 0.5);
    const b = Float32Array.of(-1, 2.25, 3);
    const bytes = writeGguf(
      file,
      [
        ['general.architecture', { type: 'string', value: 'llama' }],
        ['test.u32', { type: 'uint32', value: 4_000_000_000 }],
        ['test.i32', { type: 'int32', value: -7 }],
        ['test.f32', { type: 'float32', value: 0.25 }],
        ['test.u64', { type: 'uint64', value: 2 ** 40 }],
        ['test.flag', { type: 'bool', value: true }],
        ['test.words', { type: 'string[]', value: ['ä', '', 'b c'] }],
        ['test.ints', { type: 'int32[]', value: [1, -2, 3] }],
      ],
      [
        { name: 'a', dims: [3, 2], data: () => a },
        { name: 'b', dims: [3], data: () => b },
      ],
    );
    const raw = readFileSync(file);
    expect(raw.length).toBe(bytes);
    expect(raw.subarray(0, 4).toString('latin1')).toBe('GGUF');
    expect(raw.readUInt32LE(4)).toBe(3);
    const info = await readGgufFileInfo(file, { logWarnings: false });
    const meta = info.metadata as unknown as Record<string, Record<string, unknown>>;
    expect(meta.test).toEqual({ u32: 4_000_000_000, i32: -7, f32: 0.25, u64: BigInt(2 ** 40), flag: true, words: ['ä', '', 'b c'], ints: [1, -2, 3] });
    expect(info.tensorInfo?.map((t) => [t.name, t.dimensions.map(Number), Number(t.offset), t.ggmlType])).toEqual([
      ['a', [3, 2], 0, 0],
      ['b', [3], 32, 0], // 24 bytes of a, padded to the 32-byte alignment
    ]);
    // tensor data starts at the first multiple of 32 after the tensor infos; the file ends with b's last value
    const dataStart = bytes - 32 - 12;
    expect(dataStart % 32).toBe(0);
    expect(new Float32Array(raw.buffer.slice(raw.byteOffset + dataStart, raw.byteOffset + dataStart + 24))).toEqual(a);
    expect(new Float32Array(raw.buffer.slice(raw.byteOffset + dataStart + 32, raw.byteOffset + bytes))).toEqual(b);
  });

  test('rejects a key given twice and data of the wrong size', () => {
    expect(() => writeGguf(path.join(work, 'x.gguf'), [['k', { type: 'bool', value: true }], ['k', { type: 'bool', value: false }]], [])).toThrow(/k given twice/);
    expect(() => writeGguf(path.join(work, 'y.gguf'), [], [{ name: 't', dims: [2, 2], data: () => new Float32Array(3) }])).toThrow(/tensor t: 3 values for dims \[2, 2\]/);
  });
});

/** log p(continuation | prompt) under llama.cpp, from the full distributions it returns per position. */
async function llamaLogprob(modelPath: string, full: number[], promptLength: number) {
  const llama = await getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.error });
  const model = await llama.loadModel({ modelPath });
  const context = await model.createContext({ contextSize: 256, threads: 1, flashAttention: false, experimentalKvCacheKeyType: 'F32', experimentalKvCacheValueType: 'F32' });
  try {
    const sequence = context.getSequence();
    const outputs = await sequence.controlledEvaluate(
      full.map((t, i) => (i >= promptLength - 1 && i < full.length - 1 ? [t as Token, { generateNext: { probabilities: true } }] : (t as Token))),
    );
    let sum = 0;
    for (let i = promptLength; i < full.length; i++) sum += Math.log(outputs[i - 1]!.next.probabilities!.get(full[i] as Token)!);
    await sequence.clearHistory();
    const generated: number[] = [];
    for await (const t of sequence.evaluate(full.slice(0, promptLength) as Token[])) if (generated.push(t) >= 10) break;
    return { sum, tokens: model.tokenize('Hello, wörld: 12 ', false).map(Number), generated, file: model.fileInfo };
  } finally {
    await context.dispose();
    await model.dispose();
  }
}

describe('make:tiny-model --format gguf', () => {
  test.each([
    ['llama (rotary pairs reordered)', ['--layers', '2', '--seed', '3']],
    ['qwen2 (q/k/v biases, grouped-query attention, tied embeddings)', ['--layers', '2', '--qkv-bias', '--kv-heads', '2', '--tie-embeddings', '--seed', '4']],
  ])('%s: same tokenizer, chat template, log-probabilities and greedy tokens as the ONNX model', async (_, args) => {
    const dir = path.join(work, args.join('_'));
    const made = makeTinyModel([dir, ...args, '--format', 'gguf']);
    expect(made.stderr).toBe('');
    expect(made.stdout).toMatch(/\(\+ model\.gguf, [\d.]+ MiB\)/);
    const tokenizer = JSON.parse(readFileSync(path.join(dir, 'tokenizer.json'), 'utf8')) as { model: { vocab: Record<string, number>; merges: unknown[] } };
    const onnx = new TransformersProvider(dir);
    try {
      const loaded = await onnx.load();
      const prompt = 'The capital of Italy is';
      const full = loaded.tokenizer.encode(`${prompt} Rome, of course.`).map(Number);
      const promptLength = loaded.tokenizer.encode(prompt).length;
      const [reference] = await onnx.scoreContinuations([{ prompt, continuation: ' Rome, of course.' }]);
      const fromOnnx = await onnx.generate([{ prompt, maxNewTokens: 10 }]);
      const llama = await llamaLogprob(path.join(dir, 'model.gguf'), full, promptLength);
      expect(Math.abs(llama.sum - reference!.logprob)).toBeLessThan(1e-4);
      expect(llama.tokens).toEqual(loaded.tokenizer.encode('Hello, wörld: 12 ').map(Number));
      expect(loaded.tokenizer.decode(llama.generated, { skip_special_tokens: true })).toBe(fromOnnx[0]!.text);
      const meta = llama.file.metadata as unknown as { tokenizer: { chat_template: string; ggml: { tokens: string[]; merges: string[]; model: string } } };
      expect(meta.tokenizer.chat_template).toBe(JSON.parse(readFileSync(path.join(dir, 'tokenizer_config.json'), 'utf8')).chat_template);
      expect(meta.tokenizer.ggml.model).toBe('gpt2');
      const byId = Object.entries(tokenizer.model.vocab).sort((x, y) => x[1] - y[1]).map(([t]) => t);
      expect(meta.tokenizer.ggml.tokens.slice(0, byId.length)).toEqual(byId);
      expect(meta.tokenizer.ggml.merges.length).toBe(tokenizer.model.merges.length);
    } finally {
      await onnx.close();
    }
  }, 120_000);

  test("Qwen2.5's tokenizer: llama.cpp splits text as transformers.js does (pre-tokenizer qwen2), unused ids padded", async () => {
    const dir = path.join(work, 'qwen-tokenizer');
    const made = makeTinyModel([dir, '--shape', 'qwen2.5-0.5b-instruct', '--layers', '1', '--hidden', '16', '--heads', '2', '--kv-heads', '1', '--intermediate', '32', '--tokenizer', 'qwen2.5', '--format', 'gguf']);
    expect(made.stderr).toBe('');
    const onnx = new TransformersProvider(dir);
    const llama = await getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.error });
    const model = await llama.loadModel({ modelPath: path.join(dir, 'model.gguf') });
    try {
      const loaded = await onnx.load();
      const text = "Ano ang kabisera ng Pilipinas? It's 2024 —  Ελλάδα, 日本語\n\n  x";
      expect(model.tokenize(text, false).map(Number)).toEqual(loaded.tokenizer.encode(text).map(Number));
      const tokens = (model.fileInfo.metadata as unknown as { tokenizer: { ggml: { tokens: string[]; token_type: number[] } } }).tokenizer.ggml;
      expect(tokens.tokens.length).toBe(151936);
      expect([tokens.tokens[151665], tokens.token_type[151665], tokens.token_type[151645]]).toEqual(['[PAD151665]', 5, 3]);
    } finally {
      await model.dispose();
      await onnx.close();
    }
  }, 120_000);

  test('--gguf-type q8_0,q4_0: llama.cpp loads the block-quantised files (matrices Q8_0/Q4_0, vectors F32) and generates near the float32 file', async () => {
    const dir = path.join(work, 'quantised');
    const made = makeTinyModel([dir, '--layers', '2', '--qkv-bias', '--kv-heads', '2', '--seed', '5', '--dtypes', 'fp32', '--gguf-type', 'f32,q8_0,q4_0']);
    expect(made.stderr).toBe('');
    expect(made.stdout).toMatch(/\(\+ model\.gguf, [\d.]+ MiB; model-q8_0\.gguf, [\d.]+ MiB; model-q4_0\.gguf, [\d.]+ MiB\)/);
    const onnx = new TransformersProvider(dir);
    try {
      const loaded = await onnx.load();
      const prompt = 'The capital of Italy is';
      const full = loaded.tokenizer.encode(`${prompt} Rome, of course.`).map(Number);
      const promptLength = loaded.tokenizer.encode(prompt).length;
      const f32 = await llamaLogprob(path.join(dir, 'model.gguf'), full, promptLength);
      for (const [file, ggmlType, fileType, tolerance] of [['model-q8_0.gguf', 8, 7, 0.005], ['model-q4_0.gguf', 2, 2, 0.05]] as const) {
        const q = await llamaLogprob(path.join(dir, file), full, promptLength);
        const types = new Map(q.file.tensorInfo!.map((t) => [t.name, t.ggmlType]));
        expect([types.get('token_embd.weight'), types.get('blk.0.attn_q.weight'), types.get('blk.1.ffn_down.weight'), types.get('blk.0.attn_q.bias'), types.get('output_norm.weight')]).toEqual([ggmlType, ggmlType, ggmlType, 0, 0]);
        expect((q.file.metadata as unknown as { general: { file_type: number } }).general.file_type).toBe(fileType);
        expect(q.generated.length).toBe(10);
        // quantisation moves the log-probability (−100 here) by a fraction of a percent (Q8_0: llama.cpp also rounds
        // activations to Q8_0) or a few percent (Q4_0), not to another model's; the first greedy tokens stay
        expect(Math.abs(q.sum - f32.sum)).toBeLessThan(tolerance * Math.abs(f32.sum));
        expect(q.sum).not.toBe(f32.sum);
        expect(q.generated.slice(0, 3)).toEqual(f32.generated.slice(0, 3));
      }
    } finally {
      await onnx.close();
    }
  }, 120_000);

  test('--gguf-type names only f32, q8_0 and q4_0, and writes GGUF files', () => {
    const bad = makeTinyModel([path.join(work, 'bad-type'), '--gguf-type', 'q8_0,q5_k']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--gguf-type must list any of f32, q8_0, q4_0, got "q8_0,q5_k"');
    const onnxOnly = makeTinyModel([path.join(work, 'bad-format'), '--format', 'onnx', '--gguf-type', 'q8_0']);
    expect(onnxOnly.status).toBe(2);
    expect(onnxOnly.stderr).toContain('--gguf-type writes GGUF files, but --format is onnx');
  });

  test('--format accepts only onnx or gguf', () => {
    const bad = makeTinyModel([path.join(work, 'bad'), '--format', 'safetensors']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--format must be onnx or gguf, got "safetensors"');
  });
});
