// The greedy next token as an output of its own. A decode step of 8 rows of Qwen2.5 returns 8 × 151,936 logits, and
// onnxruntime-node 1.30 copies every output it returns into a fresh buffer (microsoft/onnxruntime#32346): 4.9 MB a
// step for the garbage collector, then a scan of each row for its argmax. When every row of a step is greedy without
// logits processors, the engine only needs each row's argmax, so the saved optimised graph also outputs
// ArgMax(logits) over the vocabulary (keepdims 0, select_last_index 0: the first index on ties, as
// batchedGeneration.ts's argmax and transformers.js's greedy search take). Float32 logits of rank 3 only; any other
// graph comes back as the same bytes. The graph is read and written as graphEdit.ts does.
import { intAttr, newNode, outputElementType, outputInfo, outputRank, readGraph, withGraphAdditions } from './graphEdit.ts';
import { ENGINE_OUTPUT_PREFIX } from './newKeyValues.ts';
import { ONNX_TYPES } from './onnxGraphReader.ts';

/** Output holding each row's greedy next token, int64 [rows, positions]. */
export const NEXT_TOKEN_OUTPUT = `${ENGINE_OUTPUT_PREFIX}next_token`;

/** The graph with NEXT_TOKEN_OUTPUT = ArgMax(logits) over the last axis, or the same bytes. */
export function exposeNextToken(model: Uint8Array): { bytes: Uint8Array; output?: string } {
  const unchanged = { bytes: model };
  const read = readGraph(model);
  const logits = read?.outputs.find((f) => read.valueInfoName(f) === 'logits');
  if (!read || !logits || outputElementType(model, logits) !== ONNX_TYPES.float || outputRank(model, logits) !== 3) return unchanged;
  const producer = read.producer.get('logits');
  const name = NEXT_TOKEN_OUTPUT;
  if (!producer || read.taken.has(name) || read.taken.has(`${name}.argmax`)) return unchanged;
  const node = newNode('ArgMax', ['logits'], name, `${name}.argmax`, [intAttr('axis', 2), intAttr('keepdims', 0)]);
  return { bytes: withGraphAdditions(model, read, new Map([[producer.field, node]]), outputInfo(name, ONNX_TYPES.int64)), output: name };
}
