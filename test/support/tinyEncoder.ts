// A small BERT-style encoder the project generates itself (ONNX graph + WordPiece tokenizer + configs), loadable by
// transformers.js like a Hub model. Two kinds: `bert` (AutoModel: last_hidden_state and every layer's hidden states,
// for BERTScore) and `regression` (AutoModelForSequenceClassification with one logit, for BLEURT). Tests only.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { encodeOnnxModel, ONNX_BOOL, ONNX_FLOAT, ONNX_INT64, OnnxGraphBuilder, onnxValueInfo } from './onnxGraph.ts';
import { hashString, seededRandom } from './seededRandom.ts';


export type TinyEncoderKind = 'bert' | 'regression';

export interface TinyEncoderSpec {
  kind: TinyEncoderKind;
  layers: number;
  hidden: number;
  heads: number;
  intermediate: number;
  maxPositions: number;
  typeVocab: number;
  layerNormEps: number;
  seed: number;
}

export const TINY_ENCODER_DEFAULTS: TinyEncoderSpec = {
  kind: 'bert',
  layers: 2,
  hidden: 16,
  heads: 2,
  intermediate: 32,
  maxPositions: 128,
  typeVocab: 2,
  layerNormEps: 1e-12,
  seed: 1,
};

export function resolveTinyEncoderSpec(partial: Partial<TinyEncoderSpec> = {}): TinyEncoderSpec {
  const spec = { ...TINY_ENCODER_DEFAULTS, ...partial };
  const problems: string[] = [];
  if (spec.kind !== 'bert' && spec.kind !== 'regression') problems.push(`kind must be "bert" or "regression" (got "${spec.kind}")`);
  for (const key of ['layers', 'hidden', 'heads', 'intermediate', 'maxPositions', 'typeVocab'] as const) {
    if (!Number.isInteger(spec[key]) || spec[key] < 1) problems.push(`${key} must be a positive integer (got ${spec[key]})`);
  }
  if (!Number.isInteger(spec.seed)) problems.push(`seed must be an integer (got ${spec.seed})`);
  if (!(spec.layerNormEps > 0)) problems.push(`layerNormEps must be positive (got ${spec.layerNormEps})`);
  if (spec.hidden % spec.heads !== 0) problems.push(`hidden (${spec.hidden}) must be divisible by heads (${spec.heads})`);
  if (problems.length > 0) throw new Error(`invalid tiny encoder spec: ${problems.join('; ')}`);
  return spec;
}

// ---------------------------------------------------------------------------------------------------------------
// Deterministic weights

/** Uniform weights in [offset − scale, offset + scale); every tensor gets its own stream, so adding one changes no other. */
function uniform(seed: number, name: string, size: number, scale: number, offset = 0): Float32Array {
  const next = seededRandom(hashString(`${seed}:${name}`));
  const out = new Float32Array(size);
  for (let i = 0; i < size; i++) out[i] = offset + scale * (2 * next() - 1);
  return out;
}

/** ONNX initializer names (Hugging Face BERT parameter names; matrices are stored [in, out] for MatMul). */
export function tinyEncoderWeightNames(layers: number) {
  return {
    wordEmbeddings: 'embeddings.word_embeddings.weight',
    positionEmbeddings: 'embeddings.position_embeddings.weight',
    typeEmbeddings: 'embeddings.token_type_embeddings.weight',
    embNormWeight: 'embeddings.LayerNorm.weight',
    embNormBias: 'embeddings.LayerNorm.bias',
    layers: Array.from({ length: layers }, (_, i) => {
      const p = `encoder.layer.${i}`;
      return {
        wq: `${p}.attention.self.query.weight`,
        bq: `${p}.attention.self.query.bias`,
        wk: `${p}.attention.self.key.weight`,
        bk: `${p}.attention.self.key.bias`,
        wv: `${p}.attention.self.value.weight`,
        bv: `${p}.attention.self.value.bias`,
        wo: `${p}.attention.output.dense.weight`,
        bo: `${p}.attention.output.dense.bias`,
        attnNormWeight: `${p}.attention.output.LayerNorm.weight`,
        attnNormBias: `${p}.attention.output.LayerNorm.bias`,
        wIn: `${p}.intermediate.dense.weight`,
        bIn: `${p}.intermediate.dense.bias`,
        wOut: `${p}.output.dense.weight`,
        bOut: `${p}.output.dense.bias`,
        outNormWeight: `${p}.output.LayerNorm.weight`,
        outNormBias: `${p}.output.LayerNorm.bias`,
      };
    }),
    poolerWeight: 'pooler.dense.weight',
    poolerBias: 'pooler.dense.bias',
    classifierWeight: 'classifier.weight',
    classifierBias: 'classifier.bias',
  };
}

export type TinyEncoderLayerWeights = Record<keyof ReturnType<typeof tinyEncoderWeightNames>['layers'][number], Float32Array>;

export interface TinyEncoderWeights {
  wordEmbeddings: Float32Array; // [vocab, hidden]
  positionEmbeddings: Float32Array; // [maxPositions, hidden]
  typeEmbeddings: Float32Array; // [typeVocab, hidden]
  embNormWeight: Float32Array;
  embNormBias: Float32Array;
  layers: TinyEncoderLayerWeights[];
  /** Regression head (kind `regression` only). */
  poolerWeight?: Float32Array; // [hidden, hidden]
  poolerBias?: Float32Array;
  classifierWeight?: Float32Array; // [hidden, 1]
  classifierBias?: Float32Array; // [1]
}

/** Uniform weights scaled by 1/sqrt(fan_in) (unit-variance activations), layer norms near identity, small biases. */
export function makeTinyEncoderWeights(spec: TinyEncoderSpec, vocab: number): TinyEncoderWeights {
  const { hidden: h, intermediate: m, seed } = spec;
  const n = tinyEncoderWeightNames(spec.layers);
  const lin = (fanIn: number) => Math.sqrt(3 / fanIn);
  const weights: TinyEncoderWeights = {
    wordEmbeddings: uniform(seed, n.wordEmbeddings, vocab * h, 1),
    positionEmbeddings: uniform(seed, n.positionEmbeddings, spec.maxPositions * h, 0.5),
    typeEmbeddings: uniform(seed, n.typeEmbeddings, spec.typeVocab * h, 0.5),
    embNormWeight: uniform(seed, n.embNormWeight, h, 0.1, 1),
    embNormBias: uniform(seed, n.embNormBias, h, 0.1),
    layers: n.layers.map((l) => ({
      wq: uniform(seed, l.wq, h * h, lin(h)),
      bq: uniform(seed, l.bq, h, 0.1),
      wk: uniform(seed, l.wk, h * h, lin(h)),
      bk: uniform(seed, l.bk, h, 0.1),
      wv: uniform(seed, l.wv, h * h, lin(h)),
      bv: uniform(seed, l.bv, h, 0.1),
      wo: uniform(seed, l.wo, h * h, lin(h)),
      bo: uniform(seed, l.bo, h, 0.1),
      attnNormWeight: uniform(seed, l.attnNormWeight, h, 0.1, 1),
      attnNormBias: uniform(seed, l.attnNormBias, h, 0.1),
      wIn: uniform(seed, l.wIn, h * m, lin(h)),
      bIn: uniform(seed, l.bIn, m, 0.1),
      wOut: uniform(seed, l.wOut, m * h, lin(m)),
      bOut: uniform(seed, l.bOut, h, 0.1),
      outNormWeight: uniform(seed, l.outNormWeight, h, 0.1, 1),
      outNormBias: uniform(seed, l.outNormBias, h, 0.1),
    })),
  };
  if (spec.kind === 'regression') {
    weights.poolerWeight = uniform(seed, n.poolerWeight, h * h, lin(h));
    weights.poolerBias = uniform(seed, n.poolerBias, h, 0.1);
    weights.classifierWeight = uniform(seed, n.classifierWeight, h, lin(h));
    weights.classifierBias = uniform(seed, n.classifierBias, 1, 0.1);
  }
  return weights;
}

export function tinyEncoderParameterCount(spec: TinyEncoderSpec, vocab: number): number {
  const { hidden: h, intermediate: m, layers } = spec;
  const head = spec.kind === 'regression' ? h * h + h + h + 1 : 0;
  return (vocab + spec.maxPositions + spec.typeVocab) * h + 2 * h + layers * (4 * h * h + 4 * h + 2 * h * m + m + h + 4 * h) + head;
}

// ---------------------------------------------------------------------------------------------------------------
// Tokenizer: BERT WordPiece (cased, accents kept) over a fixed vocabulary

export const TINY_ENCODER_SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'] as const;
/** Whole words and word pieces (Filipino and English function words), so tokenisation is not all single characters. */
const TINY_WORDS = ['ang', 'ng', 'sa', 'mga', 'na', 'ay', 'po', 'salamat', 'hindi', 'oo', 'the', 'is', 'of', 'and', 'to', 'in'];
const TINY_PIECES = ['##ng', '##an', '##at', '##ay', '##in', '##on'];

/**
 * The vocabulary in id order: 5 special tokens, every printable ASCII character and ñ/Ñ as a word start, every ASCII
 * letter/digit and ñ/Ñ as a continuation (##x), then the whole words and pieces above.
 */
export function tinyEncoderVocabulary(): string[] {
  const starts: string[] = [];
  for (let c = 0x21; c <= 0x7e; c++) starts.push(String.fromCharCode(c));
  starts.push('ñ', 'Ñ');
  const continuations = starts.filter((c) => /^[A-Za-z0-9ñÑ]$/.test(c)).map((c) => `##${c}`);
  return [...TINY_ENCODER_SPECIAL_TOKENS, ...starts, ...continuations, ...TINY_WORDS, ...TINY_PIECES];
}

export interface TinyEncoderTokenizerFiles {
  tokenizerJson: Record<string, unknown>;
  tokenizerConfig: Record<string, unknown>;
  vocab: string[];
}

export function buildTinyEncoderTokenizer(spec: TinyEncoderSpec): TinyEncoderTokenizerFiles {
  const vocab = tinyEncoderVocabulary();
  const ids: Record<string, number> = {};
  vocab.forEach((t, i) => (ids[t] = i));
  const special = (t: (typeof TINY_ENCODER_SPECIAL_TOKENS)[number]) => ({ id: t, ids: [ids[t]], tokens: [t] });
  const cls = { SpecialToken: { id: '[CLS]', type_id: 0 } };
  const tokenizerJson = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: TINY_ENCODER_SPECIAL_TOKENS.map((content) => ({
      id: ids[content],
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: false, lowercase: false },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [cls, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
      pair: [
        cls,
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: { '[CLS]': special('[CLS]'), '[SEP]': special('[SEP]') },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab: ids },
  };
  const tokenizerConfig = {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: false,
    strip_accents: false,
    tokenize_chinese_chars: true,
    cls_token: '[CLS]',
    sep_token: '[SEP]',
    pad_token: '[PAD]',
    unk_token: '[UNK]',
    mask_token: '[MASK]',
    model_max_length: spec.maxPositions,
    padding_side: 'right',
    clean_up_tokenization_spaces: true,
  };
  return { tokenizerJson, tokenizerConfig, vocab };
}

// ---------------------------------------------------------------------------------------------------------------
// ONNX graph

const OPSET = 17;

/**
 * The encoder graph: inputs input_ids, attention_mask and token_type_ids ([batch_size, sequence_length], int64).
 * Kind `bert` outputs last_hidden_state and hidden_states.0 (embeddings) … hidden_states.N (after layer N);
 * kind `regression` outputs logits [batch_size, 1] (tanh pooler on the first token, then a linear layer).
 */
export function buildTinyEncoderOnnx(spec: TinyEncoderSpec, weights: TinyEncoderWeights, vocab: number): Uint8Array {
  const { hidden: h, heads, intermediate: m, layers } = spec;
  const d = h / heads;
  const g = new OnnxGraphBuilder();
  const n = tinyEncoderWeightNames(layers);

  const inputs = [
    onnxValueInfo('input_ids', ONNX_INT64, ['batch_size', 'sequence_length']),
    onnxValueInfo('attention_mask', ONNX_INT64, ['batch_size', 'sequence_length']),
    onnxValueInfo('token_type_ids', ONNX_INT64, ['batch_size', 'sequence_length']),
  ];
  const c = {
    zero: g.int64Init('const.i0', [], [0]),
    one: g.int64Init('const.i1', [], [1]),
    axes12: g.int64Init('const.axes12', [2], [1, 2]),
    headsShape: g.int64Init('const.heads_shape', [4], [0, 0, heads, d]),
    mergeShape: g.int64Init('const.merge_shape', [3], [0, 0, h]),
    scale: g.floatInit('const.attn_scale', [], Float32Array.of(1 / Math.sqrt(d))),
    masked: g.floatInit('const.masked', [], Float32Array.of(-1e30)),
    invSqrt2: g.floatInit('const.inv_sqrt2', [], Float32Array.of(Math.SQRT1_2)),
    oneF: g.floatInit('const.f1', [], Float32Array.of(1)),
    halfF: g.floatInit('const.f05', [], Float32Array.of(0.5)),
  };
  const layerNorm = (x: string, wName: string, w: Float32Array, bName: string, b: Float32Array, output?: string) =>
    g.node('LayerNormalization', [x, g.floatInit(wName, [h], w), g.floatInit(bName, [h], b)], { axis: -1, epsilon: spec.layerNormEps }, output);
  const linear = (x: string, wName: string, w: Float32Array, bName: string, b: Float32Array, fanIn: number, fanOut: number) =>
    g.node('Add', [g.node('MatMul', [x, g.floatInit(wName, [fanIn, fanOut], w)]), g.floatInit(bName, [fanOut], b)]);
  // Exact GELU, as BERT's hidden_act "gelu": 0.5·x·(1 + erf(x/√2))
  const gelu = (x: string) => g.node('Mul', [g.node('Mul', [x, g.node('Add', [g.node('Erf', [g.node('Mul', [x, c.invSqrt2])]), c.oneF])]), c.halfF]);

  // Embeddings: word + absolute position + token type, then LayerNorm
  const seqLen = g.node('Gather', [g.node('Shape', ['input_ids']), c.one], { axis: 0 });
  const positions = g.node('Range', [c.zero, seqLen, c.one]);
  const word = g.node('Gather', [g.floatInit(n.wordEmbeddings, [vocab, h], weights.wordEmbeddings), 'input_ids'], { axis: 0 });
  const pos = g.node('Gather', [g.floatInit(n.positionEmbeddings, [spec.maxPositions, h], weights.positionEmbeddings), positions], { axis: 0 });
  const type = g.node('Gather', [g.floatInit(n.typeEmbeddings, [spec.typeVocab, h], weights.typeEmbeddings), 'token_type_ids'], { axis: 0 });
  const kind = spec.kind;
  let x = layerNorm(g.node('Add', [g.node('Add', [word, pos]), type]), n.embNormWeight, weights.embNormWeight, n.embNormBias, weights.embNormBias, kind === 'bert' ? 'hidden_states.0' : undefined);

  // Key j is visible to every query iff attention_mask[j] = 1: [B, 1, 1, S]
  const visible = g.node('Unsqueeze', [g.node('Cast', ['attention_mask'], { to: ONNX_BOOL }), c.axes12]);
  const splitHeads = (t: string, perm: number[]) => g.node('Transpose', [g.node('Reshape', [t, c.headsShape])], { perm });

  for (let i = 0; i < layers; i++) {
    const ln = n.layers[i]!;
    const w = weights.layers[i]!;
    const q = splitHeads(linear(x, ln.wq, w.wq, ln.bq, w.bq, h, h), [0, 2, 1, 3]); // [B, A, S, D]
    const kT = splitHeads(linear(x, ln.wk, w.wk, ln.bk, w.bk, h, h), [0, 2, 3, 1]); // [B, A, D, S]
    const v = splitHeads(linear(x, ln.wv, w.wv, ln.bv, w.bv, h, h), [0, 2, 1, 3]);
    const scores = g.node('Mul', [g.node('MatMul', [q, kT]), c.scale]);
    const probs = g.node('Softmax', [g.node('Where', [visible, scores, c.masked])], { axis: -1 });
    const context = g.node('Reshape', [g.node('Transpose', [g.node('MatMul', [probs, v])], { perm: [0, 2, 1, 3] }), c.mergeShape]);
    const attended = layerNorm(g.node('Add', [x, linear(context, ln.wo, w.wo, ln.bo, w.bo, h, h)]), ln.attnNormWeight, w.attnNormWeight, ln.attnNormBias, w.attnNormBias);
    const ff = linear(gelu(linear(attended, ln.wIn, w.wIn, ln.bIn, w.bIn, h, m)), ln.wOut, w.wOut, ln.bOut, w.bOut, m, h);
    x = layerNorm(g.node('Add', [attended, ff]), ln.outNormWeight, w.outNormWeight, ln.outNormBias, w.outNormBias, kind === 'bert' ? `hidden_states.${i + 1}` : undefined);
  }

  const outputs: ReturnType<typeof onnxValueInfo>[] = [];
  if (kind === 'bert') {
    g.node('Identity', [x], {}, 'last_hidden_state');
    outputs.push(onnxValueInfo('last_hidden_state', ONNX_FLOAT, ['batch_size', 'sequence_length', h]));
    for (let i = 0; i <= layers; i++) outputs.push(onnxValueInfo(`hidden_states.${i}`, ONNX_FLOAT, ['batch_size', 'sequence_length', h]));
  } else {
    const first = g.node('Gather', [x, c.zero], { axis: 1 }); // [B, H]: the [CLS] position
    const pooled = g.node('Tanh', [linear(first, n.poolerWeight, weights.poolerWeight!, n.poolerBias, weights.poolerBias!, h, h)]);
    g.node('Add', [g.node('MatMul', [pooled, g.floatInit(n.classifierWeight, [h, 1], weights.classifierWeight!)]), g.floatInit(n.classifierBias, [1], weights.classifierBias!)], {}, 'logits');
    outputs.push(onnxValueInfo('logits', ONNX_FLOAT, ['batch_size', 1]));
  }
  return encodeOnnxModel(g, `tiny_${kind}_encoder`, inputs, outputs, OPSET, 'vitest-lokal make-tiny-encoder');
}

// ---------------------------------------------------------------------------------------------------------------
// Writing a model folder

export interface TinyEncoderInfo {
  dir: string;
  spec: TinyEncoderSpec;
  vocab: string[];
  parameters: number;
}

/** Writes config.json, tokenizer.json, tokenizer_config.json and onnx/model.onnx into `dir`. */
export function writeTinyEncoder(dir: string, partial: Partial<TinyEncoderSpec> = {}): TinyEncoderInfo {
  const spec = resolveTinyEncoderSpec(partial);
  const tokenizer = buildTinyEncoderTokenizer(spec);
  const vocabSize = tokenizer.vocab.length;
  const weights = makeTinyEncoderWeights(spec, vocabSize);
  const onnxBytes = buildTinyEncoderOnnx(spec, weights, vocabSize);
  const config: Record<string, unknown> = {
    architectures: [spec.kind === 'bert' ? 'BertModel' : 'BertForSequenceClassification'],
    model_type: 'bert',
    vocab_size: vocabSize,
    hidden_size: spec.hidden,
    num_hidden_layers: spec.layers,
    num_attention_heads: spec.heads,
    intermediate_size: spec.intermediate,
    hidden_act: 'gelu',
    max_position_embeddings: spec.maxPositions,
    type_vocab_size: spec.typeVocab,
    layer_norm_eps: spec.layerNormEps,
    position_embedding_type: 'absolute',
    pad_token_id: 0,
    torch_dtype: 'float32',
    lokal_tiny_encoder: { kind: spec.kind, seed: spec.seed, generator: 'scripts/make-tiny-encoder.ts' },
  };
  if (spec.kind === 'regression') Object.assign(config, { num_labels: 1, id2label: { 0: 'LABEL_0' }, label2id: { LABEL_0: 0 }, problem_type: 'regression' });
  mkdirSync(path.join(dir, 'onnx'), { recursive: true });
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  writeFileSync(path.join(dir, 'config.json'), json(config));
  writeFileSync(path.join(dir, 'tokenizer.json'), JSON.stringify(tokenizer.tokenizerJson));
  writeFileSync(path.join(dir, 'tokenizer_config.json'), json(tokenizer.tokenizerConfig));
  writeFileSync(path.join(dir, 'onnx', 'model.onnx'), onnxBytes);
  return { dir, spec, vocab: tokenizer.vocab, parameters: tinyEncoderParameterCount(spec, vocabSize) };
}
