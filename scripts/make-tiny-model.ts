// npm run make:tiny-model -- <dir> [--layers N] [--hidden H] [--heads A] [--kv-heads K] [--qkv-bias] [--tie-embeddings]
//   [--intermediate I] [--vocab V] [--seed S] [--max-positions P]
//   [--shape qwen2.5-0.5b-instruct | --config config.json [--generation-config generation_config.json]] [--tokenizer DIR|qwen2.5]
//   [--format onnx|gguf]
// Writes a small Llama-style causal LM (ONNX + tokenizer + configs) that transformers.js loads like a Hub model;
// --kv-heads below --heads gives grouped-query attention and --qkv-bias q/k/v biases (the Qwen2 shape). --shape/--config
// take a real model's shape (flags still override), --tokenizer copies its tokenizer.json and tokenizer_config.json.
// --format gguf also writes <dir>/model.gguf (same weights, tokenizer and chat template) for the llama: provider.
import { readFileSync } from 'node:fs';
import { QWEN2_5_0_5B_INSTRUCT, qwenTokenizerDir, writeTinyModel, type TinyModelShape, type TinyModelSpec } from '../test/support/tinyModel.ts';
import { writeTinyModelGguf } from '../test/support/tinyModelGguf.ts';
import { parseSpecArgs, runScript, UsageError } from './specArgs.ts';

const USAGE =
  'usage: npm run make:tiny-model -- <dir> [--layers N] [--hidden H] [--heads A] [--kv-heads K] [--qkv-bias] [--tie-embeddings] ' +
  '[--intermediate I] [--vocab V] [--seed S] [--max-positions P] [--shape qwen2.5-0.5b-instruct | --config FILE [--generation-config FILE]] ' +
  '[--tokenizer DIR|qwen2.5] [--format onnx|gguf]';

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
    ['shape', 'config', 'generation-config', 'tokenizer', 'format'],
    ['qkv-bias', 'tie-embeddings'],
  );
  if (!args) return;
  const format = args.text.format ?? 'onnx';
  if (format !== 'onnx' && format !== 'gguf') throw new UsageError(`--format must be onnx or gguf, got "${format}"\n${USAGE}`);
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
  const ggufBytes = format === 'gguf' ? writeTinyModelGguf(args.dir, info.spec) : undefined;
  const s = info.spec;
  const family = s.qkvBias ? 'qwen2 (q/k/v biases)' : 'llama';
  const kv = s.kvHeads === s.heads ? '' : ` (${s.kvHeads} key/value heads)`;
  const tied = s.tieEmbeddings ? ', tied embeddings' : '';
  const from = shape.tokenizerDir ? `, tokenizer from ${shape.tokenizerDir}` : '';
  console.log(
    `wrote ${args.dir}: ${family}, ${s.layers} layers, hidden ${s.hidden}, ${s.heads} heads${kv}, intermediate ${s.intermediate}, ` +
      `vocab ${s.vocab}${tied}, seed ${s.seed}, ${info.parameters.toLocaleString('en')} parameters, ` +
      `${(info.onnxBytes / 2 ** 20).toFixed(1)} MiB${ggufBytes === undefined ? '' : ` (+ model.gguf, ${(ggufBytes / 2 ** 20).toFixed(1)} MiB)`}${from} ` +
      `(${Date.now() - started} ms)`,
  );
});
