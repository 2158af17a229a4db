// What the saved graph's edits (logitPositions.ts, lookupAlias.ts, newKeyValues.ts, nextToken.ts,
// perItemQuantisation.ts) read of a model: its one graph's fields, nodes, inputs, outputs, initializers and every name
// in use; the nodes and attributes they write; and the model written back with the graph's fields replaced. The edits
// are made on protobuf's wire format (protobufWire.ts) with the field numbers of onnx.proto: ModelProto.graph 7,
// opset_import 8 (OperatorSetIdProto.domain 1, version 2); GraphProto.node 1, initializer 5, input 11, output 12,
// value_info 13; NodeProto.input 1, output 2, name 3, op_type 4, attribute 5, domain 7; AttributeProto.name 1, i 3,
// type 20; ValueInfoProto.name 1, type 2; TypeProto.tensor_type 1 (elem_type 1, shape 2; TensorShapeProto.dim 1);
// TensorProto.dims 1, data_type 2, name 8, raw_data 9, external_data 13.
import { concat, type Field, fields, inner, lengthDelimited, messageField, stringField, textField, textFields, varintField, varintFields } from './protobufWire.ts';

/** A NodeProto of the graph: its field and parts, with its op, domain, inputs and outputs read. */
export interface GraphNode {
  field: Field;
  parts: Field[];
  op: string;
  domain: string;
  inputs: string[];
  outputs: string[];
}

/** The nodes among a GraphProto's parts, in order. */
export function graphNodes(model: Uint8Array, parts: Field[]): GraphNode[] {
  return parts
    .filter((p) => p.no === 1 && p.wire === 2)
    .map((field) => {
      const p = inner(model, field);
      return { field, parts: p, op: textField(model, p, 4) ?? '', domain: textField(model, p, 7) ?? '', inputs: textFields(model, p, 1), outputs: textFields(model, p, 2) };
    });
}

export const isDefaultDomain = (domain: string) => domain === '' || domain === 'ai.onnx';

/** A node's INT attribute `name`, 0 when it has none (ONNX's default for the attributes the edits read). */
export function intAttribute(buf: Uint8Array, node: GraphNode, name: string): number {
  for (const a of node.parts.filter((p) => p.no === 5 && p.wire === 2)) {
    const parts = inner(buf, a);
    if (textField(buf, parts, 1) === name) return varintFields(buf, parts, 3)[0] ?? 0;
  }
  return 0;
}

/** A node of the graph with inputs and outputs renamed by position (every other field as it was). */
export function renamed(buf: Uint8Array, node: GraphNode, inputs: Map<number, string>, outputs: Map<number, string> = new Map()): Uint8Array[] {
  let i = 0;
  let o = 0;
  const parts = node.parts.map((p) => {
    if (p.no === 1 && p.wire === 2) {
      const name = inputs.get(i++);
      if (name !== undefined) return stringField(1, name);
    } else if (p.no === 2 && p.wire === 2) {
      const name = outputs.get(o++);
      if (name !== undefined) return stringField(2, name);
    }
    return buf.subarray(p.start, p.end);
  });
  return lengthDelimited(1, parts);
}

export function newNode(op: string, inputs: string[], output: string, name: string, attributes: Uint8Array[] = []): Uint8Array[] {
  return lengthDelimited(1, [...inputs.map((x) => stringField(1, x)), stringField(2, output), stringField(3, name), stringField(4, op), ...attributes]);
}

/** AttributeProto of type INT (2). */
export const intAttr = (name: string, value: number) => messageField(5, [stringField(1, name), varintField(3, value), varintField(20, 2)]);

/** AttributeProto of type INTS (7; AttributeProto.ints 8). */
export const intsAttr = (name: string, values: number[]) => messageField(5, [stringField(1, name), ...values.map((v) => varintField(8, v)), varintField(20, 7)]);

/** A graph initializer (GraphProto field 5: TensorProto dims, data_type, name, raw_data) holding `raw` little-endian bytes. */
export function initializer(name: string, dataType: number, dims: number[], raw: Uint8Array): Uint8Array[] {
  return lengthDelimited(5, [...dims.map((d) => varintField(1, d)), varintField(2, dataType), stringField(8, name), messageField(9, [raw])]);
}

export interface ReadGraph {
  top: Field[];
  graph: Field;
  parts: Field[];
  nodes: GraphNode[];
  inputs: Field[];
  inputNames: Set<string>;
  outputs: Field[];
  initializers: Field[];
  /** Every name in use: inputs, outputs, value infos, initializers, nodes and the tensors they read and write. */
  taken: Set<string>;
  /** The node writing each tensor. */
  producer: Map<string, GraphNode>;
  valueInfoName(f: Field): string;
}

/** The model's graph as the edits read it, or undefined when the model has not exactly one graph. */
export function readGraph(model: Uint8Array): ReadGraph | undefined {
  const top = fields(model, 0, model.length);
  const graphs = top.filter((f) => f.no === 7 && f.wire === 2);
  if (graphs.length !== 1) return undefined;
  const graph = graphs[0]!;
  const parts = inner(model, graph);
  const nodes = graphNodes(model, parts);
  const valueInfoName = (f: Field) => textField(model, inner(model, f), 1) ?? '';
  const inputs = parts.filter((p) => p.no === 11 && p.wire === 2);
  const inputNames = new Set(inputs.map(valueInfoName));
  const outputs = parts.filter((p) => p.no === 12 && p.wire === 2);
  const initializers = parts.filter((p) => p.no === 5 && p.wire === 2);
  const valueInfos = parts.filter((p) => p.no === 13 && p.wire === 2).map(valueInfoName);
  const taken = new Set<string>([...inputNames, ...outputs.map(valueInfoName), ...valueInfos, ...initializers.map((p) => textField(model, inner(model, p), 8) ?? '')]);
  const producer = new Map<string, GraphNode>();
  for (const n of nodes) {
    const name = textField(model, n.parts, 3);
    if (name !== undefined) taken.add(name);
    for (const o of n.outputs) (producer.set(o, n), taken.add(o));
    for (const i of n.inputs) taken.add(i);
  }
  return { top, graph, parts, nodes, inputs, inputNames, outputs, initializers, taken, producer, valueInfoName };
}

/** A graph output's TypeProto.Tensor fields (elem_type 1, shape 2), if it is a tensor. */
export function outputTensorType(model: Uint8Array, output: Field): Field[] | undefined {
  const typeField = inner(model, output).find((p) => p.no === 2 && p.wire === 2);
  const tensorType = typeField && inner(model, typeField).find((p) => p.no === 1 && p.wire === 2);
  return tensorType && inner(model, tensorType);
}

/** The element type (TensorProto.DataType) of a graph output, if it is a tensor. */
export function outputElementType(model: Uint8Array, output: Field): number | undefined {
  const tensorType = outputTensorType(model, output);
  return tensorType && varintFields(model, tensorType, 1)[0];
}

/** The rank of a graph output's declared shape, if it declares one. */
export function outputRank(model: Uint8Array, output: Field): number | undefined {
  const shape = outputTensorType(model, output)?.find((p) => p.no === 2 && p.wire === 2);
  return shape && inner(model, shape).filter((p) => p.no === 1 && p.wire === 2).length;
}

/** The model with its graph's fields replaced by `parts` (every other field of the model as it was). */
export function withGraphParts(model: Uint8Array, read: ReadGraph, parts: Uint8Array[]): Uint8Array {
  const edited: Uint8Array[] = [];
  for (const f of read.top) edited.push(...(f === read.graph ? lengthDelimited(7, parts) : [model.subarray(f.start, f.end)]));
  return concat(edited);
}

/** The model with nodes inserted after given fields of its graph and outputs after its last output. */
export function withGraphAdditions(model: Uint8Array, read: ReadGraph, after: Map<Field, Uint8Array[]>, outputs: Uint8Array[]): Uint8Array {
  const lastOutput = read.outputs.at(-1);
  const out: Uint8Array[] = [];
  for (const f of read.parts) {
    out.push(model.subarray(f.start, f.end));
    const added = after.get(f);
    if (added) out.push(...added);
    if (f === lastOutput) out.push(...outputs);
  }
  return withGraphParts(model, read, out);
}

/** A graph output (ValueInfoProto, GraphProto field 12) of a tensor of the element type, its shape left open. */
export function outputInfo(name: string, elemType: number): Uint8Array[] {
  return lengthDelimited(12, [stringField(1, name), messageField(2, [messageField(1, [varintField(1, elemType)])])]);
}
