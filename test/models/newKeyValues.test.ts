// Each pass's new keys and values as outputs (src/models/newKeyValues.ts). The edit is read back with onnx-proto's
// schema (a second reader of the format); onnxruntime then runs a generated Qwen2-shaped model before and after it,
// a prompt pass and a decode step: the new outputs must be the present caches' last positions bit for bit, and the
// logits and caches unchanged. appendPositions is checked against a cache written out by hand.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import onnxProto from 'onnx-proto';
import * as ort from 'onnxruntime-node';
import { appendPositions } from '../../src/models/kvCache.ts';
import { hideEngineOutputs, exposeNewKeyValues, NEW_KEY_VALUES_PREFIX, newKeyValuesName } from '../../src/models/newKeyValues.ts';
import { encodeModel } from '../support/onnxGraph.ts';
import { writeTinyModel } from '../support/tinyModel.ts';

const { onnx } = onnxProto;
const root = mkdtempSync(path.join(tmpdir(), 'lokal-new-kv-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const FLOAT = onnx.TensorProto.DataType.FLOAT;

/** A graph with one cache: present.0.key made by `op` from past_key_values.0.key and the input `fresh`. */
function cacheGraph(op: string, axis: number, extraOutput?: string, initializer?: string): Uint8Array {
  const info = (name: string) => ({ name, type: { tensorType: { elemType: FLOAT, shape: { dim: [{ dimParam: 'b' }, { dimValue: 2 }, { dimParam: 's' }, { dimValue: 4 }] } } } });
  return encodeModel({
    name: 'g',
    node: [
      { opType: op, input: op === 'Concat' ? ['past_key_values.0.key', 'fresh'] : ['past_key_values.0.key'], output: ['present.0.key'], name: 'n0', attribute: op === 'Concat' ? [{ name: 'axis', i: axis, type: onnx.AttributeProto.AttributeType.INT }] : [] },
      { opType: 'ReduceSum', input: ['present.0.key'], output: ['logits'], name: 'n1' },
    ],
    input: [info('past_key_values.0.key'), info('fresh')],
    output: [info('logits'), info('present.0.key'), ...(extraOutput ? [info(extraOutput)] : [])],
    initializer: initializer ? [{ name: initializer, dataType: FLOAT, dims: [1], floatData: [0] }] : [],
  });
}

describe('exposeNewKeyValues: the graph edit', () => {
  test('a Concat of the past and the new positions on axis 2: an Identity of its second input, output after the others', async () => {
    const source = cacheGraph('Concat', 2);
    const { bytes, outputs } = exposeNewKeyValues(source);
    expect(outputs).toEqual([`${NEW_KEY_VALUES_PREFIX}0.key`]);
    const graph = onnx.ModelProto.decode(bytes).graph!;
    expect(graph.output!.map((o) => o.name)).toEqual(['logits', 'present.0.key', `${NEW_KEY_VALUES_PREFIX}0.key`]);
    expect(graph.output![2]!.type!.tensorType!.elemType).toBe(FLOAT);
    expect(graph.node!.map((n) => [n.opType, n.input, n.output])).toEqual([
      ['Concat', ['past_key_values.0.key', 'fresh'], ['present.0.key']],
      ['Identity', ['fresh'], [`${NEW_KEY_VALUES_PREFIX}0.key`]],
      ['ReduceSum', ['present.0.key'], ['logits']],
    ]);
    const session = await ort.InferenceSession.create(bytes);
    const past = Float32Array.from({ length: 2 * 3 * 4 }, (_, i) => i);
    const fresh = Float32Array.from({ length: 2 * 1 * 4 }, (_, i) => -1 - i);
    const out = await session.run({ 'past_key_values.0.key': new ort.Tensor('float32', past, [1, 2, 3, 4]), fresh: new ort.Tensor('float32', fresh, [1, 2, 1, 4]) });
    expect([...(out[`${NEW_KEY_VALUES_PREFIX}0.key`]!.data as Float32Array)]).toEqual([...fresh]);
    await session.release();
  });

  test('graphs where a present is not such a Concat, or the name is taken, come back as the same bytes', () => {
    const taken = `${NEW_KEY_VALUES_PREFIX}0.key`;
    for (const source of [cacheGraph('Identity', 0), cacheGraph('Concat', 1), cacheGraph('Concat', 2, taken), cacheGraph('Concat', 2, undefined, taken)]) {
      const { bytes, outputs } = exposeNewKeyValues(source);
      expect(bytes).toBe(source);
      expect(outputs).toEqual([]);
    }
  });

  test('all or nothing: one present that qualifies beside one that does not leaves the graph as it was', () => {
    const info = (name: string) => ({ name, type: { tensorType: { elemType: FLOAT, shape: { dim: [{ dimParam: 'b' }, { dimValue: 2 }, { dimParam: 's' }, { dimValue: 4 }] } } } });
    const axis = [{ name: 'axis', i: 2, type: onnx.AttributeProto.AttributeType.INT }];
    const source = encodeModel({
      name: 'g',
      node: [
        { opType: 'Concat', input: ['past_key_values.0.key', 'fresh'], output: ['present.0.key'], name: 'k', attribute: axis },
        { opType: 'Identity', input: ['past_key_values.0.value'], output: ['present.0.value'], name: 'v' },
      ],
      input: [info('past_key_values.0.key'), info('past_key_values.0.value'), info('fresh')],
      output: [info('present.0.key'), info('present.0.value')],
    });
    const { bytes, outputs } = exposeNewKeyValues(source);
    expect(bytes).toBe(source);
    expect(outputs).toEqual([]);
  });

  test('newKeyValuesName names the output of a past input', () => {
    expect(newKeyValuesName('past_key_values.3.value')).toBe('vitest_lokal.new.3.value');
  });
});

describe('hideEngineOutputs: runs that name no outputs do not fetch the new ones', () => {
  test('no fetches, or options alone: every output but the new ones; named fetches: as named', async () => {
    const session = await ort.InferenceSession.create(exposeNewKeyValues(cacheGraph('Concat', 2)).bytes);
    const fresh = `${NEW_KEY_VALUES_PREFIX}0.key`;
    expect(session.outputNames).toContain(fresh);
    expect(hideEngineOutputs(session)).toBe(true);
    const feeds = { 'past_key_values.0.key': new ort.Tensor('float32', new Float32Array(8), [1, 2, 1, 4]), fresh: new ort.Tensor('float32', Float32Array.from({ length: 8 }, (_, i) => i), [1, 2, 1, 4]) };
    expect(Object.keys(await session.run(feeds)).sort()).toEqual(['logits', 'present.0.key']);
    expect(Object.keys(await session.run(feeds, { logSeverityLevel: 3 })).sort()).toEqual(['logits', 'present.0.key']);
    const named = await session.run(feeds, ['logits', fresh]);
    expect(Object.keys(named).sort()).toEqual(['logits', fresh]);
    expect([...(named[fresh]!.data as Float32Array)]).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    await session.release();
  });

  test('a session without new outputs is left alone', async () => {
    const session = await ort.InferenceSession.create(cacheGraph('Concat', 2));
    const run = session.run;
    expect(hideEngineOutputs(session)).toBe(false);
    expect(session.run).toBe(run);
    await session.release();
  });
});

describe('exposeNewKeyValues on a generated model in onnxruntime', () => {
  test('a prompt pass and a decode step: new outputs are the caches\' last positions, logits and caches unchanged', async () => {
    const dir = path.join(root, 'qwen2');
    writeTinyModel(dir, { layers: 2, hidden: 64, heads: 4, kvHeads: 2, qkvBias: true, vocab: 300, seed: 7 });
    const source = readFileSync(path.join(dir, 'onnx', 'model.onnx'));
    const edited = exposeNewKeyValues(source);
    expect(edited.outputs).toEqual(['0.key', '0.value', '1.key', '1.value'].map((s) => `${NEW_KEY_VALUES_PREFIX}${s}`));
    const options: ort.InferenceSession.SessionOptions = { intraOpNumThreads: 1 };
    const [plain, exposing] = await Promise.all([ort.InferenceSession.create(source, options), ort.InferenceSession.create(edited.bytes, options)]);
    const names = plain.inputMetadata.filter((m) => m.name.startsWith('past_key_values')).map((m) => m.name.slice('past_key_values.'.length));
    const feeds = (ids: number[][], past: Record<string, ort.Tensor> | undefined, pastLength: number) => {
      const [b, w] = [ids.length, ids[0]!.length];
      const f: Record<string, ort.Tensor> = {
        input_ids: new ort.Tensor('int64', BigInt64Array.from(ids.flat(), BigInt), [b, w]),
        attention_mask: new ort.Tensor('int64', new BigInt64Array(b * (pastLength + w)).fill(1n), [b, pastLength + w]),
        position_ids: new ort.Tensor('int64', BigInt64Array.from({ length: b * w }, (_, i) => BigInt(pastLength + (i % w))), [b, w]),
      };
      for (const n of names) f[`past_key_values.${n}`] = past?.[`present.${n}`] ?? new ort.Tensor('float32', new Float32Array(0), [b, 2, 0, 16]);
      return f;
    };
    let past: Record<string, ort.Tensor> | undefined;
    let pastLength = 0;
    for (const ids of [[[3, 17, 250, 9], [7, 7, 120, 66]], [[41], [2]]]) {
      const f = feeds(ids, past, pastLength);
      const [want, got] = await Promise.all([plain.run(f), exposing.run(f)]);
      const added = ids[0]!.length;
      for (const name of ['logits', ...names.map((n) => `present.${n}`)]) expect([...(got[name]!.data as Float32Array)], name).toEqual([...(want[name]!.data as Float32Array)]);
      for (const n of names) {
        const present = want[`present.${n}`]!;
        const [b, heads, length, dim] = present.dims as [number, number, number, number];
        const fresh = got[`${NEW_KEY_VALUES_PREFIX}${n}`]!;
        expect(fresh.dims).toEqual([b, heads, added, dim]);
        // the last `added` positions of every row and head of the present cache
        const last: number[] = [];
        for (let k = 0; k < b * heads; k++) last.push(...(present.data as Float32Array).subarray((k * length + length - added) * dim, (k + 1) * length * dim));
        expect([...(fresh.data as Float32Array)], n).toEqual(last);
        // and appended to the past, they are the present cache
        if (pastLength > 0) {
          const into = new Float32Array(b * heads * length * dim);
          appendPositions(f[`past_key_values.${n}`]!.data as Float32Array, fresh.data as Float32Array, into, b * heads, pastLength, added, dim);
          expect([...into], n).toEqual([...(present.data as Float32Array)]);
        }
      }
      past = want as Record<string, ort.Tensor>;
      pastLength += added;
    }
    await Promise.all([plain.release(), exposing.release()]);
  });
});

describe('appendPositions', () => {
  test('each block\'s past positions, then its new ones (2 blocks, 2 past and 1 new position of 3 values)', () => {
    const past = Float32Array.from([1, 2, 3, 4, 5, 6, /* block 2 */ 7, 8, 9, 10, 11, 12]);
    const fresh = Float32Array.from([-1, -2, -3, /* block 2 */ -4, -5, -6]);
    const into = new Float32Array(18).fill(NaN);
    appendPositions(past, fresh, into, 2, 2, 1, 3);
    expect([...into]).toEqual([1, 2, 3, 4, 5, 6, -1, -2, -3, 7, 8, 9, 10, 11, 12, -4, -5, -6]);
  });

  test('no past: the new positions alone', () => {
    const into = new Float32Array(4);
    appendPositions(new Float32Array(0), Float32Array.from([1, 2, 3, 4]), into, 2, 0, 1, 2);
    expect([...into]).toEqual([1, 2, 3, 4]);
  });
});
