// Key/value caches of prompts run once and continued by several continuations: cut one row out of a batch's cache,
// and gather several prompts' caches into one batch (left-padded with zeros, masked by the caller).
import { Tensor } from '@huggingface/transformers';

/** A prompt run once: its length, the logits at its last position and its key/value cache ([1, heads, length, dim]). */
export interface PromptState {
  length: number;
  last: Float32Array;
  cache: Record<string, Tensor>;
}

/** Key/value caches of a batch's prompts, each right-aligned in `width` positions (see gatherPast). */
export interface GatheredPast {
  width: number;
  lengths: number[];
  cache: Record<string, Tensor>;
}

/** Number of leading tokens all sequences share. */
export function commonPrefixLength(sequences: number[][]): number {
  const first = sequences[0] ?? [];
  let n = 0;
  while (n < first.length && sequences.every((s) => s[n] === first[n])) n++;
  return n;
}

/** Row r of a [batch, heads, length, dim] key/value cache, cut to its first `length` positions. */
export function cacheRow(present: Record<string, Tensor>, r: number, length: number): Record<string, Tensor> {
  const out: Record<string, Tensor> = {};
  for (const [name, t] of Object.entries(present)) {
    const [, heads, total, dim] = t.dims as [number, number, number, number];
    const data = t.data as Float32Array;
    const row = new (data.constructor as Float32ArrayConstructor)(heads * length * dim);
    for (let h = 0; h < heads; h++) {
      const from = ((r * heads + h) * total) * dim;
      row.set(data.subarray(from, from + length * dim), h * length * dim);
    }
    out[name] = new Tensor(t.type as 'float32', row, [1, heads, length, dim]);
  }
  return out;
}

/** Caches of several prompts as one batch: row r right-aligned in [rows, heads, longest prompt, dim], zeros before. */
export function gatherPast(states: PromptState[]): GatheredPast {
  const width = Math.max(...states.map((s) => s.length));
  const cache: Record<string, Tensor> = {};
  for (const name of Object.keys(states[0]!.cache)) {
    const first = states[0]!.cache[name]!;
    const [, heads, , dim] = first.dims as [number, number, number, number];
    // zeros, not garbage, in the masked slots: a masked weight of 0 times NaN would still be NaN
    const data = new ((first.data as Float32Array).constructor as Float32ArrayConstructor)(states.length * heads * width * dim);
    states.forEach((s, r) => {
      const row = s.cache[name]!.data as Float32Array;
      for (let h = 0; h < heads; h++) {
        data.set(row.subarray(h * s.length * dim, (h + 1) * s.length * dim), ((r * heads + h) * width + width - s.length) * dim);
      }
    });
    cache[name] = new Tensor(first.type as 'float32', data, [states.length, heads, width, dim]);
  }
  return { width, lengths: states.map((s) => s.length), cache };
}

/** A tensor as onnxruntime returns it or takes it: typed data in row-major order with its dims. */
export interface TensorLike {
  type: string;
  data: Float32Array | Uint16Array;
  dims: readonly number[];
}

/**
 * Where one sequence's key/value cache lies: positions [start, start + length) of row `row` in every tensor of `cache`
 * ([batch, heads, width, dim] each). A prefill's output, a decode step's output or a stored prefix are all views.
 */
export interface KvView {
  cache: Record<string, TensorLike>;
  row: number;
  start: number;
  length: number;
}

/** Layout of one cache tensor: element type, heads and head dimension. */
export interface KvLayout {
  name: string;
  type: 'float32' | 'float16';
  heads: number;
  dim: number;
}

/**
 * The first `lengths[r]` positions of each view (default: all of it) as one batch, right-aligned in `width` positions
 * (default: the longest) with zeros before: [views, heads, width, dim] per cache name.
 */
export function gatherViews(
  views: KvView[],
  layouts: KvLayout[],
  lengths: number[] = views.map((v) => v.length),
  width = Math.max(0, ...lengths),
): { width: number; lengths: number[]; cache: Record<string, { type: string; data: Float32Array | Uint16Array; dims: number[] }> } {
  const cache: Record<string, { type: string; data: Float32Array | Uint16Array; dims: number[] }> = {};
  for (const { name, type, heads, dim } of layouts) {
    // zeros, not garbage, in the masked slots: a masked weight of 0 times NaN would still be NaN
    const data = type === 'float32' ? new Float32Array(views.length * heads * width * dim) : new Uint16Array(views.length * heads * width * dim);
    views.forEach((view, r) => {
      const n = lengths[r]!;
      if (n > view.length) throw new Error(`key/value view of ${view.length} positions asked for ${n}`);
      if (n === 0) return;
      const source = view.cache[name]!;
      const [, sourceHeads, total] = source.dims as [number, number, number, number];
      for (let h = 0; h < heads; h++) {
        const from = ((view.row * sourceHeads + h) * total + view.start) * dim;
        data.set(source.data.subarray(from, from + n * dim), ((r * heads + h) * width + width - n) * dim);
      }
    });
    cache[name] = { type, data, dims: [views.length, heads, width, dim] };
  }
  return { width, lengths, cache };
}

/**
 * Each of `blocks` blocks (a row's head) of `past` ([blocks, width, dim]) followed by its `added` positions of `fresh`
 * ([blocks, added, dim]), written into `into` ([blocks, width + added, dim]): what a decoder's Concat of its past and
 * new keys or values on the sequence axis gives.
 */
export function appendPositions(past: Float32Array, fresh: Float32Array, into: Float32Array, blocks: number, width: number, added: number, dim: number): void {
  const oldSize = width * dim;
  const newSize = added * dim;
  for (let k = 0; k < blocks; k++) {
    const at = k * (oldSize + newSize);
    if (oldSize > 0) into.set(past.subarray(k * oldSize, (k + 1) * oldSize), at);
    into.set(fresh.subarray(k * newSize, (k + 1) * newSize), at + oldSize);
  }
}
