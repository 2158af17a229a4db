// Each row's greedy next token as an output (src/models/nextToken.ts). The edit is read back with onnx-proto's schema
// (a second reader of the format); onnxruntime then runs it on crafted logits with ties and on a generated
// Qwen2-shaped model: the token must be the engine's argmax of the same logits (the first index on ties).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import onnxProto from 'onnx-proto';
import * as ort from 'onnxruntime-node';
import { argmax } from '../../src/models/batchedGeneration.ts';
import { hideEngineOutputs } from '../../src/models/newKeyValues.ts';
import { exposeNextToken, NEXT_TOKEN_OUTPUT } from '../../src/models/nextToken.ts';
import { encodeModel } from '../support/onnxGraph.ts';
import { writeTinyModel } from '../support/tinyModel.ts';

const { onnx } = onnxProto;
const root = mkdtempSync(path.join(tmpdir(), 'lokal-next-token-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const { FLOAT, FLOAT16, INT64 } = onnx.TensorProto.DataType;

/** logits = Identity(x), declared of the given element type and rank. */
function logitsGraph(elemType = FLOAT, rank = 3, extra?: string, vocab = 6): Uint8Array {
  const dims = [{ dimParam: 'b' }, { dimParam: 's' }, { dimValue: vocab }].slice(3 - rank);
  const info = (name: string) => ({ name, type: { tensorType: { elemType, shape: { dim: dims } } } });
  return encodeModel({
    name: 'g',
    node: [{ opType: 'Identity', input: ['x'], output: ['logits'], name: 'n0' }, ...(extra ? [{ opType: 'Identity', input: ['x'], output: [extra], name: 'n1' }] : [])],
    input: [info('x')],
    output: [info('logits'), ...(extra ? [info(extra)] : [])],
  });
}

describe('exposeNextToken: the graph edit', () => {
  test('ArgMax of the logits over the vocabulary after the node writing them, an int64 output after the others', () => {
    const { bytes, output } = exposeNextToken(logitsGraph());
    expect(output).toBe(NEXT_TOKEN_OUTPUT);
    const graph = onnx.ModelProto.decode(bytes).graph!;
    expect(graph.output!.map((o) => [o.name, o.type!.tensorType!.elemType])).toEqual([['logits', FLOAT], [NEXT_TOKEN_OUTPUT, INT64]]);
    expect(graph.node!.map((n) => [n.opType, n.input, n.output])).toEqual([
      ['Identity', ['x'], ['logits']],
      ['ArgMax', ['logits'], [NEXT_TOKEN_OUTPUT]],
    ]);
    const attributes = Object.fromEntries(graph.node![1]!.attribute!.map((a) => [a.name, Number(a.i)]));
    expect(attributes).toEqual({ axis: 2, keepdims: 0 });
  });

  test('float16 logits, logits of another rank, or the name taken: the same bytes', () => {
    for (const source of [logitsGraph(FLOAT16), logitsGraph(FLOAT, 2), logitsGraph(FLOAT, 3, NEXT_TOKEN_OUTPUT)]) {
      const { bytes, output } = exposeNextToken(source);
      expect(bytes).toBe(source);
      expect(output).toBeUndefined();
    }
  });
});

describe('the next token in onnxruntime', () => {
  test('the first index of the largest logit, ties included, as the engine\'s argmax', async () => {
    const session = await ort.InferenceSession.create(exposeNextToken(logitsGraph()).bytes);
    const rows = [
      [0, 3, 1, 3, 2, 3], // a three-way tie: index 1
      [5, 5, 5, 5, 5, 5], // all equal: index 0
      [-1, -2, -0.5, -7, -0.5000001, -3],
      [-Infinity, -Infinity, 1e-30, 0, -0, 2e-30],
      [1, 2, 3, 4, 5, 6],
      [Math.fround(0.1), Math.fround(0.1) + 2 ** -27, 0, 0, 0, 0], // one ulp apart
    ];
    const x = Float32Array.from(rows.flat());
    const out = await session.run({ x: new ort.Tensor('float32', x, [3, 2, 6]) }, [NEXT_TOKEN_OUTPUT]);
    const tokens = out[NEXT_TOKEN_OUTPUT]!;
    expect(tokens.dims).toEqual([3, 2]);
    // by hand from the rows above, and the engine's argmax of the same float32 rows
    expect([...(tokens.data as BigInt64Array)].map(Number)).toEqual([1, 0, 2, 5, 5, 1]);
    expect(rows.map((_, r) => argmax(x.subarray(r * 6, (r + 1) * 6)))).toEqual([1, 0, 2, 5, 5, 1]);
    await session.release();
  });

  test('rows of a real vocabulary\'s width: ties within one 8-wide block and across blocks, NaN first', async () => {
    const session = await ort.InferenceSession.create(exposeNextToken(logitsGraph(FLOAT, 3, undefined, 151936)).bytes, { intraOpNumThreads: 2 });
    const width = 151936;
    const x = new Float32Array(4 * width).fill(-1);
    const row = (r: number) => x.subarray(r * width, (r + 1) * width);
    for (const i of [70001, 70003, 70006, 151935]) row(0)[i] = 2.5; // one 8-wide block, then the last
    for (const i of [9, 100000, 17]) row(1)[i] = 7; // out of order: the first is 9
    row(2)[0] = Number.NaN; // no value compares greater than a NaN held as the best: index 0, in the engine's loop too
    row(2)[5] = 3;
    row(3)[151935] = 0.25; // the last alone
    const out = await session.run({ x: new ort.Tensor('float32', x, [4, 1, width]) }, [NEXT_TOKEN_OUTPUT]);
    const byHand = [70001, 9, 0, 151935];
    expect([...(out[NEXT_TOKEN_OUTPUT]!.data as BigInt64Array)].map(Number)).toEqual(byHand);
    expect([0, 1, 2, 3].map((r) => argmax(row(r)))).toEqual(byHand);
    await session.release();
  });

  test('a generated model: the token of every position is the argmax of its logits; transformers.js\'s own runs do not fetch it', async () => {
    const dir = path.join(root, 'qwen2');
    writeTinyModel(dir, { layers: 2, hidden: 64, heads: 4, kvHeads: 2, qkvBias: true, vocab: 300, seed: 11 });
    const edited = exposeNextToken(readFileSync(path.join(dir, 'onnx', 'model.onnx')));
    expect(edited.output).toBe(NEXT_TOKEN_OUTPUT);
    const session = await ort.InferenceSession.create(edited.bytes, { intraOpNumThreads: 1 });
    const [b, w] = [2, 5];
    const feeds: Record<string, ort.Tensor> = {
      input_ids: new ort.Tensor('int64', BigInt64Array.from([3, 17, 250, 9, 4, 7, 7, 120, 66, 299], BigInt), [b, w]),
      attention_mask: new ort.Tensor('int64', new BigInt64Array(b * w).fill(1n), [b, w]),
      position_ids: new ort.Tensor('int64', BigInt64Array.from({ length: b * w }, (_, i) => BigInt(i % w)), [b, w]),
    };
    for (const m of session.inputMetadata.filter((m) => m.name.startsWith('past_key_values'))) feeds[m.name] = new ort.Tensor('float32', new Float32Array(0), [b, 2, 0, 16]);
    const out = await session.run(feeds, ['logits', NEXT_TOKEN_OUTPUT]);
    const logits = out.logits!.data as Float32Array;
    const vocab = logits.length / (b * w);
    expect(vocab).toBe(300);
    const byHand = Array.from({ length: b * w }, (_, p) => argmax(logits.subarray(p * vocab, (p + 1) * vocab)));
    expect([...(out[NEXT_TOKEN_OUTPUT]!.data as BigInt64Array)].map(Number)).toEqual(byHand);
    expect(new Set(byHand).size).toBeGreaterThan(1);
    expect(hideEngineOutputs(session)).toBe(true);
    expect(Object.keys(await session.run(feeds))).not.toContain(NEXT_TOKEN_OUTPUT);
    await session.release();
  });
});
