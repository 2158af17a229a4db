// Output buffers of decode steps, kept from step to step: each step's key/value cache (rewritten whole, one position
// longer) goes into them instead of into new arrays. From a saved optimised graph the engine appends the step's new
// positions to the previous cache there itself (newKeyValues.ts); from other graphs onnxruntime writes its logits and
// present caches into them (onnxruntime-node's preallocated fetches), and onnxruntime-node 1.30 still returns a copy
// of each, which the engine drops (docs/performance-models.md).

/**
 * Two buffers per cache output, used by alternate steps (a step reads the previous step's present as its past, so it
 * may not write there), and one for the logits, each grown with headroom so a growing cache reallocates rarely.
 */
export class StepBuffers {
  private readonly pairs = new Map<string, [Float32Array, Float32Array]>();
  private parity = 0;
  private logitsBuffer = new Float32Array(0);

  /**
   * `size` floats for cache output `name` of the coming step: never the buffer the previous step wrote (the coming
   * step's past), so it may hold only data two steps old, which no live row reads any more.
   */
  cache(name: string, size: number): Float32Array {
    let pair = this.pairs.get(name);
    if (!pair) this.pairs.set(name, (pair = [new Float32Array(0), new Float32Array(0)]));
    if (pair[this.parity]!.length < size) pair[this.parity] = new Float32Array(grown(size));
    return pair[this.parity]!.subarray(0, size);
  }

  /** `size` floats for the coming step's logits (read before the next step runs). */
  logits(size: number): Float32Array {
    if (this.logitsBuffer.length < size) this.logitsBuffer = new Float32Array(size);
    return this.logitsBuffer.subarray(0, size);
  }

  /** After a step ran: the next one writes the other buffer of each pair. */
  flip(): void {
    this.parity = 1 - this.parity;
  }
}

/** Capacity for `size` floats: an eighth more, so a cache growing one position a step reallocates every few dozen steps. */
function grown(size: number): number {
  return size + Math.ceil(size / 8);
}
