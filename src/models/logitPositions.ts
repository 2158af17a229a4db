// Logits at chosen positions only. A decoder's output projection (hidden size → vocabulary: 151,936 columns for
// Qwen2.5) runs at every position of a pass, though generation keeps only each row's last position and a shared
// prefix none: about a quarter of a prompt pass's arithmetic on Qwen2.5-0.5B. onnxruntime runs the whole graph whatever
// is fetched, so the saved optimised graph gets an input naming the rows that reach the projection, and its logits
// come out as [batch, selected, vocabulary]. A caller that does not feed it gets every position (adoptLogitPositions),
// the same logits as the graph it came from. Quantised heads are left as they are: a q8 model's dynamic quantisation
// scales by the whole input (DynamicQuantizeLinear), so fewer rows would change the logits.
//
// The edit is made on protobuf's wire format (protobufWire.ts) with the field numbers of onnx.proto: ModelProto.graph
// 7, opset_import 8 (OperatorSetIdProto.domain 1, version 2); GraphProto.node 1, initializer 5, input 11, output 12,
// value_info 13; NodeProto.input 1, output 2, name 3, op_type 4, attribute 5, domain 7; AttributeProto.name 1, i 3,
// g 6, graphs 11, type 20; TensorProto.dims 1, data_type 2, name 8, raw_data 9; ValueInfoProto.name 1, type 2;
// TypeProto.tensor_type 1; TypeProto.Tensor.elem_type 1, shape 2; TensorShapeProto.dim 1; Dimension.dim_param 2.
import { concat, type Field, fields, inner, lengthDelimited, messageField, stringField, textField, textFields, varintField, varintFields } from './protobufWire.ts';

/**
 * The graph input added by selectLogitPositions: int64 [batch, k], each value a row of the pass's positions flattened
 * row-major (row r, position p of a pass of width w: r·w + p); logits come out [batch, k, vocabulary].
 */
export const LOGIT_POSITIONS_INPUT = 'vitest_lokal.logit_positions';
const PREFIX = 'vitest_lokal.';
const INT64 = 7;

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

/** Element-wise steps that may follow the projection (a bias, a scale, a soft cap, a cast). */
const UNARY = new Set(['Cast', 'Tanh', 'Identity']);
const BINARY = new Set(['Add', 'Sub', 'Mul', 'Div']);

export const isDefaultDomain = (domain: string) => domain === '' || domain === 'ai.onnx';

export function intAttribute(buf: Uint8Array, node: GraphNode, name: string): number {
  for (const a of node.parts.filter((p) => p.no === 5 && p.wire === 2)) {
    const parts = inner(buf, a);
    if (textField(buf, parts, 1) === name) return varintFields(buf, parts, 3)[0] ?? 0;
  }
  return 0;
}

/** A node of the graph with inputs and outputs renamed by position (every other field as it was). */
function renamed(buf: Uint8Array, node: GraphNode, inputs: Map<number, string>, outputs: Map<number, string> = new Map()): Uint8Array[] {
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

function int64Initializer(name: string, dims: number[], values: number[]): Uint8Array[] {
  const raw = new Uint8Array(BigInt64Array.from(values, (v) => BigInt(v)).buffer);
  return lengthDelimited(5, [...dims.map((d) => varintField(1, d)), varintField(2, INT64), stringField(8, name), messageField(9, [raw])]);
}

const symbolicDim = (param: string) => messageField(1, [stringField(2, param)]);

/**
 * The graph with LOGIT_POSITIONS_INPUT selecting the rows that reach the output projection, or the same bytes
 * (`input` undefined) when the path from the projection to `logits` is not one this edit knows to be row-wise: a
 * MatMul, FusedMatMul or Gemm with a constant 2-D weight, followed only by reshapes and element-wise steps with
 * constants that do not vary along the sequence. The selected rows are gathered just before the projection (after a
 * reshape to [rows, hidden] where the projection takes any rank), and its output is reshaped to [batch, k, vocabulary].
 */
export function selectLogitPositions(model: Uint8Array): { bytes: Uint8Array; input?: string } {
  const unchanged = { bytes: model };
  const top = fields(model, 0, model.length);
  const graphs = top.filter((f) => f.no === 7 && f.wire === 2);
  if (graphs.length !== 1) return unchanged;
  const opset = top
    .filter((f) => f.no === 8 && f.wire === 2)
    .map((f) => inner(model, f))
    .find((p) => isDefaultDomain(textField(model, p, 1) ?? ''));
  // Reshape with its shape as an input: opset 5
  if (!opset || (varintFields(model, opset, 2)[0] ?? 0) < 5) return unchanged;
  const graph = graphs[0]!;
  const parts = inner(model, graph);
  const nodes = graphNodes(model, parts);
  // a node holding a subgraph (If, Loop, Scan) may read any tensor of the graph by name
  const hasSubgraph = (n: GraphNode) => n.parts.some((a) => a.no === 5 && a.wire === 2 && inner(model, a).some((x) => (x.no === 6 || x.no === 11) && x.wire === 2));
  if (nodes.some(hasSubgraph)) return unchanged;
  const initializers = new Map<string, number[]>();
  for (const f of parts.filter((p) => p.no === 5 && p.wire === 2)) {
    const p = inner(model, f);
    const name = textField(model, p, 8);
    if (name !== undefined) initializers.set(name, varintFields(model, p, 1));
  }
  const valueInfoName = (f: Field) => textField(model, inner(model, f), 1) ?? '';
  const graphInputs = parts.filter((p) => p.no === 11 && p.wire === 2);
  const graphOutputs = parts.filter((p) => p.no === 12 && p.wire === 2);
  const logitsOutput = graphOutputs.find((f) => valueInfoName(f) === 'logits');
  if (!logitsOutput || graphInputs.length === 0) return unchanged;
  const outputNames = new Set(graphOutputs.map(valueInfoName));
  const taken = new Set<string>([...initializers.keys(), ...graphInputs.map(valueInfoName), ...outputNames]);
  const producer = new Map<string, GraphNode>();
  const consumers = new Map<string, number>();
  for (const n of nodes) {
    const name = textField(model, n.parts, 3);
    if (name !== undefined) taken.add(name);
    for (const o of n.outputs) (producer.set(o, n), taken.add(o));
    for (const i of n.inputs) (consumers.set(i, (consumers.get(i) ?? 0) + 1), taken.add(i));
  }
  if (taken.has(LOGIT_POSITIONS_INPUT)) return unchanged;
  // a constant that broadcasts the same way over [batch, k, vocab] as over [batch, sequence, vocab]
  const rowConstant = (name: string) => initializers.get(name)?.slice(0, -1).every((d) => d === 1) ?? false;
  const matrix = (name: string | undefined) => (name === undefined ? undefined : initializers.get(name)?.length === 2 ? initializers.get(name) : undefined);

  // from `logits` back to the projection: each step's output read by the next step alone
  const after: GraphNode[] = [];
  let projection: { node: GraphNode; hidden?: number } | undefined;
  let tensor = 'logits';
  while (!projection) {
    if (after.length > 16) return unchanged;
    if (tensor !== 'logits' && (consumers.get(tensor) !== 1 || outputNames.has(tensor))) return unchanged;
    const node = producer.get(tensor);
    if (!node || node.outputs.length !== 1) return unchanged;
    const [a, b, c] = node.inputs;
    if (isDefaultDomain(node.domain) && node.op === 'Gemm') {
      // Gemm is row-wise on its 2-D A: no reshape needed before the gather
      const weight = matrix(b);
      if (!weight || intAttribute(model, node, 'transA') !== 0 || (c !== undefined && c !== '' && !rowConstant(c))) return unchanged;
      projection = { node };
    } else if ((isDefaultDomain(node.domain) && node.op === 'MatMul') || (node.domain === 'com.microsoft' && node.op === 'FusedMatMul')) {
      const weight = matrix(b);
      if (!weight || a === undefined || initializers.has(a)) return unchanged;
      if (['transA', 'transBatchA', 'transBatchB'].some((t) => intAttribute(model, node, t) !== 0)) return unchanged;
      projection = { node, hidden: intAttribute(model, node, 'transB') !== 0 ? weight[1]! : weight[0]! };
    } else if (isDefaultDomain(node.domain) && node.op === 'Reshape' && a !== undefined) {
      after.push(node);
      tensor = a;
    } else if (isDefaultDomain(node.domain) && UNARY.has(node.op) && node.inputs.length === 1) {
      after.push(node);
      tensor = a!;
    } else if (isDefaultDomain(node.domain) && BINARY.has(node.op) && node.inputs.length === 2) {
      const [flowing, constant] = initializers.has(a!) ? [b!, a!] : [a!, b!];
      if (initializers.has(flowing) || !rowConstant(constant)) return unchanged;
      after.push(node);
      tensor = flowing;
    } else return unchanged;
  }

  const fresh = (base: string) => {
    let name = `${PREFIX}${base}`;
    for (let n = 2; taken.has(name); n++) name = `${PREFIX}${base}${n}`;
    taken.add(name);
    return name;
  };
  const { node: proj, hidden } = projection;
  const projected = proj.outputs[0]!;
  const names = {
    minusOne: fresh('minus_one'),
    rowsShape: fresh('rows_shape'),
    rows: fresh('rows'),
    hiddenRows: fresh('hidden_rows'),
    selected: fresh('selected_hidden'),
    positionsShape: fresh('positions_shape'),
    logitsShape: fresh('logits_shape'),
    projected: fresh('projected_rows'),
  };
  const before: Uint8Array[] = [
    ...newNode('Reshape', [LOGIT_POSITIONS_INPUT, names.minusOne], names.rows, fresh('flatten_positions')),
    ...(hidden === undefined ? [] : newNode('Reshape', [proj.inputs[0]!, names.rowsShape], names.hiddenRows, fresh('flatten_hidden'))),
    ...newNode('Gather', [hidden === undefined ? proj.inputs[0]! : names.hiddenRows, names.rows], names.selected, fresh('select_positions'), [intAttr('axis', 0)]),
    ...newNode('Shape', [LOGIT_POSITIONS_INPUT], names.positionsShape, fresh('positions_shape')),
    ...newNode('Concat', [names.positionsShape, names.minusOne], names.logitsShape, fresh('logits_shape'), [intAttr('axis', 0)]),
  ];
  const reshapeBack = newNode('Reshape', [names.projected, names.logitsShape], projected, fresh('unflatten_logits'));
  const initializersAdded = [...int64Initializer(names.minusOne, [1], [-1]), ...(hidden === undefined ? [] : int64Initializer(names.rowsShape, [2], [-1, hidden]))];
  // logits [batch, k, vocab]: its declared second dimension follows the new input's
  const logitsParts = inner(model, logitsOutput);
  const tensorType = inner(model, inner(model, logitsParts.find((p) => p.no === 2 && p.wire === 2)!)[0]!);
  const dims = inner(model, tensorType.find((p) => p.no === 2 && p.wire === 2)!).filter((p) => p.no === 1 && p.wire === 2);
  if (dims.length !== 3) return unchanged;
  const elemType = varintFields(model, tensorType, 1)[0] ?? 1;
  const logitsInfo = lengthDelimited(12, [
    stringField(1, 'logits'),
    messageField(2, [messageField(1, [varintField(1, elemType), messageField(2, [model.subarray(dims[0]!.start, dims[0]!.end), symbolicDim('logit_positions'), model.subarray(dims[2]!.start, dims[2]!.end)])])]),
  ]);
  const positionsInfo = lengthDelimited(11, [
    stringField(1, LOGIT_POSITIONS_INPUT),
    messageField(2, [messageField(1, [varintField(1, INT64), messageField(2, [symbolicDim('batch_size'), symbolicDim('logit_positions')])])]),
  ]);
  // tensors whose shape changes: any shape recorded for them no longer holds
  const reshaped = new Set([projected, ...after.map((n) => n.outputs[0]!)]);
  const lastInput = graphInputs.at(-1)!;
  const lastInitializer = parts.filter((p) => p.no === 5 && p.wire === 2).at(-1);
  const out: Uint8Array[] = [];
  for (const f of parts) {
    if (f === proj.field) {
      out.push(...before, ...renamed(model, proj, new Map([[0, names.selected]]), new Map([[0, names.projected]])), ...reshapeBack);
      continue;
    }
    const step = after.find((n) => n.field === f);
    if (step?.op === 'Reshape') out.push(...renamed(model, step, new Map([[1, names.logitsShape]])));
    else if (f === logitsOutput) out.push(...logitsInfo);
    else if (f.no === 13 && f.wire === 2 && reshaped.has(valueInfoName(f))) continue;
    else out.push(model.subarray(f.start, f.end));
    if (f === lastInput) out.push(...positionsInfo);
    if (f === lastInitializer) out.push(...initializersAdded);
  }
  if (!lastInitializer) out.push(...initializersAdded);
  const model2: Uint8Array[] = [];
  for (const f of top) model2.push(...(f === graph ? lengthDelimited(7, out) : [model.subarray(f.start, f.end)]));
  return { bytes: concat(model2), input: LOGIT_POSITIONS_INPUT };
}

/** The parts of onnxruntime's InferenceSession the selection touches. */
interface PositionsSession {
  inputNames: readonly string[];
  inputMetadata?: ReadonlyArray<{ name: string }>;
  run(feeds: Record<string, unknown>, ...rest: never[]): Promise<Record<string, unknown>>;
}

/**
 * For a session of an edited graph: hides LOGIT_POSITIONS_INPUT from its input names (transformers.js feeds exactly
 * those) and feeds every position when a run does not name positions, so every caller but the one choosing gets the
 * graph's full logits. Returns the input's name, or undefined when the session has no such input.
 */
export function adoptLogitPositions(session: PositionsSession, int64: (data: BigInt64Array, dims: number[]) => unknown): string | undefined {
  if (!session.inputNames.includes(LOGIT_POSITIONS_INPUT)) return undefined;
  const run = session.run.bind(session);
  Object.defineProperty(session, 'inputNames', { value: session.inputNames.filter((n) => n !== LOGIT_POSITIONS_INPUT), configurable: true });
  if (session.inputMetadata)
    Object.defineProperty(session, 'inputMetadata', { value: session.inputMetadata.filter((m) => m.name !== LOGIT_POSITIONS_INPUT), configurable: true });
  session.run = (feeds, ...rest) => {
    if (LOGIT_POSITIONS_INPUT in feeds) return run(feeds, ...rest);
    const dims = (feeds.input_ids as { dims?: readonly number[] } | undefined)?.dims;
    if (dims?.length !== 2) throw new Error(`${LOGIT_POSITIONS_INPUT}: a run without input_ids of shape [batch, sequence] must name its logit positions`);
    const all = new BigInt64Array(dims[0]! * dims[1]!);
    for (let i = 0; i < all.length; i++) all[i] = BigInt(i);
    return run({ ...feeds, [LOGIT_POSITIONS_INPUT]: int64(all, [dims[0]!, dims[1]!]) }, ...rest);
  };
  return LOGIT_POSITIONS_INPUT;
}
