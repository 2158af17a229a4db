// What the saved graph's output edits (newKeyValues.ts, nextToken.ts) read of a model: its one graph's fields, nodes,
// inputs, outputs and every name in use; and the model written back with the graph's fields replaced. Field numbers
// of onnx.proto as in logitPositions.ts.
import { type GraphNode, graphNodes } from './logitPositions.ts';
import { concat, type Field, fields, inner, lengthDelimited, messageField, stringField, textField, varintField, varintFields } from './protobufWire.ts';

export interface ReadGraph {
  top: Field[];
  graph: Field;
  parts: Field[];
  nodes: GraphNode[];
  inputNames: Set<string>;
  outputs: Field[];
  /** Every name in use: inputs, outputs, initializers, nodes and the tensors they read and write. */
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
  const inputNames = new Set(parts.filter((p) => p.no === 11 && p.wire === 2).map(valueInfoName));
  const outputs = parts.filter((p) => p.no === 12 && p.wire === 2);
  const initializers = parts.filter((p) => p.no === 5 && p.wire === 2).map((p) => textField(model, inner(model, p), 8) ?? '');
  const taken = new Set<string>([...inputNames, ...outputs.map(valueInfoName), ...initializers]);
  const producer = new Map<string, GraphNode>();
  for (const n of nodes) {
    const name = textField(model, n.parts, 3);
    if (name !== undefined) taken.add(name);
    for (const o of n.outputs) (producer.set(o, n), taken.add(o));
    for (const i of n.inputs) taken.add(i);
  }
  return { top, graph, parts, nodes, inputNames, outputs, taken, producer, valueInfoName };
}

/** A graph output's TypeProto.Tensor fields (elem_type 1, shape 2), if it is a tensor. */
function outputTensorType(model: Uint8Array, output: Field): Field[] | undefined {
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
  const edited: Uint8Array[] = [];
  for (const f of read.top) edited.push(...(f === read.graph ? lengthDelimited(7, out) : [model.subarray(f.start, f.end)]));
  return concat(edited);
}

/** A graph output (ValueInfoProto, GraphProto field 12) of a tensor of the element type, its shape left open. */
export function outputInfo(name: string, elemType: number): Uint8Array[] {
  return lengthDelimited(12, [stringField(1, name), messageField(2, [messageField(1, [varintField(1, elemType)])])]);
}
