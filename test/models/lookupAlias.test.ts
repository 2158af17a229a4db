// The lookup alias of a saved optimised graph (src/models/lookupAlias.ts): a Gather reading a prepacked initializer
// gets an initializer of its own naming the same external bytes. Checked by decoding the result with onnx-proto's
// schema (a second reader of the format), field by field against the graph it came from.
import { describe, expect, test } from 'vitest';
import onnxProto, { type onnx as OnnxTypes } from 'onnx-proto';
import { aliasLookupTables } from '../../src/models/lookupAlias.ts';

const { onnx } = onnxProto;
type TensorInit = OnnxTypes.ITensorProto;

const external = (offset: number, length: number, prepacked?: string) => [
  { key: 'location', value: 'model.onnx_data' },
  { key: 'offset', value: String(offset) },
  { key: 'length', value: String(length) },
  ...(prepacked ? [{ key: 'prepacked_0', value: prepacked }] : []),
];
const tensor = (name: string, dims: number[], entries: ReturnType<typeof external>): TensorInit => ({
  name,
  dims,
  dataType: onnx.TensorProto.DataType.FLOAT,
  dataLocation: onnx.TensorProto.DataLocation.EXTERNAL,
  externalData: entries,
});

function modelBytes(nodes: Array<[op: string, inputs: string[], output: string]>, initializers: TensorInit[]): Uint8Array {
  return onnx.ModelProto.encode(
    onnx.ModelProto.create({
      irVersion: 8,
      producerName: 'onnxruntime',
      opsetImport: [{ domain: '', version: 17 }],
      graph: {
        name: 'g',
        node: nodes.map(([opType, input, output], i) => ({ opType, input, output: [output], name: `n${i}` })),
        initializer: initializers,
        input: [{ name: 'ids' }, { name: 'x' }],
        output: [{ name: 'logits' }],
      },
      metadataProps: [{ key: 'kept', value: 'as written' }],
    }),
  ).finish();
}

describe('aliasLookupTables', () => {
  test('a Gather of a prepacked initializer reads an alias of the same bytes, without the prepacked layouts', () => {
    const source = modelBytes(
      [
        ['Gather', ['embed', 'ids'], 'hidden'],
        ['Gemm', ['x', 'embed'], 'logits'],
        ['Gather', ['positions', 'ids'], 'pos'],
        ['MatMul', ['hidden', 'proj'], 'embed.lookup'],
      ],
      [tensor('embed', [100, 8], external(4096, 3200, 'Gemm+1|8192;3200;0')), tensor('positions', [16, 8], external(12288, 512)), tensor('proj', [8, 8], external(16384, 256, 'MatMul+2|20480;256;0'))],
    );
    const { bytes, aliased } = aliasLookupTables(source);
    expect(aliased).toEqual(['embed']);
    const before = onnx.ModelProto.decode(source);
    const after = onnx.ModelProto.decode(bytes);
    // 'embed.lookup' is a node output already: the alias takes the next free name
    const alias = 'embed.lookup2';
    expect(after.graph!.node!.map((n) => [n.opType, n.input])).toEqual([
      ['Gather', [alias, 'ids']],
      ['Gemm', ['x', 'embed']],
      ['Gather', ['positions', 'ids']],
      ['MatMul', ['hidden', 'proj']],
    ]);
    const initializers = after.graph!.initializer as InstanceType<typeof onnx.TensorProto>[];
    expect(initializers.map((t) => t.name)).toEqual(['embed', alias, 'positions', 'proj']);
    const [embed, lookup] = initializers;
    expect(onnx.TensorProto.toObject(embed!)).toEqual(onnx.TensorProto.toObject(before.graph!.initializer![0] as InstanceType<typeof onnx.TensorProto>));
    expect(lookup!.dims.map(Number)).toEqual([100, 8]);
    expect([lookup!.dataType, lookup!.dataLocation]).toEqual([onnx.TensorProto.DataType.FLOAT, onnx.TensorProto.DataLocation.EXTERNAL]);
    expect(lookup!.externalData.map((e: OnnxTypes.IStringStringEntryProto) => [e.key, e.value])).toEqual([['location', 'model.onnx_data'], ['offset', '4096'], ['length', '3200']]);
    // everything else as it was
    for (const field of ['irVersion', 'producerName', 'opsetImport', 'metadataProps'] as const) expect(after[field]).toEqual(before[field]);
    expect([after.graph!.name, after.graph!.input, after.graph!.output]).toEqual([before.graph!.name, before.graph!.input, before.graph!.output]);
  });

  test('a graph without that pattern comes back byte for byte', () => {
    const untied = modelBytes(
      [
        ['Gather', ['embed', 'ids'], 'hidden'],
        ['MatMul', ['hidden', 'head'], 'logits'],
      ],
      [tensor('embed', [100, 8], external(0, 3200)), tensor('head', [8, 100], external(4096, 3200, 'MatMul+1|8192;3200;0'))],
    );
    const result = aliasLookupTables(untied);
    expect(result.aliased).toEqual([]);
    expect(Buffer.from(result.bytes).equals(Buffer.from(untied))).toBe(true);
  });

  test('bytes that are not a protobuf message are refused with where they break', () => {
    expect(() => aliasLookupTables(Uint8Array.from([0x3a, 0x7f, 0x01]))).toThrow(/malformed protobuf: field 7 at byte 0 runs past its message/);
  });
});
