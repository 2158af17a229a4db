// Whether a model's graph gives each row of a batch the answer it gives that row alone. onnxruntime's dynamic
// quantiser (quantize_dynamic, the layout of transformers.js's q8/int8/uint8 files) picks one scale and zero point for
// the whole activation tensor (DynamicQuantizeLinear, and the fused DynamicQuantizeMatMul it becomes): in a batch, a
// row's numbers depend on every other row, on padding and on how the prompt was split. float16 graphs round by
// batch shape and prefix split (log-probabilities ~1e-3 apart, docs/models.md). Such graphs run in the exact mode: one prompt at a time, as the model's
// runtime (transformers.js's generate and forward) runs it. A dynamically quantised graph whose quantisers all feed
// integer matrix products (quantize_dynamic's layout) gets those numbers batched (perItemQuantisation.ts): the same
// quantisation taken over each item alone, prompts passed one at a time and decode steps batched. Weight-only
// quantisation (MatMulNBits, MatMulBnb4, static QuantizeLinear with stored scales) and float32 keep rows independent:
// the batched engine.
import { ONNX_TYPES, type OnnxGraphInfo } from './onnxGraphReader.ts';

/** `exact`: what the runtime gives one prompt at a time; `batched`: batches and shared prefixes (rows independent). */
export type Numerics = 'exact' | 'batched';
export const NUMERICS: readonly Numerics[] = ['exact', 'batched'];

/** Ops whose activation scale is taken over the whole tensor at run time (ONNX and com.microsoft). */
const PER_TENSOR_DYNAMIC = new Set(['DynamicQuantizeLinear', 'DynamicQuantizeMatMul', 'DynamicQuantizeLSTM', 'QAttention', 'DynamicQuantizeConv']);

interface GraphNumerics {
  numerics: Numerics;
  /** Why rows are not independent (for the exact mode's one line), e.g. `it quantises activations per tensor (DynamicQuantizeLinear, 56 nodes)`. */
  reason?: string;
  /** Why the exact mode cannot batch the graph per item (perItemQuantisation.ts), when its numerics are exact. */
  notPerItem?: string;
}

/** The numerics a graph allows: exact when any op makes a row depend on its batch companions, else batched. */
export function graphNumerics(graph: OnnxGraphInfo): GraphNumerics {
  const dynamic = new Map<string, number>();
  for (const n of graph.nodes) if (PER_TENSOR_DYNAMIC.has(n.opType)) dynamic.set(n.opType, (dynamic.get(n.opType) ?? 0) + 1);
  const half = graph.inputs.some((i) => i.elemType === ONNX_TYPES.float16) || graph.initializers.some((t) => t.dataType === ONNX_TYPES.float16);
  const halfReason = 'it computes in float16, whose rounding depends on the batch shape and the prefix split';
  if (dynamic.size > 0) {
    const ops = [...dynamic].map(([op, count]) => `${op} ×${count}`).join(', ');
    const reason = `its graph quantises activations per tensor (${ops}), so a batch would change each item's numbers`;
    const notPerItem = half ? halfReason : perItemProblem(graph);
    return { numerics: 'exact', reason, ...(notPerItem ? { notPerItem } : {}) };
  }
  if (half) return { numerics: 'exact', reason: halfReason, notPerItem: halfReason };
  return { numerics: 'batched' };
}

/** Why the graph cannot be quantised per item: a dynamic quantiser other than quantize_dynamic's, or its output feeding anything but MatMulInteger. */
function perItemProblem(graph: OnnxGraphInfo): string | undefined {
  const consumers = new Map<string, string[]>();
  for (const n of graph.nodes) for (const i of n.inputs) consumers.set(i, [...(consumers.get(i) ?? []), n.opType]);
  for (const n of graph.nodes) {
    if (!PER_TENSOR_DYNAMIC.has(n.opType)) continue;
    if (n.opType !== 'DynamicQuantizeLinear' && n.opType !== 'DynamicQuantizeMatMul') return `it has ${n.opType}`;
    if (n.opType === 'DynamicQuantizeMatMul') continue;
    // the quantised tensor and its zero point go to integer products; the scale to the Mul that rescales their result
    const other = [n.outputs[0], n.outputs[2]].flatMap((o) => (o ? (consumers.get(o) ?? []) : [])).find((op) => op !== 'MatMulInteger');
    if (other !== undefined) return `a DynamicQuantizeLinear output feeds ${other}`;
  }
  return undefined;
}

/**
 * The numerics a dtype's published file has when its graph cannot be read yet (a Hub model not downloaded):
 * transformers.js's q8, int8 and uint8 files come from quantize_dynamic, fp16 and q4f16 compute in float16.
 */
export function dtypeNumerics(dtype: string): GraphNumerics {
  if (['q8', 'int8', 'uint8'].includes(dtype)) return { numerics: 'exact', reason: `${dtype} weights are published quantised by onnxruntime's quantize_dynamic, which quantises activations per tensor` };
  if (['fp16', 'q4f16'].includes(dtype)) return { numerics: 'exact', reason: `${dtype} weights compute in float16`, notPerItem: `${dtype} weights compute in float16` };
  return { numerics: 'batched' };
}
