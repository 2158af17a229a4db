// One side of `npm run bench -- generation` in a process of its own, so its load time and peak RSS are its own (the
// 494M model's fp32 ONNX session and a memory-mapped GGUF would otherwise share one process's high-water mark).
// Usage: tsx bench/generationRun.ts <job.json> <result.json>; job and result are GenerationRunJob / GenerationRunResult.
import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Token } from 'node-llama-cpp';
import { LlamaProvider } from '../src/models/llama.ts';
import { cutAtStop } from '../src/models/providerText.ts';
import { TransformersProvider } from '../src/models/transformers.ts';
import { peakRssMiB } from './peakRss.mjs';
import type { GenerateRequest, GenerateResult } from '../src/models/types.ts';
import type { ModelDtype } from '../src/models/dtypeFiles.ts';
import type { Numerics } from '../src/models/graphNumerics.ts';

/**
 * Which engine, and how: one request at a time, concurrent calls batched (with prefix reuse where the way has it), or
 * node-llama-cpp's own API. transformers: `dtype` picks the ONNX file (default: the folder's first, fp32) and
 * `numerics` overrides the graph's (LOKAL_NUMERICS), `exactBatching` the exact mode's (LOKAL_EXACT_BATCHING); llama: `gguf` names the file in the folder (default model.gguf).
 */
export type GenerationWay =
  | { engine: 'transformers'; way: 'oneAtATime' | 'batched'; dtype?: ModelDtype; numerics?: Numerics; exactBatching?: boolean }
  | { engine: 'llama'; way: 'oneAtATime' | 'batched'; sequences: number; sharePrefix: boolean; gguf?: string }
  | { engine: 'llama-direct' };

export interface GenerationRunJob {
  dir: string;
  way: GenerationWay;
  threads?: number;
  /** transformers: the folder for saved optimised graphs (LOKAL_MODEL_CACHE's role; default: transformers.js's cache). */
  cacheDir?: string;
  workloads: Array<{ mode: 'base' | 'chat'; requests: GenerateRequest[] }>;
}

export interface GenerationRunResult {
  loadSeconds: number;
  /** transformers: how the model loaded (optimised and saved, from the saved graph, plain). */
  loadKind?: string;
  /** transformers: the numerics the provider ran (exact: what one prompt at a time gives; batched). */
  numerics?: Numerics;
  /** This process's peak RSS (getrusage), MiB: the model, its context and everything the runtime allocated. */
  peakRssMiB: number;
  modes: Array<{
    mode: 'base' | 'chat';
    seconds: number;
    /** CPU seconds of this process over the mode (all its threads): less sensitive than wall time to other load. */
    cpuSeconds: number;
    texts: string[];
    /** Seconds of each item when run one at a time (empty when batched). */
    itemSeconds: number[];
    promptTokens: number;
    promptTokensComputed: number;
    generatedTokens: number;
    largestBatch: number;
  }>;
}

const cpuSecondsSince = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
};

interface Stats {
  promptTokens: number;
  promptTokensComputed: number;
  generatedTokens: number;
  largestBatch?: number;
}

async function runProvider(job: GenerationRunJob): Promise<GenerationRunResult> {
  const way = job.way as Exclude<GenerationWay, { engine: 'llama-direct' }>;
  const provider =
    way.engine === 'llama'
      ? new LlamaProvider(path.join(job.dir, way.gguf ?? 'model.gguf'), { env: {}, threads: job.threads, sequences: way.sequences, sharePrefix: way.sharePrefix })
      : new TransformersProvider(job.dir, {
          env: {},
          threads: job.threads,
          cacheDir: job.cacheDir,
          // a folder for saved graphs means: save and load them even for a model below the provider's size threshold
          ...(job.cacheDir ? { saveOptimised: true } : {}),
          ...(way.dtype ? { dtype: way.dtype } : {}),
          ...(way.numerics ? { numerics: way.numerics } : {}),
          ...(way.exactBatching === undefined ? {} : { exactBatching: way.exactBatching }),
          ...(way.way === 'oneAtATime' ? { generateBatchSize: 1, sharePrefix: false } : {}),
        });
  const stats = (): Stats => provider.generationStats as Stats;
  const started = performance.now();
  await provider.load();
  const loadSeconds = (performance.now() - started) / 1000;
  const modes: GenerationRunResult['modes'] = [];
  try {
    for (const { mode, requests } of job.workloads) {
      const before = { ...stats() };
      const cpu = process.cpuUsage();
      const t = performance.now();
      let results: GenerateResult[];
      if (way.way === 'batched') results = await Promise.all(requests.map((r) => provider.generate([r]).then((x) => x[0]!)));
      else {
        results = [];
        for (const r of requests) results.push((await provider.generate([r]))[0]!);
      }
      const seconds = (performance.now() - t) / 1000;
      const after = stats();
      modes.push({
        mode,
        seconds,
        cpuSeconds: cpuSecondsSince(cpu),
        texts: results.map((r) => r.text),
        itemSeconds: way.way === 'batched' ? [] : results.map((r) => r.latencyMs / 1000),
        promptTokens: after.promptTokens - before.promptTokens,
        promptTokensComputed: after.promptTokensComputed - before.promptTokensComputed,
        generatedTokens: after.generatedTokens - before.generatedTokens,
        largestBatch: way.engine === 'llama' ? Math.min(way.sequences, requests.length) : (after.largestBatch ?? 1),
      });
    }
  } finally {
    await provider.close();
  }
  const loadKind = provider instanceof TransformersProvider ? provider.loadReport?.kind : undefined;
  const numerics = provider instanceof TransformersProvider ? provider.numerics : undefined;
  return { loadSeconds, loadKind, numerics, peakRssMiB: peakRssMiB(), modes };
}

/**
 * llama.cpp through node-llama-cpp's own API, as its documentation's plain loop: one sequence, each prompt evaluated
 * whole after clearing it, greedy, the model's repetition penalty, stopping at end of generation, the budget or a stop
 * string. Prompts are the provider's token ids (chat rendered by the same template), so both run the same tokens.
 */
async function runDirect(job: GenerationRunJob): Promise<GenerationRunResult> {
  // The load is timed cold, as the provider's is: node-llama-cpp's import and first getLlama (which, on Linux, tests
  // its prebuilt binary in a child process), then the model and its context.
  const importing = performance.now();
  const { getLlama, LlamaLogLevel } = await import('node-llama-cpp');
  const llama = await getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.error });
  const librarySeconds = (performance.now() - importing) / 1000;
  // the provider renders and tokenizes (its chat template, its BOS rule); the direct loop gets the same token ids
  const tokenizer = new LlamaProvider(path.join(job.dir, 'model.gguf'), { env: {}, sequences: 1 });
  const prompts = job.workloads.map((w) => ({ mode: w.mode, ids: [] as number[][], requests: w.requests }));
  for (const p of prompts) for (const r of p.requests) p.ids.push(await tokenizer.promptTokens(r));
  await tokenizer.close();
  const started = performance.now() - librarySeconds * 1000;
  const model = await llama.loadModel({ modelPath: path.join(job.dir, 'model.gguf') });
  const context = await model.createContext({
    contextSize: 2048,
    flashAttention: false,
    experimentalKvCacheKeyType: 'F32',
    experimentalKvCacheValueType: 'F32',
    ...(job.threads ? { threads: job.threads } : {}),
  });
  const loadSeconds = (performance.now() - started) / 1000;
  const penalty = (model.fileInfo.metadata as { general?: { sampling?: { penalty_repeat?: number } } }).general?.sampling?.penalty_repeat;
  const sequence = context.getSequence();
  const modes: GenerationRunResult['modes'] = [];
  for (const { mode, ids, requests } of prompts) {
    const texts: string[] = [];
    const itemSeconds: number[] = [];
    let generatedTokens = 0;
    const cpu = process.cpuUsage();
    const t = performance.now();
    for (let i = 0; i < requests.length; i++) {
      const req = requests[i]!;
      const prompt = ids[i]!;
      const itemStart = performance.now();
      await sequence.clearHistory();
      const generated: Token[] = [];
      const stops = req.stop ?? [];
      for await (const token of sequence.evaluate(prompt as Token[], {
        temperature: 0,
        yieldEogToken: true,
        ...(penalty && penalty !== 1 ? { repeatPenalty: { punishTokens: () => [...(prompt as Token[]), ...generated], maxPunishTokens: 2048, penalty } } : {}),
      })) {
        generated.push(token);
        if (model.isEogToken(token) || generated.length >= (req.maxNewTokens ?? 64)) break;
        if (stops.length && stops.some((s) => model.detokenize(generated).includes(s))) break;
      }
      itemSeconds.push((performance.now() - itemStart) / 1000);
      generatedTokens += generated.length;
      texts.push(cutAtStop(model.detokenize(generated.filter((tok) => !model.isEogToken(tok))), stops));
    }
    const promptTokens = ids.reduce((a, p) => a + p.length, 0);
    modes.push({ mode, seconds: (performance.now() - t) / 1000, cpuSeconds: cpuSecondsSince(cpu), texts, itemSeconds, promptTokens, promptTokensComputed: promptTokens, generatedTokens, largestBatch: 1 });
  }
  await context.dispose();
  await model.dispose();
  await llama.dispose();
  return { loadSeconds, peakRssMiB: peakRssMiB(), modes };
}

/** Runs `job` in a fresh process (this file as its script), with its files in `temp`; throws with the child's output tail when it fails. */
export function runGenerationChild(job: GenerationRunJob, temp: string, label: string): GenerationRunResult {
  const jobFile = path.join(temp, 'job.json');
  const resultFile = path.join(temp, 'result.json');
  writeFileSync(jobFile, JSON.stringify(job));
  const repoRoot = fileURLToPath(new URL('..', import.meta.url));
  const tsx = path.join(repoRoot, 'node_modules/tsx/dist/cli.mjs');
  const run = spawnSync(process.execPath, [tsx, fileURLToPath(import.meta.url), jobFile, resultFile], { cwd: repoRoot, encoding: 'utf8', maxBuffer: 1 << 26 });
  if (run.status !== 0) throw new Error(`generation: ${label} failed (${run.status ?? run.signal}): ${(run.stderr || run.stdout).slice(-3000)}`);
  const result = JSON.parse(readFileSync(resultFile, 'utf8')) as GenerationRunResult;
  rmSync(resultFile);
  return result;
}

const [jobFile, resultFile] = process.argv.slice(2);
// run as the child script only (bench/run.ts imports this file with its own arguments)
if (jobFile && resultFile && path.resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  const job = JSON.parse(readFileSync(jobFile, 'utf8')) as GenerationRunJob;
  const result = job.way.engine === 'llama-direct' ? await runDirect(job) : await runProvider(job);
  writeFileSync(resultFile, JSON.stringify(result));
  // every result also kept, one line per way, beside the result file (the bench's folder) while the bench runs
  appendFileSync(path.join(path.dirname(resultFile), 'results.jsonl'), `${JSON.stringify({ way: job.way, ...result })}\n`);
}
