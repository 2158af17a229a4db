// How sequences are cut into forward passes: similar lengths together, so little compute goes into padding.

/** Fixed cost of one forward pass, in padded token positions (measured on CPU: a few ms ≈ 16 tokens' work). */
export const CALL_OVERHEAD_TOKENS = 16;

interface LengthBatchOptions {
  batchSize: number;
  /** Upper bound on rows × longest × vocab (the logits a pass returns). */
  maxBatchLogits: number;
  vocab: number;
  /** A pass returns one row of logits per sequence (its last position), not one per position. */
  lastLogitsOnly?: boolean;
  /** Upper bound on rows × longest (the positions a pass computes), if any. */
  maxBatchTokens?: number;
  callOverheadTokens?: number;
}

/**
 * Splits items into batches of similar length: sorted by length (stable, so equal lengths keep the caller's order),
 * then cut where padding would cost more than another forward pass (dynamic programming over
 * Σ rows × longest + per-call overhead), within batchSize and the logits budget.
 */
export function lengthBatches<T>(items: T[], length: (t: T) => number, options: LengthBatchOptions): T[][] {
  const overhead = options.callOverheadTokens ?? CALL_OVERHEAD_TOKENS;
  const sorted = [...items].sort((a, b) => length(a) - length(b));
  const n = sorted.length;
  const cost = new Array<number>(n + 1).fill(Infinity);
  const cut = new Array<number>(n + 1).fill(0);
  cost[0] = 0;
  for (let i = 1; i <= n; i++) {
    const longest = length(sorted[i - 1]!);
    for (let j = i - 1; j >= 0 && i - j <= options.batchSize; j--) {
      const rows = i - j;
      if (rows > 1 && (options.lastLogitsOnly ? rows : rows * longest) * options.vocab > options.maxBatchLogits) break;
      if (rows > 1 && options.maxBatchTokens !== undefined && rows * longest > options.maxBatchTokens) break;
      const total = cost[j]! + rows * longest + overhead;
      if (total < cost[i]!) {
        cost[i] = total;
        cut[i] = j;
      }
    }
  }
  const out: T[][] = [];
  for (let i = n; i > 0; i = cut[i]!) out.unshift(sorted.slice(cut[i]!, i));
  return out;
}
