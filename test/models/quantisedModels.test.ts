// The q8, q4 and fp16 files make:tiny-model writes beside model.onnx: read back with the project's own protobuf reader
// (not the onnx-proto schema that wrote them), their weights dequantised from the stored bytes equal the float32
// weights within half a quantisation step, and onnxruntime runs them within the quantisation error of the float32 graph.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import onnxProto from 'onnx-proto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ONNX_TYPES, readOnnxGraphBytes, type OnnxGraphInfo, type OnnxTensorInfo } from '../../src/models/onnxGraphReader.ts';
import { float16Value, QUANTISED_FILES, quantiseModel, writeQuantisedModel } from '../support/quantiseOnnx.ts';
import { tinyWeightNames, writeTinyModel, type TinyModelInfo, type TinyModelSpec } from '../support/tinyModel.ts';

const root = mkdtempSync(path.join(tmpdir(), 'lokal-quantised-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const cases: Array<{ name: string; spec: Partial<TinyModelSpec> }> = [
  { name: 'qwen2', spec: { heads: 4, kvHeads: 2, qkvBias: true, hidden: 64, intermediate: 96, maxPositions: 256, seed: 21 } },
  { name: 'llama', spec: { heads: 4, hidden: 32, maxPositions: 256, seed: 22 } },
];

const read = (info: TinyModelInfo, file: string) => readOnnxGraphBytes(readFileSync(path.join(info.dir, 'onnx', file)), { withData: true });
const byName = (g: OnnxGraphInfo) => new Map(g.initializers.map((t) => [t.name, t]));
const floats = (t: OnnxTensorInfo) => new Float32Array(Uint8Array.from(t.raw!).buffer);
/** The MatMul weights of the float32 graph (every projection, and the head when untied). */
const weightNames = (spec: TinyModelSpec) => [
  ...tinyWeightNames(spec.layers).layers.flatMap((n) => [n.wq, n.wk, n.wv, n.wo, n.wGate, n.wUp, n.wDown]),
  ...(spec.tieEmbeddings ? [] : [tinyWeightNames(spec.layers).lmHead]),
];

/** Logits of one sequence through onnxruntime (float16 outputs widened). */
async function logits(file: string, spec: TinyModelSpec, ids: number[], half = false): Promise<Float32Array> {
  const session = await ort.InferenceSession.create(file);
  const feeds: Record<string, ort.Tensor> = {
    input_ids: new ort.Tensor('int64', BigInt64Array.from(ids.map(BigInt)), [1, ids.length]),
    attention_mask: new ort.Tensor('int64', new BigInt64Array(ids.length).fill(1n), [1, ids.length]),
    position_ids: new ort.Tensor('int64', BigInt64Array.from({ length: ids.length }, (_, i) => BigInt(i)), [1, ids.length]),
  };
  for (let i = 0; i < spec.layers; i++)
    for (const kind of ['key', 'value'])
      feeds[`past_key_values.${i}.${kind}`] = half
        ? new ort.Tensor('float16', new Uint16Array(0), [1, spec.kvHeads, 0, spec.hidden / spec.heads])
        : new ort.Tensor('float32', new Float32Array(0), [1, spec.kvHeads, 0, spec.hidden / spec.heads]);
  const out = (await session.run(feeds)).logits!;
  await session.release();
  return out.type === 'float16' ? Float32Array.from(out.data as Uint16Array, float16Value) : (out.data as Float32Array);
}

const maxDiff = (a: Float32Array, b: Float32Array) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i]!)), 0);
const rms = (a: Float32Array) => Math.sqrt(a.reduce((s, v) => s + v * v, 0) / a.length);
const IDS = [3, 77, 140, 9, 250, 31, 31, 200, 5, 64, 12, 300];

describe.each(cases)('quantised copies of a tiny $name model', ({ name, spec: partial }) => {
  let info: TinyModelInfo;
  let fp32: OnnxGraphInfo;
  beforeAll(() => {
    info = writeTinyModel(path.join(root, name), partial);
    for (const dtype of ['q8', 'q4', 'fp16'] as const) writeQuantisedModel(info.dir, dtype);
    fp32 = read(info, 'model.onnx');
  });

  test('q8: DynamicQuantizeLinear + MatMulInteger on per-tensor uint8 weights, as quantize_dynamic writes them', async () => {
    const q8 = read(info, QUANTISED_FILES.q8);
    const weights = weightNames(info.spec);
    const ops = (op: string) => q8.nodes.filter((n) => n.opType === op);
    expect(ops('MatMulInteger')).toHaveLength(weights.length);
    // one activation quantisation per distinct input: q/k/v share one, gate/up another; o and down their own
    expect(ops('DynamicQuantizeLinear')).toHaveLength(4 * info.spec.layers + (info.spec.tieEmbeddings ? 0 : 1));
    expect(q8.nodes.filter((n) => n.opType === 'MatMul' && weights.includes(n.inputs[1]!))).toEqual([]);
    const stored = byName(q8);
    const original = byName(fp32);
    for (const w of weights) {
      const q = stored.get(`${w}_quantized`)!;
      expect(q.dataType).toBe(ONNX_TYPES.uint8);
      expect(q.dims).toEqual(original.get(w)!.dims);
      const scale = floats(stored.get(`${w}_scale`)!)[0]!;
      const zero = stored.get(`${w}_zero_point`)!.raw![0]!;
      const values = floats(original.get(w)!);
      const worst = values.reduce((m, v, i) => Math.max(m, Math.abs((q.raw![i]! - zero) * scale - v)), 0);
      expect(worst).toBeLessThanOrEqual(scale / 2 + 1e-6);
      // the whole uint8 range is used: scale is (max − min) / 255 over the tensor with 0 included
      expect(Math.max(...q.raw!) - Math.min(...q.raw!)).toBeGreaterThanOrEqual(254);
      const matmul = ops('MatMulInteger').find((n) => n.inputs[1] === `${w}_quantized`)!;
      expect(matmul.inputs[3]).toBe(`${w}_zero_point`);
      expect(ops('DynamicQuantizeLinear').some((n) => n.outputs[0] === matmul.inputs[0] && n.outputs[2] === matmul.inputs[2])).toBe(true);
    }
    const reference = await logits(path.join(info.dir, 'onnx/model.onnx'), info.spec, IDS);
    const got = await logits(path.join(info.dir, 'onnx', QUANTISED_FILES.q8), info.spec, IDS);
    const diff = maxDiff(got, reference);
    // 8-bit weights and activations: errors of a few hundredths of the logits' size, never zero
    expect(diff).toBeGreaterThan(0);
    expect(diff).toBeLessThan(0.15 * rms(reference));
  });

  test('q8 with int8 weights (QInt8): symmetric, zero point 0, within the quantisation error too', async () => {
    const file = path.join(info.dir, 'q8-int8.onnx');
    writeFileSync(file, quantiseModel(readFileSync(path.join(info.dir, 'onnx/model.onnx')), 'q8', { weightType: 'int8' }));
    const q8 = readOnnxGraphBytes(readFileSync(file), { withData: true });
    const stored = byName(q8);
    const original = byName(fp32);
    for (const w of weightNames(info.spec)) {
      const q = stored.get(`${w}_quantized`)!;
      expect(q.dataType).toBe(ONNX_TYPES.int8);
      expect(stored.get(`${w}_zero_point`)!.raw![0]).toBe(0);
      const scale = floats(stored.get(`${w}_scale`)!)[0]!;
      const signed = new Int8Array(Uint8Array.from(q.raw!).buffer);
      const values = floats(original.get(w)!);
      expect(values.reduce((m, v, i) => Math.max(m, Math.abs(signed[i]! * scale - v)), 0)).toBeLessThanOrEqual(scale / 2 + 1e-6);
      expect(Math.max(...signed.map(Math.abs))).toBe(127);
    }
    const reference = await logits(path.join(info.dir, 'onnx/model.onnx'), info.spec, IDS);
    expect(maxDiff(await logits(file, info.spec, IDS), reference)).toBeLessThan(0.15 * rms(reference));
  });

  test('q4: com.microsoft MatMulNBits, 4 bits in blocks of 32, whose dequantised weights give the same logits', async () => {
    const q4 = read(info, QUANTISED_FILES.q4);
    expect(q4.opsets).toContainEqual({ domain: 'com.microsoft', version: 1 });
    const weights = weightNames(info.spec);
    const nbits = q4.nodes.filter((n) => n.opType === 'MatMulNBits');
    expect(nbits).toHaveLength(weights.length);
    const stored = byName(q4);
    const original = byName(fp32);
    // the float32 graph with each weight replaced by its dequantised 4-bit values, written with onnx-proto
    const model = onnxProto.onnx.ModelProto.decode(readFileSync(path.join(info.dir, 'onnx/model.onnx')));
    for (const node of nbits) {
      expect(node.domain).toBe('com.microsoft');
      const w = node.inputs[1]!.replace(/_Q4$/, '');
      const [k, n] = original.get(w)!.dims as [number, number];
      expect(node.ints).toEqual({ K: k, N: n, bits: 4, block_size: 32 });
      const blocks = Math.ceil(k / 32);
      const packed = stored.get(node.inputs[1]!)!;
      expect(packed.dims).toEqual([n, blocks, 16]);
      const scales = floats(stored.get(node.inputs[2]!)!);
      const zeros = stored.get(node.inputs[3]!)!.raw!;
      const values = floats(original.get(w)!);
      const dequantised = new Float32Array(k * n);
      for (let col = 0; col < n; col++)
        for (let r = 0; r < k; r++) {
          const b = Math.floor(r / 32);
          const j = r % 32;
          const q = (packed.raw![(col * blocks + b) * 16 + (j >> 1)]! >> ((j & 1) * 4)) & 15;
          const zp = (zeros[col * Math.ceil(blocks / 2) + (b >> 1)]! >> ((b & 1) * 4)) & 15;
          const scale = scales[col * blocks + b]!;
          dequantised[r * n + col] = (q - zp) * scale;
          expect(Math.abs(dequantised[r * n + col]! - values[r * n + col]!)).toBeLessThanOrEqual(scale / 2 + 1e-6);
        }
      const t = model.graph!.initializer!.find((x) => x.name === w)!;
      t.rawData = new Uint8Array(dequantised.buffer);
    }
    const dequantisedFile = path.join(info.dir, 'dequantised-q4.onnx');
    writeFileSync(dequantisedFile, onnxProto.onnx.ModelProto.encode(model).finish());
    const got = await logits(path.join(info.dir, 'onnx', QUANTISED_FILES.q4), info.spec, IDS);
    expect(maxDiff(got, await logits(dequantisedFile, info.spec, IDS))).toBeLessThan(1e-4);
    const reference = await logits(path.join(info.dir, 'onnx/model.onnx'), info.spec, IDS);
    expect(maxDiff(got, reference)).toBeGreaterThan(1e-3);
  });

  test('fp16: every float tensor, the cache and logits included, in float16 within half-precision error', async () => {
    const fp16 = read(info, QUANTISED_FILES.fp16);
    expect(fp16.initializers.filter((t) => t.dataType === ONNX_TYPES.float)).toEqual([]);
    expect(fp16.inputs.filter((i) => i.name.startsWith('past_key_values')).map((i) => i.elemType)).toEqual(new Array(2 * info.spec.layers).fill(ONNX_TYPES.float16));
    expect(fp16.outputs.map((o) => o.elemType)).toEqual(new Array(1 + 2 * info.spec.layers).fill(ONNX_TYPES.float16));
    const original = byName(fp32);
    for (const t of fp16.initializers.filter((x) => x.dataType === ONNX_TYPES.float16)) {
      const halves = new Uint16Array(Uint8Array.from(t.raw!).buffer);
      const values = floats(original.get(t.name)!);
      // float16 keeps 11 significant bits; the attention mask's −1e30 is clipped to float16's largest
      const outside = [...halves].findIndex((h, i) => Math.abs(float16Value(h) - Math.max(-65504, values[i]!)) > Math.abs(values[i]!) * 2 ** -11 + 2 ** -24);
      expect(outside, `${t.name}[${outside}]`).toBe(-1);
    }
    const reference = await logits(path.join(info.dir, 'onnx/model.onnx'), info.spec, IDS);
    const diff = maxDiff(await logits(path.join(info.dir, 'onnx', QUANTISED_FILES.fp16), info.spec, IDS, true), reference);
    expect(diff).toBeGreaterThan(0);
    expect(diff).toBeLessThan(0.02 * rms(reference));
  });
});
