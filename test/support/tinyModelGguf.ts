// The generated tiny model as one GGUF file (model.gguf beside config.json): the same weights, byte-level BPE
// tokenizer and chat template as onnx/model.onnx, laid out as llama.cpp reads Qwen2 and Llama models (the tensor and
// key names of llama.cpp's llama-arch.cpp; matrices stored as PyTorch's [out, in], i.e. ggml dims [in, out]).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { GGUF_FILE_TYPES, type GgmlType } from './ggmlBlocks.ts';
import { writeGguf, type GgufMetadataValue, type GgufTensor } from './ggufWriter.ts';
import { tinyWeightMakers, tinyWeightNames, type TinyModelSpec } from './tinyModel.ts';

/** Hugging Face's pre-tokenizer regex of Qwen2 (tokenizer.json), which llama.cpp knows as pre-tokenizer "qwen2". */
const QWEN2_SPLIT_REGEX = "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

/** llama.cpp's token types (llama_token_type): normal, control (special added tokens), user-defined, unused. */
const TOKEN_TYPE = { normal: 1, control: 3, userDefined: 4, unused: 5 } as const;

interface TokenizerJson {
  pre_tokenizer?: { type?: string; use_regex?: boolean; pretokenizers?: Array<{ type?: string; pattern?: { Regex?: string }; use_regex?: boolean }> } | null;
  added_tokens?: Array<{ id: number; content: string; special?: boolean }>;
  model?: { type?: string; vocab?: Record<string, number>; merges?: Array<string | [string, string]> };
}

/** llama.cpp's name for the tokenizer's pre-tokenizer: GPT-2's byte-level regex, or Qwen2's split regex. */
function preTokenizerName(tokenizer: TokenizerJson, file: string): string {
  const pre = tokenizer.pre_tokenizer;
  if (pre?.type === 'ByteLevel' && pre.use_regex !== false) return 'gpt-2';
  const steps = pre?.type === 'Sequence' ? (pre.pretokenizers ?? []) : [];
  if (steps.length === 2 && steps[0]?.type === 'Split' && steps[0].pattern?.Regex === QWEN2_SPLIT_REGEX && steps[1]?.type === 'ByteLevel' && steps[1].use_regex === false)
    return 'qwen2';
  throw new Error(`${file}: pre-tokenizer ${JSON.stringify(pre)} is neither GPT-2's byte-level regex nor Qwen2's split (no llama.cpp equivalent known)`);
}

/** The tokenizer as GGUF metadata: every id up to vocab − 1 named (ids no token has become unused "[PAD<id>]"). */
function tokenizerMetadata(tokenizer: TokenizerJson, vocab: number, file: string): Array<[string, GgufMetadataValue]> {
  if (tokenizer.model?.type !== 'BPE') throw new Error(`${file}: model type ${JSON.stringify(tokenizer.model?.type)} is not BPE`);
  const tokens = new Array<string | undefined>(vocab);
  const types = new Array<number>(vocab).fill(TOKEN_TYPE.normal);
  for (const [text, id] of Object.entries(tokenizer.model.vocab ?? {})) tokens[id] = text;
  for (const added of tokenizer.added_tokens ?? []) {
    tokens[added.id] = added.content;
    types[added.id] = added.special ? TOKEN_TYPE.control : TOKEN_TYPE.userDefined;
  }
  for (let id = 0; id < vocab; id++) {
    if (tokens[id] !== undefined) continue;
    tokens[id] = `[PAD${id}]`;
    types[id] = TOKEN_TYPE.unused;
  }
  const merges = (tokenizer.model.merges ?? []).map((m) => (typeof m === 'string' ? m : `${m[0]} ${m[1]}`));
  return [
    ['tokenizer.ggml.model', { type: 'string', value: 'gpt2' }],
    ['tokenizer.ggml.pre', { type: 'string', value: preTokenizerName(tokenizer, file) }],
    ['tokenizer.ggml.tokens', { type: 'string[]', value: tokens as string[] }],
    ['tokenizer.ggml.token_type', { type: 'int32[]', value: types }],
    ['tokenizer.ggml.merges', { type: 'string[]', value: merges }],
  ];
}

/** [in, out] row-major (our ONNX MatMul layout) → [out, in] row-major, ggml dims [in, out]. */
function transposed(data: Float32Array, inputs: number, outputs: number): Float32Array {
  const out = new Float32Array(data.length);
  for (let i = 0; i < inputs; i++) for (let o = 0; o < outputs; o++) out[o * inputs + i] = data[i * outputs + o]!;
  return out;
}

/**
 * llama.cpp's "llama" architecture rotates interleaved pairs (2i, 2i+1) of each head, Hugging Face rotates halves
 * (i, i + d/2): rows of the q/k projections ([out, in]) are reordered per head so both compute the same attention
 * (the permutation llama.cpp's convert_hf_to_gguf.py applies to Llama checkpoints).
 */
function interleavedRows(rows: Float32Array, heads: number, headDim: number, inputs: number): Float32Array {
  const out = new Float32Array(rows.length);
  const half = headDim / 2;
  for (let h = 0; h < heads; h++) {
    for (let i = 0; i < half; i++) {
      for (let j = 0; j < 2; j++) {
        const from = (h * headDim + j * half + i) * inputs;
        out.set(rows.subarray(from, from + inputs), (h * headDim + 2 * i + j) * inputs);
      }
    }
  }
  return out;
}

function readJson(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}

const firstId = (value: unknown): number | undefined => (Array.isArray(value) ? firstId(value[0]) : typeof value === 'number' ? value : undefined);

/** The GGUF file of each type in a model folder: model.gguf (float32), model-q8_0.gguf, model-q4_0.gguf. */
export const GGUF_FILES: Record<GgmlType, string> = { f32: 'model.gguf', q8_0: 'model-q8_0.gguf', q4_0: 'model-q4_0.gguf' };

/**
 * Writes `<dir>/model.gguf` (or, for `type` q8_0/q4_0, GGUF_FILES' name) from the folder writeTinyModel made (its
 * config, generation config and tokenizer files, the weights re-made from the spec's seed): architecture qwen2 for
 * models with q/k/v biases, else llama. With q8_0/q4_0 every matrix (the token embeddings and output head included)
 * is stored in that block format and vectors (norms, biases) stay float32, as llama.cpp's quantiser keeps 1-D tensors.
 * Returns the file's size in bytes.
 */
export function writeTinyModelGguf(dir: string, spec: TinyModelSpec, type: GgmlType = 'f32'): number {
  const config = readJson(path.join(dir, 'config.json'));
  const generation = readJson(path.join(dir, 'generation_config.json'));
  const tokenizerFile = path.join(dir, 'tokenizer.json');
  const tokenizer = readJson(tokenizerFile) as TokenizerJson;
  const tokenizerConfig = readJson(path.join(dir, 'tokenizer_config.json'));
  const arch = spec.qkvBias ? 'qwen2' : 'llama';
  const { hidden: h, heads, kvHeads, intermediate: m, vocab: v } = spec;
  const d = h / heads;
  const kv = kvHeads * d;
  const u32 = (value: number): GgufMetadataValue => ({ type: 'uint32', value });
  const f32 = (value: number): GgufMetadataValue => ({ type: 'float32', value });
  const metadata: Array<[string, GgufMetadataValue]> = [
    ['general.architecture', { type: 'string', value: arch }],
    ['general.name', { type: 'string', value: 'vitest-lokal tiny model' }],
    ['general.file_type', u32(GGUF_FILE_TYPES[type])],
    [`${arch}.vocab_size`, u32(v)],
    [`${arch}.context_length`, u32(spec.maxPositions)],
    [`${arch}.embedding_length`, u32(h)],
    [`${arch}.block_count`, u32(spec.layers)],
    [`${arch}.feed_forward_length`, u32(m)],
    [`${arch}.attention.head_count`, u32(heads)],
    [`${arch}.attention.head_count_kv`, u32(kvHeads)],
    [`${arch}.rope.dimension_count`, u32(d)],
    [`${arch}.rope.freq_base`, f32(spec.ropeTheta)],
    [`${arch}.attention.layer_norm_rms_epsilon`, f32(spec.rmsNormEps)],
    ...tokenizerMetadata(tokenizer, v, tokenizerFile),
  ];
  const eos = firstId(config.eos_token_id);
  if (eos !== undefined) metadata.push(['tokenizer.ggml.eos_token_id', u32(eos)]);
  const bos = firstId(config.bos_token_id);
  if (bos !== undefined) metadata.push(['tokenizer.ggml.bos_token_id', u32(bos)]);
  const pad = firstId(generation.pad_token_id ?? config.pad_token_id);
  if (pad !== undefined) metadata.push(['tokenizer.ggml.padding_token_id', u32(pad)]);
  metadata.push(['tokenizer.ggml.add_bos_token', { type: 'bool', value: tokenizerConfig.add_bos_token === true }]);
  if (typeof tokenizerConfig.chat_template === 'string') metadata.push(['tokenizer.chat_template', { type: 'string', value: tokenizerConfig.chat_template }]);
  // llama.cpp's sampling defaults key, where its converter puts generation_config.json's repetition_penalty
  if (typeof generation.repetition_penalty === 'number') metadata.push(['general.sampling.penalty_repeat', f32(generation.repetition_penalty)]);

  const makers = tinyWeightMakers(spec);
  const names = tinyWeightNames(spec.layers);
  const make = (name: string) => makers.get(name)!();
  const matrix = (ggufName: string, name: string, inputs: number, outputs: number, permuteHeads?: number): GgufTensor => ({
    name: ggufName,
    dims: [inputs, outputs],
    type,
    data: () => {
      const rows = transposed(make(name), inputs, outputs);
      return permuteHeads === undefined ? rows : interleavedRows(rows, permuteHeads, d, inputs);
    },
  });
  const vector = (ggufName: string, name: string, size: number): GgufTensor => ({ name: ggufName, dims: [size], data: () => make(name) });
  const rope = arch === 'llama';
  const tensors: GgufTensor[] = [{ name: 'token_embd.weight', dims: [h, v], type, data: () => make(names.embed) }, vector('output_norm.weight', names.finalNorm, h)];
  if (!spec.tieEmbeddings) tensors.push(matrix('output.weight', names.lmHead, h, v));
  names.layers.forEach((n, i) => {
    const blk = `blk.${i}`;
    tensors.push(
      vector(`${blk}.attn_norm.weight`, n.inputNorm, h),
      matrix(`${blk}.attn_q.weight`, n.wq, h, h, rope ? heads : undefined),
      matrix(`${blk}.attn_k.weight`, n.wk, h, kv, rope ? kvHeads : undefined),
      matrix(`${blk}.attn_v.weight`, n.wv, h, kv),
      matrix(`${blk}.attn_output.weight`, n.wo, h, h),
      vector(`${blk}.ffn_norm.weight`, n.postNorm, h),
      matrix(`${blk}.ffn_gate.weight`, n.wGate, h, m),
      matrix(`${blk}.ffn_up.weight`, n.wUp, h, m),
      matrix(`${blk}.ffn_down.weight`, n.wDown, m, h),
    );
    if (spec.qkvBias) {
      const b = names.biases[i]!;
      tensors.push(vector(`${blk}.attn_q.bias`, b.bq, h), vector(`${blk}.attn_k.bias`, b.bk, kv), vector(`${blk}.attn_v.bias`, b.bv, kv));
    }
  });
  return writeGguf(path.join(dir, GGUF_FILES[type]), metadata, tensors);
}
