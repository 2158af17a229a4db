// The tiny encoder's network evaluated directly in TypeScript (float64) from the weights stored in its ONNX file:
// an independent second computation of hidden states and regression outputs, for tests of the transformers.js path.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { erf } from './erf.ts';
import { readFloatInitializers } from './onnxGraph.ts';
import { tinyEncoderWeightNames } from './tinyEncoder.ts';

export interface TinyEncoderReferenceConfig {
  hidden: number;
  heads: number;
  intermediate: number;
  layers: number;
  vocab: number;
  maxPositions: number;
  typeVocab: number;
  eps: number;
  regression: boolean;
}

export interface TinyEncoderReference {
  config: TinyEncoderReferenceConfig;
  /** Hidden states of one unpadded sequence: index 0 = embeddings, index l = after layer l; each [position][hidden]. */
  hiddenStates(inputIds: number[], tokenTypeIds?: number[]): Float64Array[][];
  /** The regression head's single output for one unpadded sequence (kind `regression`). */
  regression(inputIds: number[], tokenTypeIds?: number[]): number;
}

type Vec = Float64Array;

function layerNorm(x: Vec, weight: Vec, bias: Vec, eps: number): Vec {
  const n = x.length;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += x[i]!;
  mean /= n;
  let variance = 0;
  for (let i = 0; i < n; i++) variance += (x[i]! - mean) ** 2;
  variance /= n;
  const inv = 1 / Math.sqrt(variance + eps);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = (x[i]! - mean) * inv * weight[i]! + bias[i]!;
  return out;
}

/** x·W + b with W stored row-major as [in, out]. */
function linear(x: Vec, w: Vec, b: Vec | undefined, fanOut: number): Vec {
  const out = new Float64Array(fanOut);
  for (let j = 0; j < fanOut; j++) out[j] = b ? b[j]! : 0;
  for (let i = 0; i < x.length; i++) {
    const xi = x[i]!;
    const row = i * fanOut;
    for (let j = 0; j < fanOut; j++) out[j]! += xi * w[row + j]!;
  }
  return out;
}

const add = (a: Vec, b: Vec): Vec => a.map((v, i) => v + b[i]!);
const gelu = (v: number) => 0.5 * v * (1 + erf(v / Math.SQRT2));

export function loadTinyEncoderReference(dir: string): TinyEncoderReference {
  const cfg = JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8'));
  const config: TinyEncoderReferenceConfig = {
    hidden: cfg.hidden_size,
    heads: cfg.num_attention_heads,
    intermediate: cfg.intermediate_size,
    layers: cfg.num_hidden_layers,
    vocab: cfg.vocab_size,
    maxPositions: cfg.max_position_embeddings,
    typeVocab: cfg.type_vocab_size,
    eps: cfg.layer_norm_eps,
    regression: cfg.num_labels === 1,
  };
  const init = readFloatInitializers(readFileSync(path.join(dir, 'onnx', 'model.onnx')));
  const get = (name: string): Vec => {
    const t = init.get(name);
    if (!t) throw new Error(`${dir}/onnx/model.onnx has no initializer ${name}`);
    return t;
  };
  const names = tinyEncoderWeightNames(config.layers);
  const { hidden: h, heads, intermediate: m } = config;
  const d = h / heads;
  const row = (table: Vec, index: number, limit: number, what: string): Vec => {
    if (!Number.isInteger(index) || index < 0 || index >= limit) throw new Error(`${what} ${index} out of range [0, ${limit})`);
    return table.subarray(index * h, (index + 1) * h);
  };
  const word = get(names.wordEmbeddings);
  const position = get(names.positionEmbeddings);
  const type = get(names.typeEmbeddings);
  const embNorm = [get(names.embNormWeight), get(names.embNormBias)] as const;
  const layers = names.layers.map((n) => Object.fromEntries(Object.entries(n).map(([k, name]) => [k, get(name)])) as Record<keyof typeof n, Vec>);

  function hiddenStates(inputIds: number[], tokenTypeIds?: number[]): Float64Array[][] {
    const s = inputIds.length;
    const types = tokenTypeIds ?? inputIds.map(() => 0);
    if (types.length !== s) throw new Error(`tokenTypeIds has ${types.length} entries for ${s} input ids`);
    let x: Vec[] = inputIds.map((id, p) =>
      layerNorm(add(add(row(word, id, config.vocab, 'token id'), row(position, p, config.maxPositions, 'position')), row(type, types[p]!, config.typeVocab, 'token type')), embNorm[0], embNorm[1], config.eps),
    );
    const states = [x];
    for (const w of layers) {
      const q = x.map((v) => linear(v, w.wq, w.bq, h));
      const k = x.map((v) => linear(v, w.wk, w.bk, h));
      const v = x.map((u) => linear(u, w.wv, w.bv, h));
      const context = x.map(() => new Float64Array(h));
      for (let a = 0; a < heads; a++) {
        const off = a * d;
        for (let i = 0; i < s; i++) {
          const scores = new Float64Array(s);
          let max = -Infinity;
          for (let j = 0; j < s; j++) {
            let dot = 0;
            for (let e = 0; e < d; e++) dot += q[i]![off + e]! * k[j]![off + e]!;
            scores[j] = dot / Math.sqrt(d);
            if (scores[j]! > max) max = scores[j]!;
          }
          let total = 0;
          for (let j = 0; j < s; j++) total += (scores[j] = Math.exp(scores[j]! - max));
          for (let j = 0; j < s; j++) {
            const p = scores[j]! / total;
            for (let e = 0; e < d; e++) context[i]![off + e]! += p * v[j]![off + e]!;
          }
        }
      }
      const attended = x.map((u, i) => layerNorm(add(u, linear(context[i]!, w.wo, w.bo, h)), w.attnNormWeight, w.attnNormBias, config.eps));
      x = attended.map((u) => {
        const inner = linear(u, w.wIn, w.bIn, m).map(gelu);
        return layerNorm(add(u, linear(inner, w.wOut, w.bOut, h)), w.outNormWeight, w.outNormBias, config.eps);
      });
      states.push(x);
    }
    return states;
  }

  function regression(inputIds: number[], tokenTypeIds?: number[]): number {
    if (!config.regression) throw new Error(`${dir} is not a regression model (config.num_labels is not 1)`);
    const last = hiddenStates(inputIds, tokenTypeIds).at(-1)!;
    const pooled = linear(last[0]!, get(names.poolerWeight), get(names.poolerBias), h).map(Math.tanh);
    return linear(pooled, get(names.classifierWeight), get(names.classifierBias), 1)[0]!;
  }

  return { config, hiddenStates, regression };
}
