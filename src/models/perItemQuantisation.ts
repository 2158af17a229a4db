// The per-item variant of a saved optimised q8 graph. onnxruntime's dynamic quantiser (quantize_dynamic) quantises a
// matrix product's input with one scale and zero point for the whole tensor (DynamicQuantizeLinear, fused by
// onnxruntime into MatMulIntegerToFloat and DynamicQuantizeMatMul, whose kernels take a scalar scale only). This edit
// takes them per item instead: over dimension 0 (the batch) of a [batch, sequence, features] activation, each item's
// scale and zero point computed with the same formula as onnxruntime's kernel (contrib_ops/cpu/quantization/
// dynamic_quantize_matmul.cc: range widened to include 0, scale (max - min) / 255 or 1 when max = min, zero point
// round-half-even of clamp(0 - min / scale, 0, 255)), the activation quantised by QuantizeLinear along axis 0, then
// MatMulInteger with no activation zero point and the item's zero point taken off exactly in integers
// (zp × Σₖ(W[k,n] − W_zp), precomputed per column), scaled by (item scale × weight scale) and the bias added, the
// order onnxruntime's output processor multiplies and adds in. A batch of one item thus computes what the published
// graph computes for it, and each row of a decode step what that item's own step computes: an item's quantisation no
// longer depends on the other rows. The graph is read and written as graphEdit.ts does (also TensorProto.raw_data 9,
// external_data 13 with StringStringEntryProto key 1 / value 2; AttributeProto.ints 8, type 20: INT 2, INTS 7).
import { type GraphNode, initializer as tensor, intAttr, intsAttr, isDefaultDomain, newNode, readGraph, withGraphParts } from './graphEdit.ts';
import { ONNX_TYPES } from './onnxGraphReader.ts';
import { fields, inner, text, textField, varintFields, type Field } from './protobufWire.ts';

/** Reads `length` bytes at `offset` of an external data file named as the graph names it. */
export type ExternalDataReader = (location: string, offset: number, length: number) => Uint8Array;

interface PerItemResult {
  bytes: Uint8Array;
  /** Matrix products now quantising their input per item. */
  rewritten: number;
  /** Why the graph was left as it was (a pattern the edit does not know), when it was. */
  unchanged?: string;
}

/** An integer matrix product to redo per item, and (fused ones) the rescaling by scale × weight scale, plus bias. */
interface Product {
  activation: string;
  weight: string;
  weightZeroPoint: string;
  rescale?: { weightScale: string; bias: string };
}

interface Initializer {
  dims: number[];
  dataType: number;
  raw: () => Uint8Array;
}

const floatScalar = (name: string, value: number) => tensor(name, ONNX_TYPES.float, [], new Uint8Array(Float32Array.of(value).buffer));

function readInitializers(model: Uint8Array, parts: Field[], readData: ExternalDataReader): Map<string, Initializer> {
  const out = new Map<string, Initializer>();
  for (const f of parts) {
    const p = inner(model, f);
    const name = textField(model, p, 8);
    if (name === undefined) continue;
    const dims = varintFields(model, p, 1);
    const dataType = varintFields(model, p, 2)[0] ?? 0;
    const raw = p.find((x) => x.no === 9 && x.wire === 2);
    const external = new Map<string, string>();
    for (const e of p.filter((x) => x.no === 13 && x.wire === 2)) {
      const kv = fields(model, e.valueStart, e.end);
      const key = kv.find((x) => x.no === 1 && x.wire === 2);
      const value = kv.find((x) => x.no === 2 && x.wire === 2);
      if (key && value) external.set(text(model, key), text(model, value));
    }
    out.set(name, {
      dims,
      dataType,
      raw: () => {
        if (raw) return model.subarray(raw.valueStart, raw.end);
        const location = external.get('location');
        if (location === undefined) throw new Error(`initializer ${name} holds its data in a field this edit does not read`);
        return readData(location, Number(external.get('offset') ?? 0), Number(external.get('length') ?? 0));
      },
    });
  }
  return out;
}

/** Σₖ (W[k,n] − zp[n]) per column n of a [K, N] uint8/int8 matrix, as int32 bytes. */
function columnSums(weight: Initializer, zeroPoint: Initializer | undefined): Uint8Array {
  const [k, n] = weight.dims as [number, number];
  const data = weight.raw();
  const signed = weight.dataType === ONNX_TYPES.int8;
  const zpRaw = zeroPoint?.raw();
  const zp = (col: number) => {
    if (!zpRaw || zpRaw.length === 0) return 0;
    const v = zpRaw[zpRaw.length === 1 ? 0 : col]!;
    return signed ? (v << 24) >> 24 : v;
  };
  const sums = new Int32Array(n);
  for (let row = 0; row < k; row++) {
    const at = row * n;
    if (signed) for (let col = 0; col < n; col++) sums[col]! += (data[at + col]! << 24) >> 24;
    else for (let col = 0; col < n; col++) sums[col]! += data[at + col]!;
  }
  for (let col = 0; col < n; col++) sums[col]! -= k * zp(col);
  return new Uint8Array(sums.buffer);
}

/**
 * The graph with every dynamically quantised matrix product taking its input's scale and zero point per item (see the
 * top of this file), or the same bytes with the reason when a per-tensor quantisation would be left in it.
 */
export function quantiseActivationsPerItem(model: Uint8Array, readData: ExternalDataReader): PerItemResult {
  const read = readGraph(model);
  if (!read) return { bytes: model, rewritten: 0, unchanged: 'the model has not exactly one graph' };
  const opsetField = read.top.filter((f) => f.no === 8 && f.wire === 2).find((f) => {
    const domain = textField(model, inner(model, f), 1) ?? '';
    return isDefaultDomain(domain);
  });
  const opset = opsetField ? (varintFields(model, inner(model, opsetField), 2)[0] ?? 0) : 0;
  if (opset < 13) return { bytes: model, rewritten: 0, unchanged: `its opset ${opset} is older than 13 (per-axis QuantizeLinear)` };
  const initializers = readInitializers(model, read.initializers, readData);
  const consumers = new Map<string, GraphNode[]>();
  for (const n of read.nodes) for (const i of n.inputs) if (i !== '') consumers.set(i, [...(consumers.get(i) ?? []), n]);
  const graphOutputs = new Set(read.outputs.map(read.valueInfoName));

  const isOp = (c: GraphNode, op: string, domain = '') => c.op === op && (domain === '' ? isDefaultDomain(c.domain) : c.domain === domain);
  // which nodes go: quantisers (by the activation they quantise and the names their outputs keep) and products
  const quantisers = new Map<GraphNode, { activation: string; names?: { q: string; scale: string } }>();
  const products = new Map<GraphNode, Product>();
  for (const n of read.nodes) {
    if (isOp(n, 'DynamicQuantizeLinear')) {
      const [q, scale, zp] = n.outputs;
      if (!q || !scale || !zp) return { bytes: model, rewritten: 0, unchanged: `a DynamicQuantizeLinear (${n.inputs[0]}) has unnamed outputs` };
      for (const out of [q, scale, zp]) {
        if (graphOutputs.has(out)) return { bytes: model, rewritten: 0, unchanged: `DynamicQuantizeLinear's output ${out} is a graph output` };
      }
      const unknown = (c: GraphNode) => ({ bytes: model, rewritten: 0, unchanged: `a quantised activation (${n.inputs[0]}) feeds ${c.domain ? `${c.domain}:` : ''}${c.op}, which this edit does not rewrite` });
      // the quantised tensor and its zero point: integer products only (fused with the rescaling, or followed by it)
      for (const c of [...(consumers.get(q) ?? []), ...(consumers.get(zp) ?? [])]) {
        const fused = isOp(c, 'MatMulIntegerToFloat', 'com.microsoft') && c.inputs[0] === q && c.inputs[2] === scale && (c.inputs[4] ?? '') === zp;
        const plain = isOp(c, 'MatMulInteger') && c.inputs[0] === q && (c.inputs[2] ?? '') === zp;
        if (!fused && !plain) return unknown(c);
      }
      // the scale: those products, or the Mul by the weight's scale whose result rescales a plain product (per item, it broadcasts)
      for (const c of consumers.get(scale) ?? []) {
        if (isOp(c, 'MatMulIntegerToFloat', 'com.microsoft')) continue;
        if (!isOp(c, 'Mul') || (consumers.get(c.outputs[0]!) ?? []).some((m) => !isOp(m, 'Mul'))) return unknown(c);
      }
      quantisers.set(n, { activation: n.inputs[0]!, names: { q, scale } });
    } else if (isOp(n, 'MatMulIntegerToFloat', 'com.microsoft')) {
      const producer = read.producer.get(n.inputs[0]!);
      if (!producer || !isOp(producer, 'DynamicQuantizeLinear')) return { bytes: model, rewritten: 0, unchanged: `MatMulIntegerToFloat reads ${n.inputs[0]}, not a DynamicQuantizeLinear output` };
      products.set(n, { activation: producer.inputs[0]!, weight: n.inputs[1]!, weightZeroPoint: n.inputs[5] ?? '', rescale: { weightScale: n.inputs[3]!, bias: n.inputs[6] ?? '' } });
    } else if (isOp(n, 'MatMulInteger')) {
      const producer = read.producer.get(n.inputs[0]!);
      if (!producer || !isOp(producer, 'DynamicQuantizeLinear')) return { bytes: model, rewritten: 0, unchanged: `MatMulInteger reads ${n.inputs[0]}, not a DynamicQuantizeLinear output` };
      // the result stays int32 under its name: the graph's own Cast and Mul rescale it, by the item's scale now
      products.set(n, { activation: producer.inputs[0]!, weight: n.inputs[1]!, weightZeroPoint: n.inputs[3] ?? '' });
    } else if (isOp(n, 'DynamicQuantizeMatMul', 'com.microsoft')) {
      quantisers.set(n, { activation: n.inputs[0]! });
      products.set(n, { activation: n.inputs[0]!, weight: n.inputs[1]!, weightZeroPoint: n.inputs[3] ?? '', rescale: { weightScale: n.inputs[2]!, bias: n.inputs[4] ?? '' } });
    } else if (['DynamicQuantizeLSTM', 'QAttention', 'DynamicQuantizeConv', 'ConvInteger'].includes(n.op)) {
      return { bytes: model, rewritten: 0, unchanged: `it has ${n.op}, which this edit does not rewrite` };
    }
  }
  for (const p of products.values()) {
    const w = initializers.get(p.weight);
    if (!w || w.dims.length !== 2 || (w.dataType !== ONNX_TYPES.uint8 && w.dataType !== ONNX_TYPES.int8))
      return { bytes: model, rewritten: 0, unchanged: `the weight ${p.weight} is not a stored 2-D uint8/int8 matrix` };
    const zp = p.weightZeroPoint === '' ? undefined : initializers.get(p.weightZeroPoint);
    if (p.weightZeroPoint !== '' && !zp) return { bytes: model, rewritten: 0, unchanged: `the weight zero point ${p.weightZeroPoint} is not stored` };
  }
  if (products.size === 0) return { bytes: model, rewritten: 0, unchanged: 'it has no dynamically quantised matrix product' };

  const fresh = (base: string) => {
    let name = base;
    for (let i = 2; read.taken.has(name); i++) name = `${base}${i}`;
    read.taken.add(name);
    return name;
  };
  const constants = { zero: fresh('per_item.zero'), one: fresh('per_item.one'), qmax: fresh('per_item.255'), flat: fresh('per_item.flat') };
  const shared: Uint8Array[] = [
    ...floatScalar(constants.zero, 0),
    ...floatScalar(constants.one, 1),
    ...floatScalar(constants.qmax, 255),
    ...tensor(constants.flat, ONNX_TYPES.int64, [1], new Uint8Array(BigInt64Array.of(-1n).buffer)),
  ];
  const axes = fresh('per_item.axes');
  if (opset >= 18) shared.push(...tensor(axes, ONNX_TYPES.int64, [2], new Uint8Array(BigInt64Array.of(1n, 2n).buffer)));

  /** Per activation: the quantised input, its item scales [B,1,1] and int32 zero points [B,1,1]. */
  const perItem = new Map<string, { q: string; scale: string; zeroPoint: string }>();
  const quantise = (x: string, names?: { q: string; scale: string }): Uint8Array[] => {
    if (perItem.has(x)) {
      // a second quantiser of the same tensor (onnxruntime merges them; kept general): its names as copies
      const first = perItem.get(x)!;
      return names ? [...newNode('Identity', [first.q], names.q, `${names.q}.per_item`), ...newNode('Identity', [first.scale], names.scale, `${names.scale}.per_item`)] : [];
    }
    const name = (s: string) => fresh(`${x}.per_item.${s}`);
    const v = { max: name('max'), min: name('min'), hi: name('hi'), lo: name('lo'), range: name('range'), scale0: name('scale0'), same: name('same'), scale: names?.scale ?? name('scale') };
    const z = { div: name('zp_div'), neg: name('zp_neg'), clip: name('zp_clip'), round: name('zp_round'), u8: name('zp_u8'), i32: name('zp_i32') };
    const flat = { scale: name('scale_flat'), zp: name('zp_flat') };
    const q = names?.q ?? name('quantized');
    const reduce = (op: string, out: string) =>
      opset >= 18 ? newNode(op, [x, axes], out, `${out}.node`, [intAttr('keepdims', 1)]) : newNode(op, [x], out, `${out}.node`, [intsAttr('axes', [1, 2]), intAttr('keepdims', 1)]);
    perItem.set(x, { q, scale: v.scale, zeroPoint: z.i32 });
    return [
      ...reduce('ReduceMax', v.max),
      ...reduce('ReduceMin', v.min),
      ...newNode('Max', [v.max, constants.zero], v.hi, `${v.hi}.node`),
      ...newNode('Min', [v.min, constants.zero], v.lo, `${v.lo}.node`),
      ...newNode('Sub', [v.hi, v.lo], v.range, `${v.range}.node`),
      ...newNode('Div', [v.range, constants.qmax], v.scale0, `${v.scale0}.node`),
      ...newNode('Equal', [v.hi, v.lo], v.same, `${v.same}.node`),
      ...newNode('Where', [v.same, constants.one, v.scale0], v.scale, `${v.scale}.node`),
      // zero point: qmin - min / scale, clamped to [0, 255], rounded half to even
      ...newNode('Div', [v.lo, v.scale], z.div, `${z.div}.node`),
      ...newNode('Sub', [constants.zero, z.div], z.neg, `${z.neg}.node`),
      ...newNode('Clip', [z.neg, constants.zero, constants.qmax], z.clip, `${z.clip}.node`),
      ...newNode('Round', [z.clip], z.round, `${z.round}.node`),
      ...newNode('Cast', [z.round], z.u8, `${z.u8}.node`, [intAttr('to', ONNX_TYPES.uint8)]),
      ...newNode('Cast', [z.round], z.i32, `${z.i32}.node`, [intAttr('to', ONNX_TYPES.int32)]),
      ...newNode('Reshape', [v.scale, constants.flat], flat.scale, `${flat.scale}.node`),
      ...newNode('Reshape', [z.u8, constants.flat], flat.zp, `${flat.zp}.node`),
      ...newNode('QuantizeLinear', [x, flat.scale, flat.zp], q, `${q}.node`, [intAttr('axis', 0)]),
    ];
  };

  const product = (node: GraphNode): Uint8Array[] => {
    const p = products.get(node)!;
    const { q, scale, zeroPoint } = perItem.get(p.activation)!;
    const output = node.outputs[0]!;
    const name = (s: string) => fresh(`${output}.per_item.${s}`);
    const sums = name('column_sums');
    const weight = initializers.get(p.weight)!;
    const n = { acc: name('acc'), correction: name('zp_correction'), exact: p.rescale ? name('acc_exact') : output };
    const nodes = [
      ...tensor(sums, ONNX_TYPES.int32, [weight.dims[1]!], columnSums(weight, p.weightZeroPoint === '' ? undefined : initializers.get(p.weightZeroPoint))),
      ...newNode('MatMulInteger', p.weightZeroPoint === '' ? [q, p.weight] : [q, p.weight, '', p.weightZeroPoint], n.acc, `${n.acc}.node`),
      ...newNode('Mul', [zeroPoint, sums], n.correction, `${n.correction}.node`),
      ...newNode('Sub', [n.acc, n.correction], n.exact, `${n.exact}.node`),
    ];
    if (!p.rescale) return nodes;
    const { weightScale, bias } = p.rescale;
    const r = { float: name('acc_float'), multiplier: name('multiplier'), scaled: bias === '' ? output : name('scaled') };
    return [
      ...nodes,
      ...newNode('Cast', [n.exact], r.float, `${r.float}.node`, [intAttr('to', ONNX_TYPES.float)]),
      ...newNode('Mul', [scale, weightScale], r.multiplier, `${r.multiplier}.node`),
      ...newNode('Mul', [r.float, r.multiplier], r.scaled, `${r.scaled}.node`),
      ...(bias === '' ? [] : newNode('Add', [r.scaled, bias], output, `${output}.per_item.bias`)),
    ];
  };

  const parts: Uint8Array[] = [];
  const byField = new Map(read.nodes.map((n) => [n.field, n]));
  for (const f of read.parts) {
    const node = byField.get(f);
    if (node && (quantisers.has(node) || products.has(node))) {
      if (quantisers.has(node)) parts.push(...quantise(quantisers.get(node)!.activation, quantisers.get(node)!.names));
      if (products.has(node)) parts.push(...product(node));
      continue;
    }
    parts.push(model.subarray(f.start, f.end));
  }
  parts.push(...shared);
  return { bytes: withGraphParts(model, read, parts), rewritten: products.size };
}
