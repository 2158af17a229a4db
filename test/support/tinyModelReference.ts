// The tiny model's network evaluated directly in TypeScript (float64) from the weights stored in its ONNX file:
// an independent second computation of the logits for tests of the transformers.js path.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readFloatInitializers } from './onnxGraph.ts';
import { tinyWeightNames, type TinyLayerBiases, type TinyLayerWeights } from './tinyModel.ts';


interface ReferenceConfig {
  hidden: number;
  heads: number;
  /** Key/value heads: query head j attends with key/value head floor(j / (heads / kvHeads)). */
  kvHeads: number;
  headDim: number;
  /** Biases on the q/k/v projections (model_type qwen2). */
  qkvBias: boolean;
  intermediate: number;
  vocab: number;
  layers: number;
  eps: number;
  theta: number;
  /** LM head = embedding matrix transposed (tie_word_embeddings). */
  tied: boolean;
}

type Weights = {
  embed: Float64Array;
  layers: Record<keyof TinyLayerWeights, Float64Array>[];
  biases?: Record<keyof TinyLayerBiases, Float64Array>[];
  finalNorm: Float64Array;
  lmHead: Float64Array;
};

export interface TinyReferenceModel {
  config: ReferenceConfig;
  /** Logits (float64) at every position of one unpadded sequence, positions 0..n-1. */
  logits(ids: number[]): Float64Array[];
  /** Logits (float64) at the last position only (the LM head runs once: fast with large vocabularies). */
  lastLogits(ids: number[]): Float64Array;
  /** Natural-log probability of ids[i] given ids[0..i-1], summed over i in [start, ids.length); float64 log-softmax. */
  continuationLogprob(ids: number[], start: number): number;
  /**
   * Greedy decoding: the argmax token (lowest id on exact ties) appended step by step; `repetitionPenalty` divides
   * (multiplies, when negative) the logits of every token already in the sequence first, as transformers does.
   */
  greedy(ids: number[], steps: number, eos?: number[], repetitionPenalty?: number): { tokens: number[]; margins: number[] };
}


export function loadTinyReferenceModel(dir: string): TinyReferenceModel {
  const cfg = JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8'));
  // Llama's attention_bias also biases o_proj, which the tiny model never has: refuse rather than compute something else.
  if (cfg.model_type === 'llama' && cfg.attention_bias === true) throw new Error(`${dir}/config.json: attention_bias true (o_proj bias) is not supported`);
  const config: ReferenceConfig = {
    hidden: cfg.hidden_size,
    heads: cfg.num_attention_heads,
    kvHeads: cfg.num_key_value_heads ?? cfg.num_attention_heads,
    headDim: cfg.head_dim ?? cfg.hidden_size / cfg.num_attention_heads,
    qkvBias: cfg.model_type === 'qwen2',
    intermediate: cfg.intermediate_size,
    vocab: cfg.vocab_size,
    layers: cfg.num_hidden_layers,
    eps: cfg.rms_norm_eps,
    theta: cfg.rope_theta,
    tied: cfg.tie_word_embeddings === true,
  };
  const init = readFloatInitializers(readFileSync(path.join(dir, 'onnx', 'model.onnx')));
  const get = (name: string, size: number) => {
    const t = init.get(name);
    if (!t || t.length !== size) throw new Error(`${dir}/onnx/model.onnx: initializer ${name} missing or not of size ${size}`);
    return t;
  };
  if (!Number.isInteger(config.kvHeads) || config.kvHeads < 1 || config.heads % config.kvHeads !== 0) {
    throw new Error(`${dir}/config.json: num_key_value_heads ${config.kvHeads} does not divide num_attention_heads ${config.heads}`);
  }
  const { hidden: h, intermediate: m, vocab: v } = config;
  const kv = config.kvHeads * config.headDim;
  const names = tinyWeightNames(config.layers);
  const w: Weights = {
    embed: get(names.embed, v * h),
    finalNorm: get(names.finalNorm, h),
    lmHead: config.tied ? transpose(get(names.embed, v * h), v, h) : get(names.lmHead, h * v),
    layers: names.layers.map((n) => ({
      inputNorm: get(n.inputNorm, h),
      wq: get(n.wq, h * h),
      wk: get(n.wk, h * kv),
      wv: get(n.wv, h * kv),
      wo: get(n.wo, h * h),
      postNorm: get(n.postNorm, h),
      wGate: get(n.wGate, h * m),
      wUp: get(n.wUp, h * m),
      wDown: get(n.wDown, m * h),
    })),
    biases: config.qkvBias ? names.biases.map((n) => ({ bq: get(n.bq, h), bk: get(n.bk, kv), bv: get(n.bv, kv) })) : undefined,
  };
  const logits = (ids: number[]) => forward(config, w, ids);
  const lastLogits = (ids: number[]) => forward(config, w, ids, true)[0]!;
  return {
    config,
    logits,
    lastLogits,
    continuationLogprob(ids, start) {
      if (start < 1) throw new Error('the first scored token needs at least one token before it');
      const rows = logits(ids);
      let total = 0;
      for (let i = start; i < ids.length; i++) total += logSoftmaxAt(rows[i - 1]!, ids[i]!);
      return total;
    },
    greedy(ids, steps, eos = [], repetitionPenalty = 1) {
      const seq = ids.slice();
      const tokens: number[] = [];
      const margins: number[] = [];
      for (let s = 0; s < steps; s++) {
        const row = lastLogits(seq);
        if (repetitionPenalty !== 1) for (const t of new Set(seq)) row[t] = row[t]! < 0 ? row[t]! * repetitionPenalty : row[t]! / repetitionPenalty;
        let best = 0;
        for (let j = 1; j < row.length; j++) if (row[j]! > row[best]!) best = j;
        let second = -Infinity;
        for (let j = 0; j < row.length; j++) if (j !== best && row[j]! > second) second = row[j]!;
        tokens.push(best);
        margins.push(row[best]! - second);
        seq.push(best);
        if (eos.includes(best)) break;
      }
      return { tokens, margins };
    },
  };
}

export function logSoftmaxAt(row: ArrayLike<number>, index: number): number {
  let max = -Infinity;
  for (let j = 0; j < row.length; j++) if (row[j]! > max) max = row[j]!;
  let sum = 0;
  for (let j = 0; j < row.length; j++) sum += Math.exp(row[j]! - max);
  return row[index]! - max - Math.log(sum);
}

/** x [n, in] · W [in, out] (+ bias [out]) → [n, out] */
function matmul(x: Float64Array, n: number, inDim: number, wt: Float64Array, outDim: number, bias?: Float64Array): Float64Array {
  const out = new Float64Array(n * outDim);
  if (bias) for (let r = 0; r < n; r++) out.set(bias, r * outDim);
  for (let r = 0; r < n; r++) {
    for (let k = 0; k < inDim; k++) {
      const a = x[r * inDim + k]!;
      if (a === 0) continue;
      const rowW = k * outDim;
      const rowO = r * outDim;
      for (let c = 0; c < outDim; c++) out[rowO + c]! += a * wt[rowW + c]!;
    }
  }
  return out;
}

function rmsNorm(x: Float64Array, n: number, h: number, weight: Float64Array, eps: number): Float64Array {
  const out = new Float64Array(n * h);
  for (let r = 0; r < n; r++) {
    let ms = 0;
    for (let c = 0; c < h; c++) ms += x[r * h + c]! ** 2;
    const inv = 1 / Math.sqrt(ms / h + eps);
    for (let c = 0; c < h; c++) out[r * h + c] = x[r * h + c]! * inv * weight[c]!;
  }
  return out;
}

/** Rotary embedding on [n, heads*headDim] (HF Llama: rotate_half on the two halves of each head). */
function rotary(t: Float64Array, n: number, heads: number, d: number, theta: number): Float64Array {
  const out = new Float64Array(t.length);
  const half = d / 2;
  for (let p = 0; p < n; p++) {
    for (let hd = 0; hd < heads; hd++) {
      const base = p * heads * d + hd * d;
      for (let i = 0; i < half; i++) {
        const angle = p * Math.pow(theta, (-2 * i) / d);
        const cs = Math.cos(angle);
        const sn = Math.sin(angle);
        const a = t[base + i]!;
        const b = t[base + i + half]!;
        out[base + i] = a * cs - b * sn;
        out[base + i + half] = b * cs + a * sn;
      }
    }
  }
  return out;
}

/** [rows, cols] → [cols, rows] */
function transpose(m: Float64Array, rows: number, cols: number): Float64Array {
  const out = new Float64Array(m.length);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out[c * rows + r] = m[r * cols + c]!;
  return out;
}

function forward(cfg: ReferenceConfig, w: Weights, ids: number[], lastOnly = false): Float64Array[] {
  const { hidden: h, heads, kvHeads, headDim: d, intermediate: m, vocab: v } = cfg;
  const kv = kvHeads * d;
  const groups = heads / kvHeads;
  const n = ids.length;
  let x = new Float64Array(n * h);
  ids.forEach((id, p) => {
    if (!Number.isInteger(id) || id < 0 || id >= v) throw new Error(`token id ${id} outside the vocabulary (size ${v})`);
    x.set(w.embed.subarray(id * h, id * h + h), p * h);
  });
  for (const [li, layer] of w.layers.entries()) {
    const b = w.biases?.[li];
    const hn = rmsNorm(x, n, h, layer.inputNorm, cfg.eps);
    const q = rotary(matmul(hn, n, h, layer.wq, h, b?.bq), n, heads, d, cfg.theta);
    const k = rotary(matmul(hn, n, h, layer.wk, kv, b?.bk), n, kvHeads, d, cfg.theta);
    const val = matmul(hn, n, h, layer.wv, kv, b?.bv);
    const attn = new Float64Array(n * h);
    const scale = 1 / Math.sqrt(d);
    const scores = new Float64Array(n);
    for (let hd = 0; hd < heads; hd++) {
      const kvBase = Math.floor(hd / groups) * d;
      for (let i = 0; i < n; i++) {
        let max = -Infinity;
        for (let j = 0; j <= i; j++) {
          let s = 0;
          for (let c = 0; c < d; c++) s += q[i * h + hd * d + c]! * k[j * kv + kvBase + c]!;
          scores[j] = s * scale;
          if (scores[j]! > max) max = scores[j]!;
        }
        let sum = 0;
        for (let j = 0; j <= i; j++) {
          scores[j] = Math.exp(scores[j]! - max);
          sum += scores[j]!;
        }
        for (let j = 0; j <= i; j++) {
          const p = scores[j]! / sum;
          for (let c = 0; c < d; c++) attn[i * h + hd * d + c]! += p * val[j * kv + kvBase + c]!;
        }
      }
    }
    const o = matmul(attn, n, h, layer.wo, h);
    x = x.map((value, idx) => value + o[idx]!);
    const h2 = rmsNorm(x, n, h, layer.postNorm, cfg.eps);
    const gate = matmul(h2, n, h, layer.wGate, m);
    const up = matmul(h2, n, h, layer.wUp, m);
    const act = gate.map((g, idx) => (g / (1 + Math.exp(-g))) * up[idx]!);
    const down = matmul(act, n, m, layer.wDown, h);
    x = x.map((value, idx) => value + down[idx]!);
  }
  if (lastOnly) return [matmul(rmsNorm(x.subarray((n - 1) * h), 1, h, w.finalNorm, cfg.eps), 1, h, w.lmHead, v)];
  const logits = matmul(rmsNorm(x, n, h, w.finalNorm, cfg.eps), n, h, w.lmHead, v);
  return Array.from({ length: n }, (_, p) => logits.slice(p * v, p * v + v));
}
