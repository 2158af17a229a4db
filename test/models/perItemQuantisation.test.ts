// The per-item edit of a dynamically quantised graph (src/models/perItemQuantisation.ts): graphs written with onnx-proto
// (a second writer and reader of the format) in quantize_dynamic's layout (DynamicQuantizeLinear + MatMulInteger +
// Cast + Mul) and in the layouts onnxruntime fuses it into (MatMulIntegerToFloat, DynamicQuantizeMatMul), run in
// onnxruntime before and after the edit: one item alone gives the same bits as the graph it came from, each row of a
// batch the bits it gives alone, where the per-tensor graph gives them only alone.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import onnxProto from 'onnx-proto';
import * as ort from 'onnxruntime-node';
import { afterAll, describe, expect, test } from 'vitest';
import { quantiseActivationsPerItem } from '../../src/models/perItemQuantisation.ts';

const { onnx } = onnxProto;
const T = onnx.TensorProto.DataType;
type NodeSpec = [op: string, inputs: string[], outputs: string[], domain?: string, attributes?: onnxProto.onnx.IAttributeProto[]];

const root = mkdtempSync(path.join(tmpdir(), 'lokal-per-item-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const K = 24;
const N = 10;
/** A fixed stream of numbers in [0, 1) (a linear congruential generator: the test's data is the same every run). */
function stream(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}
const next = stream(7);
const W1 = Uint8Array.from({ length: K * N }, () => Math.floor(next() * 256));
const W1_ZP = 131;
const W2 = Int8Array.from({ length: K * N }, () => Math.floor(next() * 255) - 127);
const W2_ZP = 3;
const BIAS = Float32Array.from({ length: N }, () => next() * 2 - 1);

function tensor(name: string, dataType: number, dims: number[], data: ArrayBufferView): onnxProto.onnx.ITensorProto {
  return { name, dataType, dims, rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

function weights(opts: { externalW1?: { location: string; offset: number } } = {}): onnxProto.onnx.ITensorProto[] {
  const w1 = opts.externalW1
    ? {
        name: 'w1',
        dataType: T.UINT8,
        dims: [K, N],
        dataLocation: onnx.TensorProto.DataLocation.EXTERNAL,
        externalData: [
          { key: 'location', value: opts.externalW1.location },
          { key: 'offset', value: String(opts.externalW1.offset) },
          { key: 'length', value: String(W1.length) },
        ],
      }
    : tensor('w1', T.UINT8, [K, N], W1);
  return [
    w1,
    tensor('w1_scale', T.FLOAT, [], Float32Array.of(0.0123)),
    tensor('w1_zp', T.UINT8, [], Uint8Array.of(W1_ZP)),
    tensor('w2', T.INT8, [K, N], W2),
    tensor('w2_scale', T.FLOAT, [], Float32Array.of(0.0371)),
    tensor('w2_zp', T.INT8, [], Int8Array.of(W2_ZP)),
    tensor('bias', T.FLOAT, [N], BIAS),
  ];
}

function model(nodes: NodeSpec[], initializer: onnxProto.onnx.ITensorProto[], opset = 17): Uint8Array {
  const io = (name: string) => ({ name, type: { tensorType: { elemType: T.FLOAT, shape: { dim: [{ dimParam: 'batch' }, { dimParam: 'sequence' }, { dimValue: name === 'x' ? K : N }] } } } });
  return onnx.ModelProto.encode(
    onnx.ModelProto.create({
      irVersion: 8,
      opsetImport: [{ domain: '', version: opset }, { domain: 'com.microsoft', version: 1 }],
      graph: {
        name: 'g',
        node: nodes.map(([opType, input, output, domain, attribute], i) => ({ opType, input, output, domain: domain ?? '', attribute: attribute ?? [], name: `n${i}` })),
        initializer,
        input: [io('x')],
        output: [io('y1'), io('y2')],
      },
    }),
  ).finish();
}

const castToFloat: onnxProto.onnx.IAttributeProto[] = [{ name: 'to', type: onnx.AttributeProto.AttributeType.INT, i: T.FLOAT }];

/** quantize_dynamic's layout: one quantiser for both products, each rescaled by a Cast and two Muls (the first with a bias). */
const PLAIN: NodeSpec[] = [
  ['DynamicQuantizeLinear', ['x'], ['xq', 'xs', 'xz']],
  ['MatMulInteger', ['xq', 'w1', 'xz', 'w1_zp'], ['a1']],
  ['Cast', ['a1'], ['c1'], '', castToFloat],
  ['Mul', ['xs', 'w1_scale'], ['m1']],
  ['Mul', ['c1', 'm1'], ['s1']],
  ['Add', ['s1', 'bias'], ['y1']],
  ['MatMulInteger', ['xq', 'w2', 'xz', 'w2_zp'], ['a2']],
  ['Cast', ['a2'], ['c2'], '', castToFloat],
  ['Mul', ['xs', 'w2_scale'], ['m2']],
  ['Mul', ['c2', 'm2'], ['y2']],
];

/** What onnxruntime's optimiser makes of it: MatMulIntegerToFloat after a shared quantiser, DynamicQuantizeMatMul alone. */
const FUSED: NodeSpec[] = [
  ['DynamicQuantizeLinear', ['x'], ['xq', 'xs', 'xz']],
  ['MatMulIntegerToFloat', ['xq', 'w1', 'xs', 'w1_scale', 'xz', 'w1_zp', 'bias'], ['y1'], 'com.microsoft'],
  ['DynamicQuantizeMatMul', ['x', 'w2', 'w2_scale', 'w2_zp'], ['y2'], 'com.microsoft'],
];

/** Rows of [T, K] with different ranges: mixed signs, mostly negative, positive only, all zeros (scale 1). */
const T_LEN = 5;
function rows(): Float32Array[] {
  const r = stream(11);
  const fill = (f: () => number) => Float32Array.from({ length: T_LEN * K }, f);
  return [fill(() => r() * 2 - 1), fill(() => r() * 53 - 50), fill(() => 0.5 + r() * 6.5), fill(() => 0)];
}

async function runner(bytes: Uint8Array) {
  const session = await ort.InferenceSession.create(bytes, { graphOptimizationLevel: 'disabled', intraOpNumThreads: 1 });
  return async (batch: Float32Array[]) => {
    const x = new Float32Array(batch.length * T_LEN * K);
    batch.forEach((row, b) => x.set(row, b * T_LEN * K));
    const out = await session.run({ x: new ort.Tensor('float32', x, [batch.length, T_LEN, K]) });
    const slice = (name: string, b: number) => (out[name]!.data as Float32Array).slice(b * T_LEN * N, (b + 1) * T_LEN * N);
    return batch.map((_, b) => [slice('y1', b), slice('y2', b)]);
  };
}

const noExternal = () => {
  throw new Error('the graph holds its data inline');
};

describe.each([
  { layout: 'quantize_dynamic (plain)', nodes: PLAIN, opset: 17 },
  { layout: 'quantize_dynamic at opset 18 (axes as an input)', nodes: PLAIN, opset: 18 },
  { layout: 'onnxruntime fused', nodes: FUSED, opset: 17 },
])('$layout', ({ nodes, opset }) => {
  const original = model(nodes, weights(), opset);
  const edited = quantiseActivationsPerItem(original, noExternal);

  test('rewrites both products and leaves no per-tensor quantiser (read back with onnx-proto)', () => {
    expect(edited.unchanged).toBeUndefined();
    expect(edited.rewritten).toBe(2);
    const graph = onnx.ModelProto.decode(edited.bytes).graph!;
    const ops = graph.node!.map((n) => n.opType);
    expect(ops.filter((op) => ['DynamicQuantizeLinear', 'MatMulIntegerToFloat', 'DynamicQuantizeMatMul'].includes(op!))).toEqual([]);
    expect(ops.filter((op) => op === 'MatMulInteger')).toHaveLength(2);
    expect(graph.output!.map((o) => o.name)).toEqual(['y1', 'y2']);
    // each product's zero-point correction: Σₖ (W[k,n] − W_zp) per column, computed here from the weights
    const sums = graph.initializer!.filter((t) => t.name!.includes('column_sums')).map((t) => Array.from(new Int32Array(Uint8Array.from(t.rawData!).buffer)));
    const expected = (w: ArrayLike<number>, zp: number) => Array.from({ length: N }, (_, n) => Array.from({ length: K }, (_, k) => w[k * N + n]! - zp).reduce((a, b) => a + b, 0));
    expect(sums).toEqual([expected(W1, W1_ZP), expected(W2, W2_ZP)]);
  });

  test('one item alone: the same bits as the graph it came from; in a batch: the bits it has alone', async () => {
    const before = await runner(original);
    const after = await runner(edited.bytes);
    const items = rows();
    const alone = await Promise.all(items.map(async (row) => (await before([row]))[0]!));
    for (const [i, row] of items.entries()) expect((await after([row]))[0], `item ${i}`).toEqual(alone[i]);
    const batched = await after(items);
    batched.forEach((outs, i) => expect(outs, `item ${i} in a batch of ${items.length}`).toEqual(alone[i]));
    // the per-tensor graph: a batch changes rows (one scale for all), which is what the edit is for
    const perTensor = await before(items);
    expect(perTensor.some((outs, i) => outs.some((o, j) => o.some((v, k) => v !== alone[i]![j]![k])))).toBe(true);
  });
});

test('reads a weight held in an external data file, through the reader it is given', async () => {
  const dir = path.join(root, 'external');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(dir, { recursive: true });
  const prefix = new Uint8Array(40).fill(9);
  writeFileSync(path.join(dir, 'model.onnx_data'), Buffer.concat([prefix, W1]));
  const bytes = model(PLAIN, weights({ externalW1: { location: 'model.onnx_data', offset: prefix.length } }));
  const reads: string[] = [];
  const edited = quantiseActivationsPerItem(bytes, (location, offset, length) => {
    reads.push(`${location}@${offset}+${length}`);
    return readFileSync(path.join(dir, location)).subarray(offset, offset + length);
  });
  expect(reads).toEqual([`model.onnx_data@40+${W1.length}`]);
  writeFileSync(path.join(dir, 'model.onnx'), bytes);
  writeFileSync(path.join(dir, 'edited.onnx'), edited.bytes);
  const run = async (file: string) => {
    const session = await ort.InferenceSession.create(path.join(dir, file), { graphOptimizationLevel: 'disabled', intraOpNumThreads: 1 });
    const out = await session.run({ x: new ort.Tensor('float32', rows()[1]!, [1, T_LEN, K]) });
    return Array.from(out.y1!.data as Float32Array);
  };
  expect(await run('edited.onnx')).toEqual(await run('model.onnx'));
});

describe('graphs the edit leaves as they were, saying why', () => {
  test('a quantised activation feeding an operator it does not rewrite', () => {
    const nodes: NodeSpec[] = [...PLAIN, ['Identity', ['xq'], ['other']]];
    const bytes = model(nodes, weights());
    expect(quantiseActivationsPerItem(bytes, noExternal)).toEqual({ bytes, rewritten: 0, unchanged: 'a quantised activation (x) feeds Identity, which this edit does not rewrite' });
  });

  test('no dynamic quantisation, or an opset before per-axis QuantizeLinear', () => {
    const float = model([['Identity', ['x'], ['y1']], ['Identity', ['x'], ['y2']]], []);
    expect(quantiseActivationsPerItem(float, noExternal).unchanged).toBe('it has no dynamically quantised matrix product');
    const old = model(PLAIN, weights(), 12);
    expect(quantiseActivationsPerItem(old, noExternal)).toMatchObject({ bytes: old, rewritten: 0, unchanged: 'its opset 12 is older than 13 (per-axis QuantizeLinear)' });
  });
});
