// The weight variants transformers.js loads by dtype, made from a float32 model.onnx the way the published models are
// made: q8 as onnxruntime's quantize_dynamic writes MatMuls (DynamicQuantizeLinear on the activation, one scale and zero
// point for the whole tensor, + MatMulInteger on per-tensor uint8 or int8 weights), q4 as its MatMul4BitsQuantizer
// (com.microsoft MatMulNBits, 4 bits, asymmetric blocks of 32) and fp16 as onnxconverter-common's float16 conversion
// (every float tensor, the inputs and outputs included, in float16). Only MatMuls whose weight is an initializer are
// quantised (the embedding Gather and a tied head's Gemm stay float, as both quantisers leave them by default).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;
type ModelProto = InstanceType<typeof onnx.ModelProto>;
type NodeProto = onnxProto.onnx.INodeProto;
type TensorProto = onnxProto.onnx.ITensorProto;

const T = onnx.TensorProto.DataType;
const A = onnx.AttributeProto.AttributeType;

export type QuantisedDtype = 'q8' | 'q4' | 'fp16';

/** The file transformers.js loads for each variant (its dtype → file-name suffix table). */
export const QUANTISED_FILES: Record<QuantisedDtype, string> = { q8: 'model_quantized.onnx', q4: 'model_q4.onnx', fp16: 'model_fp16.onnx' };

export interface QuantiseOptions {
  /** q8 weight type: uint8 (asymmetric, onnxruntime's QUInt8) or int8 (symmetric, QInt8); default uint8. */
  weightType?: 'uint8' | 'int8';
  /** q4 block size along K (default 32). */
  blockSize?: number;
}

/** A float32 tensor's values (raw little-endian data or float_data). */
export function floatValues(t: TensorProto): Float32Array {
  if (t.rawData && t.rawData.length > 0) {
    const copy = new Uint8Array(t.rawData.length);
    copy.set(t.rawData);
    return new Float32Array(copy.buffer);
  }
  return Float32Array.from(t.floatData ?? []);
}

const bytesOf = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
const tensor = (name: string, dims: number[], dataType: number, data: ArrayBufferView) => onnx.TensorProto.create({ name, dims, dataType, rawData: bytesOf(data) });
const node = (opType: string, input: string[], output: string[], name: string, attribute: object[] = [], domain?: string) =>
  onnx.NodeProto.create({ opType, input, output, name, attribute, ...(domain ? { domain } : {}) });
const intAttr = (name: string, i: number) => ({ name, type: A.INT, i });

/** numpy's rint: round half to even (onnxruntime's quantiser rounds with it). */
export function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** Per-tensor 8-bit weights as onnxruntime's quantize_data: uint8 over [min(w,0), max(w,0)], int8 symmetric in ±127. */
export function quantiseTensor8(w: Float32Array, type: 'uint8' | 'int8'): { q: Uint8Array | Int8Array; scale: number; zeroPoint: number } {
  let lo = 0;
  let hi = 0;
  for (const v of w) (lo = Math.min(lo, v), (hi = Math.max(hi, v)));
  const [qmin, qmax] = type === 'uint8' ? [0, 255] : [-127, 127];
  if (type === 'int8') (hi = Math.max(Math.abs(lo), Math.abs(hi)), (lo = -hi));
  const scale = Math.fround(hi > lo ? (hi - lo) / (qmax - qmin) : 1);
  const zeroPoint = type === 'int8' ? 0 : roundHalfEven(qmin - lo / scale);
  const q = type === 'uint8' ? new Uint8Array(w.length) : new Int8Array(w.length);
  for (let i = 0; i < w.length; i++) q[i] = Math.min(qmax, Math.max(qmin, roundHalfEven(w[i]! / scale) + zeroPoint));
  return { q, scale, zeroPoint };
}

/**
 * A [K, N] weight in MatMulNBits' 4-bit layout: B [N, blocks, blockSize/2] (column n's block b, two values a byte, low
 * nibble first), scales [N, blocks], zero points [N, ceil(blocks/2)] (packed likewise); a block's values are
 * (q − zero point) × scale. K is padded to whole blocks with the zero point.
 */
export function quantiseBlocks4(w: Float32Array, k: number, n: number, blockSize: number) {
  const blocks = Math.ceil(k / blockSize);
  const blob = blockSize / 2;
  const packed = new Uint8Array(n * blocks * blob);
  const scales = new Float32Array(n * blocks);
  const zeroBytes = Math.ceil(blocks / 2);
  const zeroPoints = new Uint8Array(n * zeroBytes);
  for (let col = 0; col < n; col++) {
    for (let b = 0; b < blocks; b++) {
      let lo = 0;
      let hi = 0;
      const end = Math.min(k, (b + 1) * blockSize);
      for (let r = b * blockSize; r < end; r++) (lo = Math.min(lo, w[r * n + col]!), (hi = Math.max(hi, w[r * n + col]!)));
      const scale = Math.fround(hi > lo ? (hi - lo) / 15 : 1);
      const zp = Math.min(15, Math.max(0, roundHalfEven(-lo / scale)));
      scales[col * blocks + b] = scale;
      zeroPoints[col * zeroBytes + (b >> 1)]! |= zp << ((b & 1) * 4);
      for (let j = 0; j < blockSize; j++) {
        const r = b * blockSize + j;
        const q = r < k ? Math.min(15, Math.max(0, roundHalfEven(w[r * n + col]! / scale) + zp)) : zp;
        packed[(col * blocks + b) * blob + (j >> 1)]! |= q << ((j & 1) * 4);
      }
    }
  }
  return { packed, scales, zeroPoints, blocks, blob };
}

/** IEEE half-precision bits of a float32 value (round to nearest even; beyond ±65504 clamped to it, as the converters clip). */
export function float16Bits(value: number): number {
  const f = new Float32Array(1);
  const u = new Uint32Array(f.buffer);
  f[0] = Math.max(-65504, Math.min(65504, value));
  const x = u[0]!;
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  const mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7bff;
  if (e <= 0) {
    if (e < -10) return sign;
    const m = mant | 0x800000;
    const shift = 14 - e;
    const half = 1 << (shift - 1);
    let out = m >>> shift;
    const rest = m & ((1 << shift) - 1);
    if (rest > half || (rest === half && out & 1)) out++;
    return sign | out;
  }
  let out = (e << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && out & 1)) out++;
  return sign | out;
}

/** MatMuls whose second input is a 2-D float initializer: [node index, weight]. */
function weightMatMuls(model: ModelProto): Map<number, TensorProto> {
  const inits = new Map((model.graph!.initializer ?? []).map((t) => [t.name!, t]));
  const out = new Map<number, TensorProto>();
  (model.graph!.node ?? []).forEach((n, i) => {
    const w = inits.get(n.input?.[1] ?? '');
    if (n.opType === 'MatMul' && (n.domain ?? '') === '' && w && w.dataType === T.FLOAT && w.dims?.length === 2) out.set(i, w);
  });
  return out;
}

function replaceMatMuls(model: ModelProto, rewrite: (n: NodeProto, w: TensorProto, added: TensorProto[]) => NodeProto[]): ModelProto {
  const graph = model.graph!;
  const targets = weightMatMuls(model);
  const used = new Set([...targets.values()].map((w) => w.name!));
  const added: TensorProto[] = [];
  const nodes = (graph.node ?? []).flatMap((n, i) => (targets.has(i) ? rewrite(n, targets.get(i)!, added) : [n]));
  graph.node = nodes;
  graph.initializer = [...(graph.initializer ?? []).filter((t) => !used.has(t.name!)), ...added];
  return model;
}

function quantiseQ8(model: ModelProto, weightType: 'uint8' | 'int8'): ModelProto {
  // quantize_dynamic quantises an activation once however many MatMuls read it (q/k/v, gate/up share theirs)
  const quantised = new Set<string>();
  return replaceMatMuls(model, (n, w, added) => {
    const a = n.input![0]!;
    const out = n.output![0]!;
    const nodes: NodeProto[] = [];
    if (!quantised.has(a)) {
      quantised.add(a);
      nodes.push(node('DynamicQuantizeLinear', [a], [`${a}_quantized`, `${a}_scale`, `${a}_zero_point`], `${a}_QuantizeLinear`));
    }
    const { q, scale, zeroPoint } = quantiseTensor8(floatValues(w), weightType);
    const type = weightType === 'uint8' ? T.UINT8 : T.INT8;
    const zp = weightType === 'uint8' ? Uint8Array.of(zeroPoint) : Int8Array.of(zeroPoint);
    added.push(tensor(`${w.name}_quantized`, w.dims!.map(Number), type, q), tensor(`${w.name}_scale`, [], T.FLOAT, Float32Array.of(scale)), tensor(`${w.name}_zero_point`, [], type, zp));
    nodes.push(
      node('MatMulInteger', [`${a}_quantized`, `${w.name}_quantized`, `${a}_zero_point`, `${w.name}_zero_point`], [`${out}_output_quantized`], `${n.name}_quant`),
      node('Cast', [`${out}_output_quantized`], [`${out}_output_quantized_cast_output`], `${out}_output_quantized_cast`, [intAttr('to', T.FLOAT)]),
      node('Mul', [`${a}_scale`, `${w.name}_scale`], [`${n.name}_quant_scales_mul:0`], `${n.name}_quant_scales_mul`),
      node('Mul', [`${out}_output_quantized_cast_output`, `${n.name}_quant_scales_mul:0`], [out], `${n.name}_quant_output_scale_mul`),
    );
    return nodes;
  });
}

function quantiseQ4(model: ModelProto, blockSize: number): ModelProto {
  if (!Number.isInteger(blockSize) || blockSize < 16 || (blockSize & (blockSize - 1)) !== 0) throw new Error(`q4 block size must be a power of 2 of at least 16, got ${blockSize}`);
  const result = replaceMatMuls(model, (n, w, added) => {
    const [k, cols] = w.dims!.map(Number) as [number, number];
    const { packed, scales, zeroPoints, blocks, blob } = quantiseBlocks4(floatValues(w), k, cols, blockSize);
    added.push(
      tensor(`${w.name}_Q4`, [cols, blocks, blob], T.UINT8, packed),
      tensor(`${w.name}_scales`, [cols, blocks], T.FLOAT, scales),
      tensor(`${w.name}_zero_points`, [cols * Math.ceil(blocks / 2)], T.UINT8, zeroPoints),
    );
    const attrs = [intAttr('K', k), intAttr('N', cols), intAttr('bits', 4), intAttr('block_size', blockSize)];
    return [node('MatMulNBits', [n.input![0]!, `${w.name}_Q4`, `${w.name}_scales`, `${w.name}_zero_points`], [n.output![0]!], `${n.name}_Q4`, attrs, 'com.microsoft')];
  });
  if (!result.opsetImport!.some((o) => o.domain === 'com.microsoft')) result.opsetImport!.push({ domain: 'com.microsoft', version: 1 });
  return result;
}

function toFloat16(model: ModelProto): ModelProto {
  const graph = model.graph!;
  graph.initializer = (graph.initializer ?? []).map((t) => {
    if (t.dataType !== T.FLOAT) return t;
    const values = floatValues(t);
    const half = new Uint16Array(values.length);
    for (let i = 0; i < values.length; i++) half[i] = float16Bits(values[i]!);
    return tensor(t.name!, t.dims!.map(Number), T.FLOAT16, half);
  });
  for (const info of [...(graph.input ?? []), ...(graph.output ?? []), ...(graph.valueInfo ?? [])]) {
    const tt = info.type?.tensorType;
    if (tt && tt.elemType === T.FLOAT) tt.elemType = T.FLOAT16;
  }
  for (const n of graph.node ?? []) {
    for (const a of n.attribute ?? []) if (n.opType === 'Cast' && a.name === 'to' && Number(a.i) === T.FLOAT) a.i = T.FLOAT16;
  }
  return model;
}

/** The variant's model bytes from a float32 model's bytes. */
export function quantiseModel(fp32: Uint8Array, dtype: QuantisedDtype, options: QuantiseOptions = {}): Uint8Array {
  const model = onnx.ModelProto.decode(fp32);
  if (!model.graph) throw new Error('quantise: the model has no graph');
  const out =
    dtype === 'q8' ? quantiseQ8(model, options.weightType ?? 'uint8') : dtype === 'q4' ? quantiseQ4(model, options.blockSize ?? 32) : toFloat16(model);
  out.producerName = `${model.producerName ?? ''} (${dtype})`;
  return onnx.ModelProto.encode(out).finish();
}

/** Writes onnx/<variant file> beside onnx/model.onnx of a model folder; returns its path and size. */
export function writeQuantisedModel(dir: string, dtype: QuantisedDtype, options: QuantiseOptions = {}): { file: string; bytes: number } {
  const bytes = quantiseModel(readFileSync(path.join(dir, 'onnx', 'model.onnx')), dtype, options);
  const file = path.join(dir, 'onnx', QUANTISED_FILES[dtype]);
  writeFileSync(file, bytes);
  return { file, bytes: bytes.length };
}

/** The float value of IEEE half-precision bits. */
export function float16Value(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >> 10) & 0x1f;
  const mant = bits & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 0x1f) return mant ? NaN : sign * Infinity;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}
