// npm run make:tiny-model -- <dir> [--layers N] [--hidden H] [--heads A] [--kv-heads K] [--qkv-bias] [--tie-embeddings]
//   [--intermediate I] [--vocab V] [--seed S] [--max-positions P]
//   [--shape qwen2.5-0.5b-instruct | --config config.json [--generation-config generation_config.json]] [--tokenizer DIR|qwen2.5]
//   [--format onnx|gguf] [--gguf-type f32,q8_0,q4_0] [--dtypes fp32,q8,q4,fp16] [--q8-weights uint8|int8]
// Writes a small Llama-style causal LM (ONNX + tokenizer + configs) that transformers.js loads like a Hub model;
// --kv-heads below --heads gives grouped-query attention and --qkv-bias q/k/v biases (the Qwen2 shape). --shape/--config
// take a real model's shape (flags still override), --tokenizer copies its tokenizer.json and tokenizer_config.json.
// --format gguf also writes <dir>/model.gguf (same weights, tokenizer and chat template) for the llama: provider;
// --gguf-type (implies --format gguf) picks the GGUF files by ggml type: f32 model.gguf, q8_0 model-q8_0.gguf and
// q4_0 model-q4_0.gguf (ggml's block formats Q8_0/Q4_0 for every matrix; test/support/ggmlBlocks.ts).
// Beside onnx/model.onnx (fp32), --dtypes' variants as transformers.js loads them by dtype (default all): q8
// model_quantized.onnx, q4 model_q4.onnx, fp16 model_fp16.onnx (test/support/quantiseOnnx.ts).
import { readFileSync } from 'node:fs';
import { QWEN2_5_0_5B_INSTRUCT, qwenTokenizerDir, writeTinyModel, type TinyModelShape, type TinyModelSpec } from '../test/support/tinyModel.ts';
import { GGUF_FILES, writeTinyModelGguf } from '../test/support/tinyModelGguf.ts';
import type { GgmlType } from '../test/support/ggmlBlocks.ts';
import { QUANTISED_FILES, writeQuantisedModel, type QuantisedDtype } from '../test/support/quantiseOnnx.ts';
import { parseSpecArgs, runScript, UsageError } from './specArgs.ts';

const USAGE =
  'usage: npm run make:tiny-model -- <dir> [--layers N] [--hidden H] [--heads A] [--kv-heads K] [--qkv-bias] [--tie-embeddings] ' +
  '[--intermediate I] [--vocab V] [--seed S] [--max-positions P] [--shape qwen2.5-0.5b-instruct | --config FILE [--generation-config FILE]] ' +
  '[--tokenizer DIR|qwen2.5] [--format onnx|gguf] [--gguf-type f32,q8_0,q4_0] [--dtypes fp32,q8,q4,fp16] [--q8-weights uint8|int8]';

const readJson = (file: string): Record<string, unknown> => {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}\n${USAGE}`);
  }
};

process.exitCode = runScript(() => {
  const args = parseSpecArgs(
    process.argv.slice(2),
    USAGE,
    {
      layers: 'layers', hidden: 'hidden', heads: 'heads', 'kv-heads': 'kvHeads', intermediate: 'intermediate', vocab: 'vocab', seed: 'seed', 'max-positions': 'maxPositions',
    },
    ['shape', 'config', 'generation-config', 'tokenizer', 'format', 'gguf-type', 'dtypes', 'q8-weights'],
    ['qkv-bias', 'tie-embeddings'],
  );
  if (!args) return;
  const ggufTypeText = args.text['gguf-type'];
  const format = args.text.format ?? (ggufTypeText === undefined ? 'onnx' : 'gguf');
  if (format !== 'onnx' && format !== 'gguf') throw new UsageError(`--format must be onnx or gguf, got "${format}"\n${USAGE}`);
  if (format === 'onnx' && ggufTypeText !== undefined) throw new UsageError(`--gguf-type writes GGUF files, but --format is onnx\n${USAGE}`);
  const ggufTypes = (ggufTypeText ?? 'f32').split(',').map((t) => t.trim()) as GgmlType[];
  const badType = ggufTypes.find((t) => !(t in GGUF_FILES));
  if (badType !== undefined || ggufTypes.length === 0)
    throw new UsageError(`--gguf-type must list any of ${Object.keys(GGUF_FILES).join(', ')}, got "${ggufTypeText}"\n${USAGE}`);
  const dtypes = (args.text.dtypes ?? 'fp32,q8,q4,fp16').split(',').map((d) => d.trim());
  const unknown = dtypes.filter((d) => d !== 'fp32' && !(d in QUANTISED_FILES));
  if (unknown.length > 0 || !dtypes.includes('fp32'))
    throw new UsageError(`--dtypes must list fp32 and any of ${Object.keys(QUANTISED_FILES).join(', ')}, got "${args.text.dtypes}"\n${USAGE}`);
  const q8Weights = args.text['q8-weights'] ?? 'uint8';
  if (q8Weights !== 'uint8' && q8Weights !== 'int8') throw new UsageError(`--q8-weights must be uint8 or int8, got "${q8Weights}"\n${USAGE}`);
  const shape: TinyModelShape = {};
  const named = args.text.shape;
  if (named !== undefined) {
    if (named !== 'qwen2.5-0.5b-instruct') throw new UsageError(`--shape must be qwen2.5-0.5b-instruct, got "${named}"\n${USAGE}`);
    if (args.text.config !== undefined) throw new UsageError(`--shape and --config exclude each other\n${USAGE}`);
    shape.config = { ...QWEN2_5_0_5B_INSTRUCT.config };
    shape.generationConfig = { ...QWEN2_5_0_5B_INSTRUCT.generationConfig };
  }
  if (args.text.config !== undefined) shape.config = readJson(args.text.config);
  if (args.text['generation-config'] !== undefined) shape.generationConfig = readJson(args.text['generation-config']);
  const tokenizer = args.text.tokenizer;
  if (tokenizer !== undefined) shape.tokenizerDir = tokenizer === 'qwen2.5' ? qwenTokenizerDir() : tokenizer;
  const spec: Partial<TinyModelSpec> = { ...args.spec };
  // switches only override when given, so a config's qwen2 biases or tied head stay on otherwise
  if (args.switches['qkv-bias']) spec.qkvBias = true;
  if (args.switches['tie-embeddings']) spec.tieEmbeddings = true;
  const started = Date.now();
  const info = writeTinyModel(args.dir, spec, shape);
  const ggufs = format === 'gguf' ? ggufTypes.map((t) => `${GGUF_FILES[t]}, ${(writeTinyModelGguf(args.dir, info.spec, t) / 2 ** 20).toFixed(1)} MiB`) : [];
  const variants = (dtypes.filter((d) => d !== 'fp32') as QuantisedDtype[]).map((d) => {
    const { bytes } = writeQuantisedModel(args.dir, d, { weightType: q8Weights });
    return `${QUANTISED_FILES[d]} ${(bytes / 2 ** 20).toFixed(1)} MiB`;
  });
  const s = info.spec;
  const family = s.qkvBias ? 'qwen2 (q/k/v biases)' : 'llama';
  const kv = s.kvHeads === s.heads ? '' : ` (${s.kvHeads} key/value heads)`;
  const tied = s.tieEmbeddings ? ', tied embeddings' : '';
  const from = shape.tokenizerDir ? `, tokenizer from ${shape.tokenizerDir}` : '';
  console.log(
    `wrote ${args.dir}: ${family}, ${s.layers} layers, hidden ${s.hidden}, ${s.heads} heads${kv}, intermediate ${s.intermediate}, ` +
      `vocab ${s.vocab}${tied}, seed ${s.seed}, ${info.parameters.toLocaleString('en')} parameters, ` +
      `${(info.onnxBytes / 2 ** 20).toFixed(1)} MiB${variants.length ? ` (+ ${variants.join(', ')})` : ''}${ggufs.length ? ` (+ ${ggufs.join('; ')})` : ''}${from} ` +
      `(${Date.now() - started} ms)`,
  );
});
