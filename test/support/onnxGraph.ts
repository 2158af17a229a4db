// A minimal ONNX graph writer over onnx-proto (protobufjs): nodes in the default domain, float/int64 initializers.
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

export const ONNX_FLOAT = onnx.TensorProto.DataType.FLOAT;
export const ONNX_INT64 = onnx.TensorProto.DataType.INT64;
export const ONNX_BOOL = onnx.TensorProto.DataType.BOOL;

type Attr = number | number[] | string;
/** Attributes whose numeric value is a float even when it happens to be an integer (e.g. epsilon = 1). */
const FLOAT_ATTRIBUTES = new Set(['epsilon', 'alpha', 'beta']);

export class OnnxGraphBuilder {
  readonly nodes: InstanceType<typeof onnx.NodeProto>[] = [];
  readonly initializers: InstanceType<typeof onnx.TensorProto>[] = [];
  private counter = 0;

  /** Adds a node and returns the name of its (single) output; `output` names it explicitly. */
  node(op: string, inputs: string[], attrs: Record<string, Attr> = {}, output?: string): string {
    const out = output ?? `${op.toLowerCase()}_${this.counter++}`;
    const attribute = Object.entries(attrs).map(([name, value]) => {
      if (typeof value === 'string') return { name, type: onnx.AttributeProto.AttributeType.STRING, s: new TextEncoder().encode(value) };
      if (Array.isArray(value)) return { name, type: onnx.AttributeProto.AttributeType.INTS, ints: value };
      return Number.isInteger(value) && !FLOAT_ATTRIBUTES.has(name)
        ? { name, type: onnx.AttributeProto.AttributeType.INT, i: value }
        : { name, type: onnx.AttributeProto.AttributeType.FLOAT, f: value };
    });
    this.nodes.push(onnx.NodeProto.create({ opType: op, input: inputs, output: [out], name: `${op}_${this.counter++}`, attribute }));
    return out;
  }

  floatInit(name: string, dims: number[], data: Float32Array): string {
    const size = dims.reduce((a, b) => a * b, 1);
    if (size !== data.length) throw new Error(`initializer ${name}: ${data.length} values for dims [${dims.join(', ')}]`);
    const raw = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    this.initializers.push(onnx.TensorProto.create({ name, dims, dataType: ONNX_FLOAT, rawData: raw }));
    return name;
  }

  int64Init(name: string, dims: number[], values: number[]): string {
    const data = BigInt64Array.from(values.map((v) => BigInt(v)));
    this.initializers.push(onnx.TensorProto.create({ name, dims, dataType: ONNX_INT64, rawData: new Uint8Array(data.buffer) }));
    return name;
  }
}

export function onnxValueInfo(name: string, elemType: number, dims: Array<number | string>) {
  return onnx.ValueInfoProto.create({
    name,
    type: { tensorType: { elemType, shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) } } },
  });
}

/** Serialises a single-graph model (IR 8, the given opset of the default domain). */
export function encodeOnnxModel(
  g: OnnxGraphBuilder,
  graphName: string,
  inputs: ReturnType<typeof onnxValueInfo>[],
  outputs: ReturnType<typeof onnxValueInfo>[],
  opset: number,
  producer: string,
): Uint8Array {
  const model = onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: [{ domain: '', version: opset }],
    producerName: producer,
    producerVersion: '1',
    graph: onnx.GraphProto.create({ name: graphName, node: g.nodes, initializer: g.initializers, input: inputs, output: outputs }),
  });
  return onnx.ModelProto.encode(model).finish();
}

/** Float initializers of an ONNX file by name, widened to float64 (raw little-endian float32 data). */
export function readFloatInitializers(bytes: Uint8Array): Map<string, Float64Array> {
  const model = onnx.ModelProto.decode(bytes);
  const out = new Map<string, Float64Array>();
  for (const t of model.graph?.initializer ?? []) {
    if (t.dataType !== ONNX_FLOAT || !t.rawData || !t.name) continue;
    const copy = new Uint8Array(t.rawData.byteLength);
    copy.set(t.rawData);
    out.set(t.name, Float64Array.from(new Float32Array(copy.buffer)));
  }
  return out;
}
