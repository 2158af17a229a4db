// Log-probabilities read from a [batch, width, vocab] logits tensor, in float64 (docs/metrics.md#per-answer-score: log-softmax the
// logits at each position and sum the target tokens' values). A token's log-probability is its logit minus the row's
// log-sum-exp, so a row costs one pass for its maximum and one for Σ exp(logit − max), never a log-softmax array.
import type { Tensor } from '@huggingface/transformers';

/** Steps per nat of the exponential table below (its entries are exp(−k / STEPS)). */
const STEPS = 256;
/** exp(−746) is 0 in float64: differences from the maximum beyond this add nothing to the sum. */
const UNDERFLOW = 746;
let table: Float64Array | undefined;

/**
 * exp(−d) for d ≥ 0 in float64, within 1e-15 relative of Math.exp: exp(−k/STEPS) from a table times a 4th-degree
 * Taylor polynomial of exp(b) for the remainder b ∈ (−1/STEPS, 0] (error below b⁵/120 ≈ 7e-15). It does the same work
 * as Math.exp in a fraction of the time (V8 calls out of the loop for Math.exp; this stays inline).
 */
function expNegative(d: number, exps: Float64Array): number {
  if (!(d < UNDERFLOW)) return d === d ? 0 : NaN;
  const k = (d * STEPS) | 0;
  const b = k * (1 / STEPS) - d;
  return exps[k]! * (1 + b * (1 + b * (1 / 2 + b * (1 / 6 + b * (1 / 24)))));
}

function expTable(): Float64Array {
  if (!table) {
    table = new Float64Array(UNDERFLOW * STEPS + 1);
    for (let k = 0; k < table.length; k++) table[k] = Math.exp(-k / STEPS);
  }
  return table;
}

/** log Σ exp(row[j]) in float64, the maximum subtracted first (no overflow for large logits). */
export function logSumExp(row: Float32Array): number {
  let max = -Infinity;
  for (let j = 0; j < row.length; j++) if (row[j]! > max) max = row[j]!;
  // all −Infinity (or empty): no probability anywhere; NaN logits fall through to a NaN sum
  if (max === -Infinity) return -Infinity;
  const exps = expTable();
  let sum = 0;
  for (let j = 0; j < row.length; j++) sum += expNegative(max - row[j]!, exps);
  return max + Math.log(sum);
}

/** log softmax(row)[index] = row[index] − logSumExp(row), float64. */
export function logSoftmaxAt(row: Float32Array, index: number): number {
  return row[index]! - logSumExp(row);
}

/** The logits of row b at `position` (a view, not a copy). */
export function sliceRow(logits: Tensor, b: number, width: number, position: number): Float32Array {
  const vocab = logits.dims[2]!;
  const data = logits.data as Float32Array;
  const start = (b * width + position) * vocab;
  return data.subarray(start, start + vocab);
}

/** Σ log p(tokens[t] | logits of row b at position firstPosition + (t − from)) for t in [from, to), float64. */
export function sumLogprobs(logits: Tensor, b: number, width: number, tokens: number[], firstPosition: number, from: number, to: number): number {
  let total = 0;
  for (let t = from, pos = firstPosition; t < to; t++, pos++) total += logSoftmaxAt(sliceRow(logits, b, width, pos), tokens[t]!);
  return total;
}
