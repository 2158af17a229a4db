// Log-probabilities read from a [batch, width, vocab] logits tensor, in float64 (METRICS.md §10.2: log-softmax the
// logits at each position and sum the target tokens' values).
import type { Tensor } from '@huggingface/transformers';

/** log softmax(row)[index], computed in float64 with the maximum subtracted first. */
export function logSoftmaxAt(row: Float32Array, index: number): number {
  let max = -Infinity;
  for (let j = 0; j < row.length; j++) if (row[j]! > max) max = row[j]!;
  let sum = 0;
  for (let j = 0; j < row.length; j++) sum += Math.exp(row[j]! - max);
  return row[index]! - max - Math.log(sum);
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
