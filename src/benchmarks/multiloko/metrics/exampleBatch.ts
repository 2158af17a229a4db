// The examples of a score in flat arrays, scored chunk by chunk by whichever thread claims a chunk first: the same
// scoreExample on the main thread and on worker threads, so the scores cannot differ by where they were computed.
import { scoreExample } from '../../../metrics/scoreExample.ts';
import type { ExampleScores } from '../../../metrics/metricNames.ts';

/** ExampleScores' fields in the order a scored example's row of numbers holds them. */
export const SCORE_FIELDS = ['em', 'f1', 'bleu', 'chrf', 'edit_distance', 'edit_similarity', 'edit_distance_first'] as const satisfies ReadonlyArray<keyof ExampleScores>;
const WIDTH = SCORE_FIELDS.length;

/** The raw texts of every example: example e's prediction is texts[starts[e]], its targets follow up to starts[e + 1]. */
export interface ExampleBatch {
  texts: string[];
  starts: Int32Array;
}

/** What scoring a batch gives, indexed like the batch: normalised texts in the layout of `texts`, WIDTH numbers per example. */
export interface ScoredBatch {
  texts: string[];
  scores: Float64Array;
  truncated: Uint8Array;
}

/** An error met scoring one example: its name and message, which cross a thread boundary as they are. */
export interface ExampleFailure {
  example: number;
  name: string;
  message: string;
}

export const exampleCount = (batch: ExampleBatch): number => batch.starts.length - 1;

export function emptyScoredBatch(batch: ExampleBatch): ScoredBatch {
  const n = exampleCount(batch);
  return { texts: new Array<string>(batch.texts.length), scores: new Float64Array(n * WIDTH), truncated: new Uint8Array(n) };
}

/** Scores examples [from, to) of `batch` into `out`; stops at the first failing example and returns it. */
export function scoreExampleRange(batch: ExampleBatch, from: number, to: number, out: ScoredBatch): ExampleFailure | undefined {
  const { texts, starts } = batch;
  for (let e = from; e < to; e++) {
    const first = starts[e]!;
    const end = starts[e + 1]!;
    const targets: string[] = [];
    for (let t = first + 1; t < end; t++) targets.push(texts[t]!);
    let scored: ReturnType<typeof scoreExample>;
    try {
      scored = scoreExample(texts[first]!, targets);
    } catch (error) {
      const { name, message } = error instanceof Error ? error : new Error(String(error));
      return { example: e, name, message };
    }
    out.texts[first] = scored.prediction;
    for (let t = 0; t < scored.targets.length; t++) out.texts[first + 1 + t] = scored.targets[t]!;
    const row = e * WIDTH;
    for (let f = 0; f < WIDTH; f++) out.scores[row + f] = scored.scores[SCORE_FIELDS[f]!];
    if (scored.truncated) out.truncated[e] = 1;
  }
  return undefined;
}

/** Example e's scores from a scored batch, as scoreExample returned them. */
export function scoresOf(scored: ScoredBatch, e: number): ExampleScores {
  const s = scored.scores;
  const row = e * WIDTH;
  return {
    em: s[row]!,
    f1: s[row + 1]!,
    bleu: s[row + 2]!,
    chrf: s[row + 3]!,
    edit_distance: s[row + 4]!,
    edit_similarity: s[row + 5]!,
    edit_distance_first: s[row + 6]!,
  };
}

/** Chunk c's examples: [c * chunkSize, min(n, (c + 1) * chunkSize)). */
const chunkRange = (batch: ExampleBatch, chunk: number, chunkSize: number): [number, number] => [chunk * chunkSize, Math.min(exampleCount(batch), (chunk + 1) * chunkSize)];

/**
 * Claims chunks of `chunkSize` examples from the shared counter (the next chunk's number) until none is left, scoring
 * each into `out`; returns the claimed chunks and the first failure met (after which this thread claims no more and
 * tells the others to stop: every chunk before the failing one was already claimed, so the earliest failure is seen).
 */
export function scoreClaimedChunks(batch: ExampleBatch, counter: Int32Array, chunkSize: number, out: ScoredBatch): { chunks: number[]; failure?: ExampleFailure } {
  const n = exampleCount(batch);
  const total = Math.ceil(n / chunkSize);
  const chunks: number[] = [];
  for (;;) {
    const chunk = Atomics.add(counter, 0, 1);
    if (chunk >= total) return { chunks };
    chunks.push(chunk);
    const [from, to] = chunkRange(batch, chunk, chunkSize);
    const failure = scoreExampleRange(batch, from, to, out);
    if (failure) {
      Atomics.store(counter, 0, total);
      return { chunks, failure };
    }
  }
}

/** The scored chunks of one thread, packed to cross to the main thread: their texts, and their scores in one buffer. */
export interface PackedChunks {
  chunks: number[];
  texts: string[];
  scores: Float64Array<ArrayBuffer>;
  truncated: Uint8Array<ArrayBuffer>;
}

/** A thread's chunks of `scored` copied out in claim order, for postMessage (the number buffers are transferred). */
export function packChunks(batch: ExampleBatch, chunks: number[], chunkSize: number, scored: ScoredBatch): PackedChunks {
  let examples = 0;
  for (const c of chunks) {
    const [from, to] = chunkRange(batch, c, chunkSize);
    examples += to - from;
  }
  const packed: PackedChunks = { chunks, texts: [], scores: new Float64Array(examples * WIDTH), truncated: new Uint8Array(examples) };
  let at = 0;
  for (const c of chunks) {
    const [from, to] = chunkRange(batch, c, chunkSize);
    for (let t = batch.starts[from]!; t < batch.starts[to]!; t++) packed.texts.push(scored.texts[t]!);
    packed.scores.set(scored.scores.subarray(from * WIDTH, to * WIDTH), at * WIDTH);
    packed.truncated.set(scored.truncated.subarray(from, to), at);
    at += to - from;
  }
  return packed;
}

/** Copies another thread's packed chunks into `scored`, where they belong. */
export function unpackChunks(batch: ExampleBatch, packed: PackedChunks, chunkSize: number, scored: ScoredBatch): void {
  let at = 0;
  let text = 0;
  for (const c of packed.chunks) {
    const [from, to] = chunkRange(batch, c, chunkSize);
    for (let t = batch.starts[from]!; t < batch.starts[to]!; t++) scored.texts[t] = packed.texts[text++]!;
    scored.scores.set(packed.scores.subarray(at * WIDTH, (at + to - from) * WIDTH), from * WIDTH);
    scored.truncated.set(packed.truncated.subarray(at, at + to - from), from);
    at += to - from;
  }
}
