// Model-provider benchmarks, called by `npm run bench` (bench/run.ts):
// continuation scoring batched vs one-by-one on a generated ~22M-parameter model, and HTTP concurrency.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeOpenAIServer, toyAnswer } from '../src/models/fakeOpenAIServer.ts';
import { OpenAIProvider } from '../src/models/openai.ts';
import { tinyParameterCount, resolveTinyModelSpec, writeTinyModel, type TinyModelSpec } from '../src/models/tinyModel.ts';
import { TransformersProvider } from '../src/models/transformers.ts';
import type { ContinuationRequest } from '../src/models/types.ts';

/** About 22.5M parameters: 6 layers, hidden 512 (8 heads of 64), MLP 1536, vocabulary 2048. */
export const BENCH_MODEL_SPEC: Partial<TinyModelSpec> = { layers: 6, hidden: 512, intermediate: 1536, vocab: 2048, seed: 2024, maxPositions: 2048 };

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

export async function benchContinuationBatching(options: { modelDir?: string; threads?: number } = {}): Promise<BatchingBenchResult> {
  const spec = resolveTinyModelSpec(BENCH_MODEL_SPEC);
  let tempRoot: string | undefined;
  let dir = options.modelDir;
  if (!dir) {
    tempRoot = mkdtempSync(path.join(tmpdir(), 'lokal-bench-model-'));
    dir = path.join(tempRoot, 'model');
  }
  if (!existsSync(path.join(dir, 'onnx', 'model.onnx'))) writeTinyModel(dir, spec);
  const requests = batchingWorkload();
  const threads = options.threads;
  const oneByOne = new TransformersProvider(dir, { env: {}, batchSize: 1, sharePrefix: false, threads });
  const padded = new TransformersProvider(dir, { env: {}, batchSize: 8, sharePrefix: false, threads });
  const batched = new TransformersProvider(dir, { env: {}, batchSize: 8, sharePrefix: true, threads });
  const perPrompt = new TransformersProvider(dir, { env: {}, batchSize: 8, sharePrefix: true, threads });
  try {
    await Promise.all([oneByOne.load(), padded.load(), batched.load(), perPrompt.load()]);
    // warm-up (first session runs allocate)
    await oneByOne.scoreContinuations(requests.slice(0, 1));
    await padded.scoreContinuations(requests.slice(0, 2));
    await batched.scoreContinuations(requests.slice(0, 2));

    let t = performance.now();
    const { value: single, work: oneByOneWork } = await counted(oneByOne, async () => {
      const out = [];
      for (const r of requests) out.push(...(await oneByOne.scoreContinuations([r])));
      return out;
    });
    const oneByOneSeconds = (performance.now() - t) / 1000;

    t = performance.now();
    const { value: pad, work: paddedWork } = await counted(padded, () => padded.scoreContinuations(requests));
    const paddedBatchSeconds = (performance.now() - t) / 1000;

    t = performance.now();
    const { value: all, work: batchedWork } = await counted(batched, () => batched.scoreContinuations(requests));
    const batchedSeconds = (performance.now() - t) / 1000;

    // As the Kalahi suite asks: one call per question, made concurrently by its tests (the provider joins them).
    await perPrompt.scoreContinuations(requests.slice(0, 2));
    const questions = TOPICS.map((_, q) => requests.slice(q * ANSWERS.length, (q + 1) * ANSWERS.length));
    t = performance.now();
    const { value: joined, work: perPromptWork } = await counted(perPrompt, async () => (await Promise.all(questions.map((reqs) => perPrompt.scoreContinuations(reqs)))).flat());
    const perPromptCallsSeconds = (performance.now() - t) / 1000;

    let maxAbsDifference = 0;
    for (let i = 0; i < requests.length; i++) {
      maxAbsDifference = Math.max(maxAbsDifference, Math.abs(single[i]!.logprob - all[i]!.logprob), Math.abs(single[i]!.logprob - pad[i]!.logprob), Math.abs(single[i]!.logprob - joined[i]!.logprob));
    }
    const n = requests.length;
    return {
      parameters: tinyParameterCount(spec),
      questions: TOPICS.length,
      continuations: n,
      scoredTokens: all.reduce((s, r) => s + r.tokenCount, 0),
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
      work: { oneByOne: oneByOneWork, padded: paddedWork, batched: batchedWork, perPromptCalls: perPromptWork },
      tokenBound: oneByOneWork.tokens / batchedWork.tokens,
    };
  } finally {
    await Promise.all([oneByOne.close(), padded.close(), batched.close(), perPrompt.close()]);
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
