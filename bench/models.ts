// Model-provider benchmarks, called by `npm run bench` (bench/run.ts):
// continuation scoring batched vs one-by-one on a generated ~22M-parameter model, and HTTP concurrency.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeOpenAIServer, toyAnswer } from '../test/support/fakeOpenAIServer.ts';
import { OpenAIProvider } from '../src/models/openai.ts';
import { tinyParameterCount, resolveTinyModelSpec, writeTinyModel, type TinyModelSpec } from '../test/support/tinyModel.ts';
import { TransformersProvider } from '../src/models/transformers.ts';
import type { ContinuationRequest } from '../src/models/types.ts';

/** About 22.5M parameters: 6 layers, hidden 512 (8 heads of 64), MLP 1536, vocabulary 2048. */
export const BENCH_MODEL_SPEC: Partial<TinyModelSpec> = { layers: 6, hidden: 512, intermediate: 1536, vocab: 2048, seed: 2024, maxPositions: 2048 };
/** The same in the default model's (Qwen2.5's) shape: grouped-query attention with 2 key/value heads, q/k/v biases (20.2M). */
export const BENCH_QWEN2_SHAPE_SPEC: Partial<TinyModelSpec> = { ...BENCH_MODEL_SPEC, kvHeads: 2, qkvBias: true };

export interface BatchingBenchResult {
  parameters: number;
  questions: number;
  continuations: number;
  scoredTokens: number;
  oneByOneSeconds: number;
  paddedBatchSeconds: number;
  batchedSeconds: number;
  /** The same requests as concurrent calls of one question each (how the Kalahi suite's tests ask). */
  perPromptCallsSeconds: number;
  perPromptCallsSpeedup: number;
  /** Continuations per second. */
  oneByOneThroughput: number;
  paddedBatchThroughput: number;
  batchedThroughput: number;
  /** batched (padding + shared prompt) over one-by-one; goal ≥ 3. */
  speedup: number;
  /** padded batches without prompt sharing over one-by-one. */
  paddingOnlySpeedup: number;
  /** Largest |logprob difference| between the three runs (should be float32 noise). */
  maxAbsDifference: number;
  /** Forward passes and tokens (real / with padding) each mode ran in its timed run. */
  work: { oneByOne: ModeWork; padded: ModeWork; batched: ModeWork; perPromptCalls: ModeWork };
  /** Tokens one-by-one runs ÷ tokens batched + shared runs: the speed-up if every token cost the same. */
  tokenBound: number;
}

export interface ModeWork {
  forwardCalls: number;
  tokens: number;
  paddedTokens: number;
}

/** What a provider's counters grew by while `work` ran. */
async function counted<T>(provider: TransformersProvider, work: () => Promise<T>): Promise<{ value: T; work: ModeWork }> {
  const before = { ...provider.scoringStats };
  const value = await work();
  const after = provider.scoringStats;
  return {
    value,
    work: {
      forwardCalls: after.forwardCalls - before.forwardCalls,
      tokens: after.tokens - before.tokens,
      paddedTokens: after.paddedTokens - before.paddedTokens,
    },
  };
}

const TOPICS = [
  'Ano ang dapat gawin kapag may lindol habang nasa loob ng bahay?',
  'Which river flows through the capital city, and how long is it?',
  'Qual è il piatto tipico della regione e quando si mangia di solito?',
  'Was passiert, wenn man im Winter ohne Jacke hinausgeht?',
  '¿Por qué las hojas de los árboles cambian de color en otoño?',
  'Bakit mahalaga ang pagboto sa halalan ayon sa mga eksperto?',
  'What is the safest way to store rice for a long time at home?',
  'Comment prépare-t-on une bonne tasse de thé selon la tradition?',
];
const ANSWERS = [
  'Yes.',
  'No, that is a myth.',
  'It depends on the weather and the season.',
  'Lumabas agad ng bahay at tumakbo.',
  'Magtago sa ilalim ng matibay na mesa.',
  'The river is about three hundred kilometres long.',
  'Nobody knows for sure, but most people say so.',
  'Keep it in a dry, sealed container away from sunlight.',
];

/** Kalahi-shaped workload: each question (a chat prompt) is scored with several candidate replies. */
export function batchingWorkload(): ContinuationRequest[] {
  return TOPICS.flatMap((topic, q) =>
    ANSWERS.map((answer) => ({
      messages: [{ role: 'user' as const, content: `Sagutin ang tanong nang maikli at malinaw. Question ${q + 1}: ${topic}` }],
      continuation: answer,
    })),
  );
}

export interface BatchingBenchOptions {
  modelDir?: string;
  threads?: number;
  spec?: Partial<TinyModelSpec>;
  /** Timed rounds; each mode's time is its median over them (the modes alternate within a round). */
  rounds?: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchContinuationBatching(options: BatchingBenchOptions = {}): Promise<BatchingBenchResult> {
  const spec = resolveTinyModelSpec(options.spec ?? BENCH_MODEL_SPEC);
  let tempRoot: string | undefined;
  let dir = options.modelDir;
  if (!dir) {
    tempRoot = mkdtempSync(path.join(tmpdir(), 'lokal-bench-model-'));
    dir = path.join(tempRoot, 'model');
  }
  if (!existsSync(path.join(dir, 'onnx', 'model.onnx'))) writeTinyModel(dir, spec);
  const requests = batchingWorkload();
  const questions = TOPICS.map((_, q) => requests.slice(q * ANSWERS.length, (q + 1) * ANSWERS.length));
  const threads = options.threads;
  const oneByOne = new TransformersProvider(dir, { env: {}, batchSize: 1, sharePrefix: false, threads });
  const padded = new TransformersProvider(dir, { env: {}, batchSize: 8, sharePrefix: false, threads });
  const batched = new TransformersProvider(dir, { env: {}, batchSize: 8, sharePrefix: true, threads });
  const perPrompt = new TransformersProvider(dir, { env: {}, batchSize: 8, sharePrefix: true, threads });
  const modes = {
    oneByOne: async () => {
      const out = [];
      for (const r of requests) out.push(...(await oneByOne.scoreContinuations([r])));
      return out;
    },
    padded: () => padded.scoreContinuations(requests),
    batched: () => batched.scoreContinuations(requests),
    // As the Kalahi suite asks: one call per question, made concurrently by its tests (the provider joins them).
    perPrompt: async () => (await Promise.all(questions.map((reqs) => perPrompt.scoreContinuations(reqs)))).flat(),
  };
  const providers = { oneByOne, padded, batched, perPrompt };
  type Mode = keyof typeof modes;
  try {
    await Promise.all(Object.values(providers).map((p) => p.load()));
    // warm-up (first session runs allocate)
    for (const p of Object.values(providers)) await p.scoreContinuations(requests.slice(0, 2));

    const seconds: Record<Mode, number[]> = { oneByOne: [], padded: [], batched: [], perPrompt: [] };
    const work = {} as Record<Mode, ModeWork>;
    const results = {} as Record<Mode, Array<{ logprob: number; tokenCount: number }>>;
    for (let round = 0; round < (options.rounds ?? 5); round++) {
      for (const mode of Object.keys(modes) as Mode[]) {
        const t = performance.now();
        const { value, work: w } = await counted(providers[mode], modes[mode]);
        seconds[mode].push((performance.now() - t) / 1000);
        work[mode] = w;
        results[mode] = value;
      }
    }

    let maxAbsDifference = 0;
    const single = results.oneByOne;
    for (let i = 0; i < requests.length; i++) {
      for (const mode of ['padded', 'batched', 'perPrompt'] as const) maxAbsDifference = Math.max(maxAbsDifference, Math.abs(single[i]!.logprob - results[mode][i]!.logprob));
    }
    const [oneByOneSeconds, paddedBatchSeconds, batchedSeconds, perPromptCallsSeconds] = (['oneByOne', 'padded', 'batched', 'perPrompt'] as const).map((m) => median(seconds[m])) as [number, number, number, number];
    const n = requests.length;
    return {
      parameters: tinyParameterCount(spec),
      questions: TOPICS.length,
      continuations: n,
      scoredTokens: results.batched.reduce((s, r) => s + r.tokenCount, 0),
      oneByOneSeconds,
      paddedBatchSeconds,
      batchedSeconds,
      perPromptCallsSeconds,
      oneByOneThroughput: n / oneByOneSeconds,
      paddedBatchThroughput: n / paddedBatchSeconds,
      batchedThroughput: n / batchedSeconds,
      speedup: oneByOneSeconds / batchedSeconds,
      perPromptCallsSpeedup: oneByOneSeconds / perPromptCallsSeconds,
      paddingOnlySpeedup: oneByOneSeconds / paddedBatchSeconds,
      maxAbsDifference,
      work: { oneByOne: work.oneByOne, padded: work.padded, batched: work.batched, perPromptCalls: work.perPrompt },
      tokenBound: work.oneByOne.tokens / work.batched.tokens,
    };
  } finally {
    await Promise.all(Object.values(providers).map((p) => p.close()));
    if (tempRoot) rmSync(tempRoot, { recursive: true, force: true });
  }
}

export interface HttpBenchResult {
  requests: number;
  latencyMs: number;
  concurrency: number;
  wallSeconds: number;
  idealSeconds: number;
  /** wall / ideal; goal ≤ 1.3. */
  ratio: number;
  maxInFlight: number;
}

export async function benchHttpConcurrency(options: { requests?: number; latencyMs?: number; concurrency?: number } = {}): Promise<HttpBenchResult> {
  const requests = options.requests ?? 1000;
  const latencyMs = options.latencyMs ?? 100;
  const concurrency = options.concurrency ?? 32;
  const server = await startFakeOpenAIServer({ latencyMs, apiKey: 'bench-key' });
  try {
    const provider = new OpenAIProvider('toy-model', { baseUrl: server.url, apiKey: 'bench-key', concurrency, env: {} });
    const prompts = Array.from({ length: requests }, (_, i) => `bench prompt ${i}`);
    const started = performance.now();
    const results = await provider.generate(prompts.map((prompt) => ({ prompt, maxNewTokens: 16 })));
    const wallSeconds = (performance.now() - started) / 1000;
    results.forEach((r, i) => {
      if (r.text !== [...toyAnswer(prompts[i]!)].slice(0, 16).join('')) throw new Error(`bench: wrong answer for request ${i}`);
    });
    const idealSeconds = (requests * latencyMs) / 1000 / concurrency;
    return { requests, latencyMs, concurrency, wallSeconds, idealSeconds, ratio: wallSeconds / idealSeconds, maxInFlight: server.stats.maxInFlight };
  } finally {
    await server.close();
  }
}
