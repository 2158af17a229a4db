// Logits at chosen positions (src/models/logitPositions.ts). The graph edit is read back with onnx-proto's schema (a
// second reader of the format); then onnxruntime runs generated models, tied (Gemm head) and untied (MatMul head),
// before and after the edit: the selected rows' logits must be the full graph's logits at those positions.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import onnxProto from 'onnx-proto';
import * as ort from 'onnxruntime-node';
import { adoptLogitPositions, LOGIT_POSITIONS_INPUT, selectLogitPositions } from '../../src/models/logitPositions.ts';
import { writeTinyModel } from '../support/tinyModel.ts';

const { onnx } = onnxProto;
const root = mkdtempSync(path.join(tmpdir(), 'lokal-logit-positions-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

type NodeSpec = [op: string, inputs: string[], output: string, attrs?: Record<string, number>, domain?: string];

/** Float initializers: zeros, or with `filled` a fixed non-zero pattern (so that a run's logits tell rows apart). */
function floatData(dims: number[], filled: boolean): Uint8Array {
  const values = new Float32Array(dims.reduce((a, b) => a * b, 1));
  if (filled) for (let i = 0; i < values.length; i++) values[i] = Math.sin(1.7 * i + 0.3);
  return new Uint8Array(values.buffer);
}

/** An initializer: float (zeros, or filled), or int64 with the given values (a shape a Reshape or Concat reads). */
type InitSpec = [name: string, dims: number[], int64?: number[]];

function modelBytes(nodes: NodeSpec[], initializers: InitSpec[], opset = 17, filled = false): Uint8Array {
  const dim = (d: number | string) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d });
  const info = (name: string, elemType: number, dims: Array<number | string>) => ({ name, type: { tensorType: { elemType, shape: { dim: dims.map(dim) } } } });
  return onnx.ModelProto.encode(
    onnx.ModelProto.create({
      irVersion: 8,
      producerName: 'onnxruntime',
      opsetImport: [{ domain: '', version: opset }],
      graph: {
        name: 'g',
        node: nodes.map(([opType, input, output, attrs = {}, domain], i) => ({
          opType,
          input,
          output: [output],
          name: `n${i}`,
          ...(domain ? { domain } : {}),
          attribute: Object.entries(attrs).map(([name, v]) => ({ name, i: v, type: onnx.AttributeProto.AttributeType.INT })),
        })),
        initializer: initializers.map(([name, dims, int64]) =>
          int64
            ? { name, dims, dataType: onnx.TensorProto.DataType.INT64, rawData: new Uint8Array(BigInt64Array.from(int64, BigInt).buffer) }
            : { name, dims, dataType: onnx.TensorProto.DataType.FLOAT, rawData: floatData(dims, filled) },
        ),
        input: [info('input_ids', onnx.TensorProto.DataType.INT64, ['batch_size', 'sequence_length'])],
        output: [info('logits', onnx.TensorProto.DataType.FLOAT, ['batch_size', 'sequence_length', 10])],
      },
    }),
  ).finish();
}

const decode = (bytes: Uint8Array) => onnx.ModelProto.decode(bytes).graph!;

/**
 * Runs the source graph on `ids` and the edited one with `chosen` flat positions: the edited logits' dims, and whether
 * they equal the source's logits at those positions (vocabulary 10; the values must differ enough to tell rows apart).
 */
async function selectedLogits(source: Uint8Array, edited: Uint8Array, ids: number[][], chosen: number[][]): Promise<{ dims: readonly number[]; same: boolean }> {
  const feeds = { input_ids: new ort.Tensor('int64', BigInt64Array.from(ids.flat(), BigInt), [ids.length, ids[0]!.length]) };
  const [full, selecting] = await Promise.all([ort.InferenceSession.create(source), ort.InferenceSession.create(edited)]);
  try {
    const all = (await full.run(feeds)).logits!.data as Float32Array;
    const out = await selecting.run({ ...feeds, [LOGIT_POSITIONS_INPUT]: new ort.Tensor('int64', BigInt64Array.from(chosen.flat(), BigInt), [chosen.length, chosen[0]!.length]) });
    const want = chosen.flat().flatMap((flat) => [...all.subarray(flat * 10, (flat + 1) * 10)]);
    expect(new Set(want.map((v) => v.toFixed(3))).size).toBeGreaterThan(want.length / 2);
    return { dims: out.logits!.dims, same: JSON.stringify([...(out.logits!.data as Float32Array)]) === JSON.stringify(want) };
  } finally {
    await Promise.all([full.release(), selecting.release()]);
  }
}
const INT64 = onnx.TensorProto.DataType.INT64;
const int64Values = (t: onnxProto.onnx.ITensorProto) => [...new BigInt64Array(Uint8Array.from(t.rawData!).buffer)].map(Number);

describe('selectLogitPositions: the graph edit', () => {
  test('a Gemm head (reshape to rows, Gemm, reshape back): the chosen rows are gathered before the Gemm and the final reshape follows the input', async () => {
    const source = modelBytes(
      [
        ['Gather', ['embed', 'input_ids'], 'hidden'],
        ['Reshape', ['hidden', 'rows_shape'], 'rows'],
        ['Gemm', ['rows', 'embed'], 'flat', { transB: 1 }],
        ['Shape', ['input_ids'], 'ids_shape'],
        ['Concat', ['ids_shape', 'vocab'], 'logits_shape', { axis: 0 }],
        ['Reshape', ['flat', 'logits_shape'], 'logits'],
      ],
      [['embed', [10, 4]], ['rows_shape', [2], [-1, 4]], ['vocab', [1], [10]]],
      17,
      true,
    );
    const { bytes, input } = selectLogitPositions(source);
    expect(input).toBe(LOGIT_POSITIONS_INPUT);
    const graph = decode(bytes);
    const p = 'vitest_lokal.';
    // Second method: onnxruntime runs both graphs; the edited one's logits are the full graph's at the flat positions
    // named (r·width + p), in the shape [batch, k, vocab].
    expect(await selectedLogits(source, bytes, [[3, 9, 0], [7, 7, 1]], [[2, 0], [4, 5]])).toEqual({ dims: [2, 2, 10], same: true });
    const added = graph.initializer!.find((t) => t.name === `${p}minus_one`)!;
    expect([added.dataType, added.dims!.map(Number), int64Values(added)]).toEqual([INT64, [1], [-1]]);
    expect(graph.initializer!.some((t) => t.name === `${p}rows_shape`)).toBe(false);
    const positions = graph.input!.at(-1)!;
    expect(positions.name).toBe(LOGIT_POSITIONS_INPUT);
    expect(positions.type!.tensorType!.elemType).toBe(INT64);
    expect(positions.type!.tensorType!.shape!.dim!.map((d) => d.dimParam)).toEqual(['batch_size', 'logit_positions']);
    expect(graph.output![0]!.type!.tensorType!.shape!.dim!.map((d) => d.dimParam || Number(d.dimValue))).toEqual(['batch_size', 'logit_positions', 10]);
  });

  test('a MatMul head (any rank): hidden states flattened to [rows, hidden] first, a bias after the head kept', async () => {
    const source = modelBytes(
      [
        ['Gather', ['embed', 'input_ids'], 'hidden'],
        ['MatMul', ['hidden', 'head'], 'projected'],
        ['Add', ['head_bias', 'projected'], 'logits'],
      ],
      [['embed', [10, 4]], ['head', [4, 10]], ['head_bias', [10]]],
      17,
      true,
    );
    const { bytes, input } = selectLogitPositions(source);
    expect(input).toBe(LOGIT_POSITIONS_INPUT);
    const p = 'vitest_lokal.';
    // Second method: onnxruntime runs both graphs; the edited one's logits are the full graph's at the flat positions
    // named (r·width + p), the bias after the head included.
    expect(await selectedLogits(source, bytes, [[3, 9, 0], [7, 7, 1]], [[2, 0], [4, 5]])).toEqual({ dims: [2, 2, 10], same: true });
    // [-1, hidden]: the head's rows (4)
    expect(int64Values(decode(bytes).initializer!.find((t) => t.name === `${p}rows_shape`)!)).toEqual([-1, 4]);
    // a FusedMatMul with its weight transposed reads the hidden size from the weight's second dimension
    const fused = selectLogitPositions(modelBytes([['FusedMatMul', ['input_ids', 'head'], 'logits', { transB: 1 }, 'com.microsoft']], [['head', [10, 6]]]));
    expect(int64Values(decode(fused.bytes).initializer!.find((t) => t.name === `${p}rows_shape`)!)).toEqual([-1, 6]);
  });

  test('graphs it cannot show to be row-wise come back as the same bytes', () => {
    const cases: Array<[string, NodeSpec[], InitSpec[], number?]> = [
      ['a step after the head that mixes positions (Softmax)', [['MatMul', ['input_ids', 'head'], 'projected'], ['Softmax', ['projected'], 'logits', { axis: -1 }]], [['head', [4, 10]]]],
      ['a bias varying along the sequence', [['MatMul', ['input_ids', 'head'], 'projected'], ['Add', ['projected', 'bias'], 'logits']], [['head', [4, 10]], ['bias', [1, 7, 10]]]],
      ['the projected tensor also read elsewhere', [['MatMul', ['input_ids', 'head'], 'projected'], ['Identity', ['projected'], 'logits'], ['Identity', ['projected'], 'other']], [['head', [4, 10]]]],
      ['a weight that is not a constant matrix', [['MatMul', ['input_ids', 'input_ids'], 'logits']], []],
      ['a Gemm on A transposed', [['Gemm', ['input_ids', 'head'], 'logits', { transA: 1 }]], [['head', [4, 10]]]],
      ['an opset before Reshape took its shape as an input', [['MatMul', ['input_ids', 'head'], 'logits']], [['head', [4, 10]]], 4],
      ['no path to a projection', [['Identity', ['input_ids'], 'logits']], []],
    ];
    for (const [what, nodes, inits, opset] of cases) {
      const source = modelBytes(nodes, inits, opset);
      const { bytes, input } = selectLogitPositions(source);
      expect(input, what).toBeUndefined();
      expect(bytes, what).toBe(source);
    }
  });
});

/** ids [batch, width] and the feeds of a first pass (no past) of a generated model. */
function firstPassFeeds(session: ort.InferenceSession, ids: number[][]): Record<string, ort.Tensor> {
  const [b, w] = [ids.length, ids[0]!.length];
  const feeds: Record<string, ort.Tensor> = {
    input_ids: new ort.Tensor('int64', BigInt64Array.from(ids.flat(), BigInt), [b, w]),
    attention_mask: new ort.Tensor('int64', new BigInt64Array(b * w).fill(1n), [b, w]),
    position_ids: new ort.Tensor('int64', BigInt64Array.from({ length: b * w }, (_, i) => BigInt(i % w)), [b, w]),
  };
  for (const meta of session.inputMetadata) {
    if (!meta.name.startsWith('past_key_values')) continue;
    const shape = (meta as unknown as { shape: ReadonlyArray<number | string> }).shape;
    feeds[meta.name] = new ort.Tensor('float32', new Float32Array(0), [b, shape[1] as number, 0, shape[3] as number]);
  }
  return feeds;
}

describe('selectLogitPositions on generated models in onnxruntime', () => {
  for (const tieEmbeddings of [true, false]) {
    test(`${tieEmbeddings ? 'tied embeddings (Gemm head)' : 'separate head (MatMul)'}: the selected rows' logits equal the full graph's at those positions`, async () => {
      const dir = path.join(root, tieEmbeddings ? 'tied' : 'untied');
      writeTinyModel(dir, { layers: 2, hidden: 64, heads: 4, kvHeads: 2, qkvBias: true, vocab: 300, seed: 5, tieEmbeddings });
      const source = readFileSync(path.join(dir, 'onnx', 'model.onnx'));
      const edited = selectLogitPositions(source);
      expect(edited.input).toBe(LOGIT_POSITIONS_INPUT);
      const options: ort.InferenceSession.SessionOptions = { intraOpNumThreads: 1 };
      const full = await ort.InferenceSession.create(source, options);
      const selecting = await ort.InferenceSession.create(edited.bytes, options);
      expect(selecting.inputNames).toEqual([...full.inputNames, LOGIT_POSITIONS_INPUT]);
      const ids = [
        [3, 17, 250, 9, 41],
        [7, 7, 120, 66, 2],
        [299, 1, 54, 88, 13],
      ];
      const feeds = firstPassFeeds(full, ids);
      const expected = (await full.run(feeds)).logits!;
      const vocab = 300;
      expect(expected.dims).toEqual([3, 5, vocab]);
      // two rows of positions per batch row, as flat indices r·width + p (any row may be named)
      const chosen = [
        [4, 0],
        [9, 5],
        [10, 14],
      ];
      const out = await selecting.run({ ...feeds, [LOGIT_POSITIONS_INPUT]: new ort.Tensor('int64', BigInt64Array.from(chosen.flat(), BigInt), [3, 2]) });
      expect(out.logits!.dims).toEqual([3, 2, vocab]);
      const want = chosen.flat().flatMap((flat) => [...(expected.data as Float32Array).subarray(flat * vocab, (flat + 1) * vocab)]);
      const got = [...(out.logits!.data as Float32Array)];
      const scale = Math.max(...want.map(Math.abs));
      expect(scale).toBeGreaterThan(0.1);
      for (let i = 0; i < want.length; i++) expect(Math.abs(got[i]! - want[i]!)).toBeLessThanOrEqual(1e-5 * scale);
      // the caches are the graph's own, whatever is selected
      expect([...(out['present.1.value']!.data as Float32Array)]).toEqual([...((await full.run(feeds))['present.1.value']!.data as Float32Array)]);
      await Promise.all([full.release(), selecting.release()]);
    });
  }

  test('adoptLogitPositions: the input hidden from the session, every position fed when a run names none', async () => {
    const dir = path.join(root, 'adopt');
    writeTinyModel(dir, { layers: 1, hidden: 32, heads: 2, kvHeads: 1, vocab: 270, seed: 6 });
    const source = readFileSync(path.join(dir, 'onnx', 'model.onnx'));
    const full = await ort.InferenceSession.create(source);
    const plain = await ort.InferenceSession.create(source);
    const selecting = await ort.InferenceSession.create(selectLogitPositions(source).bytes);
    const int64 = (data: BigInt64Array, dims: number[]) => new ort.Tensor('int64', data, dims);
    expect(adoptLogitPositions(plain as never, int64)).toBeUndefined();
    expect(plain.inputNames).toEqual(full.inputNames);
    expect(adoptLogitPositions(selecting as never, int64)).toBe(LOGIT_POSITIONS_INPUT);
    expect(selecting.inputNames).toEqual(full.inputNames);
    expect(selecting.inputMetadata.map((m) => m.name)).toEqual(full.inputNames);
    const feeds = firstPassFeeds(full, [
      [5, 6, 7, 8],
      [9, 10, 11, 12],
    ]);
    const expected = (await full.run(feeds)).logits!;
    const all = (await selecting.run(feeds)).logits!;
    expect(all.dims).toEqual(expected.dims);
    expect([...(all.data as Float32Array)]).toEqual([...(expected.data as Float32Array)]);
    // a run naming its positions gets those: each row's last
    const last = (await selecting.run({ ...feeds, [LOGIT_POSITIONS_INPUT]: int64(BigInt64Array.from([3n, 7n]), [2, 1]) })).logits!;
    expect(last.dims).toEqual([2, 1, 270]);
    expect([...(last.data as Float32Array)]).toEqual([...(expected.data as Float32Array).subarray(3 * 270, 4 * 270), ...(expected.data as Float32Array).subarray(7 * 270, 8 * 270)]);
    await Promise.all([full.release(), plain.release(), selecting.release()]);
  });
});
