// Logits at chosen positions only. A decoder's output projection (hidden size → vocabulary: 151,936 columns for
// Qwen2.5) runs at every position of a pass, though generation keeps only each row's last position and a shared
// prefix none: about a quarter of a prompt pass's arithmetic on Qwen2.5-0.5B. onnxruntime runs the whole graph whatever
// is fetched, so the saved optimised graph gets an input naming the rows that reach the projection, and its logits
// come out as [batch, selected, vocabulary]. A caller that does not feed it gets every position (adoptLogitPositions),
// the same logits as the graph it came from. Quantised heads are left as they are: a q8 model's dynamic quantisation
// scales by the whole input (DynamicQuantizeLinear), so fewer rows would change the logits.
//
// The graph is read and written as graphEdit.ts does (the field numbers of onnx.proto listed there; also
// AttributeProto.g 6 and graphs 11, Dimension.dim_param 2).
import { type GraphNode, initializer, intAttr, intAttribute, isDefaultDomain, newNode, outputTensorType, readGraph, renamed, withGraphParts } from './graphEdit.ts';
import { type Field, inner, lengthDelimited, messageField, stringField, textField, varintField, varintFields } from './protobufWire.ts';

/**
 * The graph input added by selectLogitPositions: int64 [batch, k], each value a row of the pass's positions flattened
 * row-major (row r, position p of a pass of width w: r·w + p); logits come out [batch, k, vocabulary].
 */
export const LOGIT_POSITIONS_INPUT = 'vitest_lokal.logit_positions';
const PREFIX = 'vitest_lokal.';
const INT64 = 7;

/** Element-wise steps that may follow the projection (a bias, a scale, a soft cap, a cast). */
const UNARY = new Set(['Cast', 'Tanh', 'Identity']);
const BINARY = new Set(['Add', 'Sub', 'Mul', 'Div']);

function int64Initializer(name: string, dims: number[], values: number[]): Uint8Array[] {
  return initializer(name, INT64, dims, new Uint8Array(BigInt64Array.from(values, (v) => BigInt(v)).buffer));
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
  const read = readGraph(model);
  if (!read) return unchanged;
  const opset = read.top
    .filter((f) => f.no === 8 && f.wire === 2)
    .map((f) => inner(model, f))
    .find((p) => isDefaultDomain(textField(model, p, 1) ?? ''));
  // Reshape with its shape as an input: opset 5
  if (!opset || (varintFields(model, opset, 2)[0] ?? 0) < 5) return unchanged;
  const { parts, nodes, producer, taken, valueInfoName } = read;
  // a node holding a subgraph (If, Loop, Scan) may read any tensor of the graph by name
  const hasSubgraph = (n: GraphNode) => n.parts.some((a) => a.no === 5 && a.wire === 2 && inner(model, a).some((x) => (x.no === 6 || x.no === 11) && x.wire === 2));
  if (nodes.some(hasSubgraph)) return unchanged;
  const initializers = new Map<string, number[]>();
  for (const f of read.initializers) {
    const p = inner(model, f);
    const name = textField(model, p, 8);
    if (name !== undefined) initializers.set(name, varintFields(model, p, 1));
  }
  const graphInputs = read.inputs;
  const logitsOutput = read.outputs.find((f) => valueInfoName(f) === 'logits');
  if (!logitsOutput || graphInputs.length === 0) return unchanged;
  const outputNames = new Set(read.outputs.map(valueInfoName));
  const consumers = new Map<string, number>();
  for (const n of nodes) for (const i of n.inputs) consumers.set(i, (consumers.get(i) ?? 0) + 1);
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
  const tensorType = outputTensorType(model, logitsOutput);
  const shape = tensorType?.find((p) => p.no === 2 && p.wire === 2);
  if (!tensorType || !shape) return unchanged;
  const dims = inner(model, shape).filter((p) => p.no === 1 && p.wire === 2);
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
  const lastInitializer = read.initializers.at(-1);
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
  return { bytes: withGraphParts(model, read, out), input: LOGIT_POSITIONS_INPUT };
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
 * graph's full logits — or, while `lastOnly()` says so, each row's last position only ([batch, 1, vocabulary]: what
 * transformers.js's generate reads of a pass). Returns the input's name, or undefined when the session has no such input.
 */
export function adoptLogitPositions(
  session: PositionsSession,
  int64: (data: BigInt64Array, dims: number[]) => unknown,
  lastOnly: () => boolean = () => false,
): string | undefined {
  if (!session.inputNames.includes(LOGIT_POSITIONS_INPUT)) return undefined;
  const run = session.run.bind(session);
  Object.defineProperty(session, 'inputNames', { value: session.inputNames.filter((n) => n !== LOGIT_POSITIONS_INPUT), configurable: true });
  if (session.inputMetadata)
    Object.defineProperty(session, 'inputMetadata', { value: session.inputMetadata.filter((m) => m.name !== LOGIT_POSITIONS_INPUT), configurable: true });
  session.run = (feeds, ...rest) => {
    if (LOGIT_POSITIONS_INPUT in feeds) return run(feeds, ...rest);
    const dims = (feeds.input_ids as { dims?: readonly number[] } | undefined)?.dims;
    if (dims?.length !== 2) throw new Error(`${LOGIT_POSITIONS_INPUT}: a run without input_ids of shape [batch, sequence] must name its logit positions`);
    if (lastOnly()) {
      const last = new BigInt64Array(dims[0]!);
      for (let r = 0; r < last.length; r++) last[r] = BigInt(r * dims[1]! + dims[1]! - 1);
      return run({ ...feeds, [LOGIT_POSITIONS_INPUT]: int64(last, [dims[0]!, 1]) }, ...rest);
    }
    const all = new BigInt64Array(dims[0]! * dims[1]!);
    for (let i = 0; i < all.length; i++) all[i] = BigInt(i);
    return run({ ...feeds, [LOGIT_POSITIONS_INPUT]: int64(all, [dims[0]!, dims[1]!]) }, ...rest);
  };
  return LOGIT_POSITIONS_INPUT;
}
