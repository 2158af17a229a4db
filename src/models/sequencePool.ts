// The sequences of one llama.cpp context, lent to one request at a time. Each sequence keeps the tokens it last
// evaluated (its key/value cache), so a request is given the free sequence sharing the longest token prefix with its
// prompt, and a sequence coming free goes to the waiting request that shares the most with it: few-shot
// demonstrations and chat headers are evaluated once per sequence, not once per item.

/** The part of node-llama-cpp's LlamaContextSequence the pool needs. */
export interface PooledSequence {
  readonly nextTokenIndex: number;
  compareContextTokens(tokens: number[]): { firstDifferentIndex: number };
  eraseContextTokenRanges(ranges: Array<{ start: number; end: number }>): Promise<void>;
}

interface Waiter<S> {
  ids: number[];
  resolve(sequence: S): void;
}

export class SequencePool<S extends PooledSequence> {
  private readonly free: S[];
  private readonly waiting: Array<Waiter<S>> = [];

  constructor(sequences: readonly S[]) {
    this.free = [...sequences];
  }

  /** Tokens of `ids` a sequence already holds. */
  static shared(sequence: PooledSequence, ids: number[]): number {
    return Math.min(sequence.compareContextTokens(ids).firstDifferentIndex, sequence.nextTokenIndex);
  }

  /** A sequence for a request whose prompt is `ids`: the free one sharing the longest prefix, else the next freed. */
  acquire(ids: number[]): Promise<S> {
    if (this.free.length === 0) return new Promise((resolve) => this.waiting.push({ ids, resolve }));
    let best = 0;
    for (let i = 1; i < this.free.length; i++) if (SequencePool.shared(this.free[i]!, ids) > SequencePool.shared(this.free[best]!, ids)) best = i;
    return Promise.resolve(this.free.splice(best, 1)[0]!);
  }

  /** Returns a sequence: the waiting request sharing the longest prefix with it takes it (the earliest on ties). */
  release(sequence: S): void {
    if (this.waiting.length === 0) {
      this.free.push(sequence);
      return;
    }
    let best = 0;
    for (let i = 1; i < this.waiting.length; i++) if (SequencePool.shared(sequence, this.waiting[i]!.ids) > SequencePool.shared(sequence, this.waiting[best]!.ids)) best = i;
    this.waiting.splice(best, 1)[0]!.resolve(sequence);
  }

  /**
   * Keeps the longest prefix of `ids` the sequence holds, at most `keep` tokens (the position whose logits are
   * needed must be evaluated again), and erases the rest; returns how many tokens were kept.
   */
  static async reuse(sequence: PooledSequence, ids: number[], keep: number): Promise<number> {
    const kept = Math.max(0, Math.min(SequencePool.shared(sequence, ids), keep));
    if (kept < sequence.nextTokenIndex) await sequence.eraseContextTokenRanges([{ start: kept, end: sequence.nextTokenIndex }]);
    return kept;
  }
}
