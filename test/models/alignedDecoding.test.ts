// The batched engine's per-item options (src/models/batchedGeneration.ts), on a stand-in session that records what it
// is asked: with promptAlone each prompt passes alone and whole (no padding beside others, no chunks, no stored
// prefix), and with decodeAlignment every decode step holds only rows whose left padding is a multiple of it (their
// lengths congruent), while rows of other lengths still join at the steps where they agree.
import { describe, expect, test } from 'vitest';
import { BatchedGeneration, type GenerationJob } from '../../src/models/batchedGeneration.ts';

const HEADS = 1;
const DIM = 2;
const VOCAB = 5;

interface Tensor {
  type: string;
  data: Float32Array | BigInt64Array;
  dims: number[];
}

/** A decoder whose next token is always 1; it records each run's rows: width, and each row's unmasked length. */
function standIn() {
  const runs: Array<{ rows: number; width: number; padding: number[] }> = [];
  const session = {
    async run(feeds: Record<string, Tensor>) {
      const [rows, width] = feeds.input_ids!.dims as [number, number];
      const mask = feeds.attention_mask!.data as BigInt64Array;
      const total = mask.length / rows;
      // a row's left padding: masked positions before its first unmasked one
      runs.push({ rows, width, padding: Array.from({ length: rows }, (_, r) => mask.subarray(r * total, (r + 1) * total).indexOf(1n)) });
      // logits at the positions the engine names (one per row), else at every position
      const positions = feeds.select ? 1 : width;
      const logits = new Float32Array(rows * positions * VOCAB);
      for (let i = 0; i < rows * positions; i++) logits[i * VOCAB + 1] = 1;
      const present = (): Tensor => ({ type: 'float32', data: new Float32Array(rows * HEADS * total * DIM), dims: [rows, HEADS, total, DIM] });
      return { logits: { type: 'float32', data: logits, dims: [rows, positions, VOCAB] }, 'present.0.key': present(), 'present.0.value': present() };
    },
  };
  const engine = (options: { batchSize: number; promptAlone?: boolean; decodeAlignment?: number; prefixCacheTokens?: number }) =>
    new BatchedGeneration(
      {
        session,
        past: ['key', 'value'].map((kv) => ({ name: `past_key_values.0.${kv}`, present: `present.0.${kv}`, type: 'float32' as const, heads: HEADS, dim: DIM })),
        padId: 0,
        vocab: VOCAB,
        logitPositions: 'select',
        input: (type, data, dims) => ({ type, data, dims }),
        float32: (t) => t.data as Float32Array,
        text: (ids) => ids.join(' '),
      },
      // a pass of rows' last logits may take 4 positions (maxPassTokens, and the logits cap: 20 ÷ 5): a longer prompt is cut
      { maxBatchTokens: 1 << 20, maxBatchLogits: 4 * VOCAB, maxPassTokens: 4, prefixCacheTokens: 0, ...options },
      (run) => void run(),
    );
  return { runs, engine };
}

/** Requests of the given prompt lengths, each generating `tokens` tokens; resolves with what each generated. */
function submitAll(engine: BatchedGeneration, lengths: number[], tokens: number): Promise<number[][]> {
  return Promise.all(
    lengths.map(
      (n, i) =>
        new Promise<number[]>((resolve, reject) => {
          const job: GenerationJob = {
            ids: Array.from({ length: n }, (_, j) => 2 + ((i + j) % 3)),
            done: (_all, generated) => generated.length >= tokens,
            resolve: (generated) => resolve(generated),
            reject,
          };
          engine.submit(job);
        }),
    ),
  );
}

describe('per-item decoding', () => {
  test('each prompt passes alone and whole, longer than maxPassTokens too; decode steps pad rows by multiples of 4', async () => {
    const { runs, engine } = standIn();
    const lengths = [5, 6, 7, 8, 9, 10, 13, 17, 21, 3];
    const out = await submitAll(engine({ batchSize: 8, promptAlone: true, decodeAlignment: 4 }), lengths, 6);
    expect(out).toEqual(lengths.map(() => [1, 1, 1, 1, 1, 1]));
    const prompts = runs.filter((r) => r.width > 1);
    expect(prompts.map((r) => [r.rows, r.width]).sort((a, b) => a[1]! - b[1]!)).toEqual([...lengths].sort((a, b) => a - b).map((n) => [1, n]));
    const steps = runs.filter((r) => r.width === 1);
    for (const step of steps) for (const pad of step.padding) expect(pad % 4, JSON.stringify(step)).toBe(0);
    // rows of every length class got decoded, several at once
    expect(Math.max(...steps.map((s) => s.rows))).toBeGreaterThan(1);
  });

  test('without them the same requests share decode steps at any padding, and a long prompt is cut into passes', async () => {
    const { runs, engine } = standIn();
    const lengths = [5, 6, 7, 8, 9, 10, 13, 17, 21, 3];
    await submitAll(engine({ batchSize: 8 }), lengths, 6);
    expect(runs.filter((r) => r.width === 1).some((s) => s.padding.some((pad) => pad % 4 !== 0))).toBe(true);
    const prompts = runs.filter((r) => r.width > 1);
    // a prompt longer than a pass may be is cut into passes of at most 4 positions
    expect(Math.max(...prompts.map((r) => r.width))).toBeLessThanOrEqual(4);
  });
});
