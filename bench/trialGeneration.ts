// `npm run bench -- trials`: k sampled trials of n base-mode Italian items in one run (each item's trials asked at once,
// as MultiLoKo's item test asks them) vs k separate runs of the n items, run r asking trial r's seed, on
// `transformers:` with its default settings, in alternating rounds of one process (docs/performance-trials.md).
// Every run gets a fresh provider (its load not timed), so no run reuses another's stored prefixes.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { trialRequest } from '../src/models/trialRequest.ts';
import { TransformersProvider } from '../src/models/transformers.ts';
import type { GenerateRequest } from '../src/models/types.ts';
import { cpuLine } from './cpuInfo.ts';
import { multilokoData, multilokoRequests, requestsFor } from './generation.ts';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** Model shapes the bench builds (make:tiny-model flags over Qwen2.5-0.5B-Instruct's config and real tokenizer). */
export const TRIAL_SHAPES = {
  tiny: ['--layers', '2', '--hidden', '64', '--heads', '4', '--kv-heads', '2', '--intermediate', '128'],
  mid: ['--layers', '6', '--hidden', '256', '--heads', '4', '--kv-heads', '2', '--intermediate', '512'],
  'qwen2.5-0.5b': [],
} as const;
export type TrialShape = keyof typeof TRIAL_SHAPES;

export interface TrialBenchOptions {
  /** An existing model folder (default: one of `shape` built in a temporary folder, then removed; BENCH_TRIALS_MODEL). */
  modelDir?: string;
  /** The shape to build when no folder is given (default qwen2.5-0.5b; BENCH_TRIALS_SHAPE). */
  shape?: TrialShape;
  /** Items (default 16; BENCH_TRIALS_ITEMS) and trials per item (default 8; BENCH_TRIALS_K). */
  items?: number;
  trials?: number;
  /** Alternating rounds; figures are medians over them (default 3; BENCH_TRIALS_ROUNDS). */
  rounds?: number;
  /** New-token budget (default 32; BENCH_TRIALS_NEW_TOKENS); base mode also stops at its stop strings. */
  maxNewTokens?: number;
  /** onnxruntime threads (default: its own choice; BENCH_GENERATION_THREADS). */
  threads?: number;
}

/** Work of one way in one round: seconds and CPU seconds of the timed generation, and the engine's counters. */
interface WayRound {
  seconds: number;
  cpuSeconds: number;
  promptTokens: number;
  promptTokensComputed: number;
  sharedPromptRows: number;
  forwardCalls: number;
  decodeSteps: number;
  generatedTokens: number;
  largestBatch: number;
  /** texts[item][trial]. */
  texts: string[][];
}

export interface TrialBenchResult {
  cpu: string;
  loadAverage: number[];
  model: string;
  itemSource: string;
  items: number;
  trials: number;
  rounds: number;
  maxNewTokens: number;
  oneRun: WayRound[];
  separateRuns: WayRound[];
  /** Median over rounds of separate ÷ one run, in wall and in CPU seconds. */
  ratio: number;
  cpuRatio: number;
  /** Every trial's answer in the one run equals its separate run's, in every round; else how many trial-rounds differ. */
  identical: boolean;
  differing: number;
}

/** Sampling of every trial: Qwen2.5-Instruct's temperature; top-p left at 1 (no sort of the vocabulary per draw). */
const DECODING = { temperature: 0.7, seed: 42 };

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

function buildModel(dir: string, shape: TrialShape): void {
  const tsx = path.join(repoRoot, 'node_modules/tsx/dist/cli.mjs');
  const args = [dir, '--shape', 'qwen2.5-0.5b-instruct', ...TRIAL_SHAPES[shape], '--tokenizer', 'qwen2.5', '--dtypes', 'fp32'];
  const out = spawnSync(process.execPath, [tsx, path.join(repoRoot, 'scripts/make-tiny-model.ts'), ...args], { cwd: repoRoot, encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`make-tiny-model failed: ${out.stderr || out.stdout}`);
  console.log(`trials: ${out.stdout.trim()}`);
}

/** A positive integer from an option or an environment variable, or the default; a bad value names the variable. */
function count(option: number | undefined, variable: string, fallback: number): number {
  const raw = option ?? process.env[variable];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${variable} must be a positive integer (got ${JSON.stringify(String(raw))})`);
  return value;
}

/** The requests of `trials` of each item, item by item: trial t of item i is [i][t]. */
function trialRequests(requests: GenerateRequest[], trials: number): GenerateRequest[][] {
  return requests.map((request) => Array.from({ length: trials }, (_, t) => trialRequest(request, DECODING, request.itemKey!, t)));
}

/** Runs `batches` one after another, each on a fresh provider (load untimed) with all its requests asked at once. */
async function runWay(dir: string, threads: number | undefined, batches: GenerateRequest[][][]): Promise<Omit<WayRound, 'texts'> & { texts: string[][][] }> {
  const total: Omit<WayRound, 'texts'> = { seconds: 0, cpuSeconds: 0, promptTokens: 0, promptTokensComputed: 0, sharedPromptRows: 0, forwardCalls: 0, decodeSteps: 0, generatedTokens: 0, largestBatch: 0 };
  const texts: string[][][] = [];
  for (const batch of batches) {
    const provider = new TransformersProvider(dir, { env: {}, threads, log: () => undefined });
    try {
      await provider.load();
      const cpu = process.cpuUsage();
      const started = performance.now();
      // each item's requests at once (an item test), all items at once (concurrent item tests)
      const answers = await Promise.all(batch.map((item) => Promise.all(item.map((r) => provider.generate([r]).then((x) => x[0]!.text)))));
      total.seconds += (performance.now() - started) / 1000;
      const used = process.cpuUsage(cpu);
      total.cpuSeconds += (used.user + used.system) / 1e6;
      const s = provider.generationStats;
      total.promptTokens += s.promptTokens;
      total.promptTokensComputed += s.promptTokensComputed;
      total.sharedPromptRows += s.sharedPromptRows;
      total.forwardCalls += s.forwardCalls;
      total.decodeSteps += s.decodeSteps;
      total.generatedTokens += s.generatedTokens;
      total.largestBatch = Math.max(total.largestBatch, s.largestBatch);
      texts.push(answers);
    } finally {
      await provider.close();
    }
  }
  return { ...total, texts };
}

export async function benchTrials(options: TrialBenchOptions = {}): Promise<TrialBenchResult> {
  const env = process.env;
  const items = count(options.items, 'BENCH_TRIALS_ITEMS', 16);
  const trials = count(options.trials, 'BENCH_TRIALS_K', 8);
  const rounds = count(options.rounds, 'BENCH_TRIALS_ROUNDS', 3);
  const maxNewTokens = count(options.maxNewTokens, 'BENCH_TRIALS_NEW_TOKENS', 32);
  const threads = options.threads ?? (env.BENCH_GENERATION_THREADS ? count(undefined, 'BENCH_GENERATION_THREADS', 1) : undefined);
  const shape = options.shape ?? ((env.BENCH_TRIALS_SHAPE?.trim() || 'qwen2.5-0.5b') as TrialShape);
  if (!(shape in TRIAL_SHAPES)) throw new Error(`BENCH_TRIALS_SHAPE must be one of ${Object.keys(TRIAL_SHAPES).join(', ')} (got ${JSON.stringify(shape)})`);
  let dir = options.modelDir ?? env.BENCH_TRIALS_MODEL;
  let tempRoot: string | undefined;
  if (!dir) {
    tempRoot = mkdtempSync(path.join(tmpdir(), 'lokal-bench-trials-'));
    dir = path.join(tempRoot, shape);
  }
  try {
    if (!existsSync(path.join(dir, 'onnx', 'model.onnx'))) buildModel(dir, shape);
    const data = multilokoData(undefined);
    const base = data ? (await multilokoRequests(data, items, maxNewTokens)).base : requestsFor('base', items, maxNewTokens);
    if (base.length < items) throw new Error(`trials: only ${base.length} items available, ${items} asked`);
    const itemSource = data ? `MultiLoKo Italian dev items (${path.basename(data)}), base mode, dataset five-shot` : 'Italian questions written for the generation bench, base mode';
    const asked = trialRequests(base, trials);
    // one run: every item with its k trials; separate run r: every item's trial r alone
    const oneRunBatches = [asked];
    const separateBatches = Array.from({ length: trials }, (_, r) => asked.map((item) => [item[r]!]));
    const oneRun: WayRound[] = [];
    const separateRuns: WayRound[] = [];
    let differing = 0;
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? (['one', 'separate'] as const) : (['separate', 'one'] as const);
      const got: Partial<Record<'one' | 'separate', WayRound>> = {};
      for (const way of order) {
        const r = await runWay(dir, threads, way === 'one' ? oneRunBatches : separateBatches);
        // texts[item][trial] either way: the one run's single batch, or trial r from separate run r
        const texts = way === 'one' ? r.texts[0]! : asked.map((_, i) => r.texts.map((run) => run[i]![0]!));
        got[way] = { ...r, texts };
        console.log(
          `trials: round ${round + 1}/${rounds}, ${way === 'one' ? `one run of ${items} items × ${trials} trials` : `${trials} separate runs of ${items} items`}: ` +
            `${r.seconds.toFixed(2)} s (CPU ${r.cpuSeconds.toFixed(2)} s); prompt tokens ${r.promptTokens}, computed ${r.promptTokensComputed}, ` +
            `shared prompt rows ${r.sharedPromptRows}; forward calls ${r.forwardCalls}, decode steps ${r.decodeSteps}, generated tokens ${r.generatedTokens}, largest batch ${r.largestBatch}`,
        );
      }
      oneRun.push(got.one!);
      separateRuns.push(got.separate!);
      got.one!.texts.forEach((item, i) => item.forEach((text, t) => (differing += text === got.separate!.texts[i]![t] ? 0 : 1)));
    }
    const result: TrialBenchResult = {
      cpu: cpuLine(),
      loadAverage: loadavg(),
      model: tempRoot ? `a built ${shape} Qwen2-shaped model (fp32, Qwen2.5 tokenizer)` : `the model in ${dir}`,
      itemSource,
      items,
      trials,
      rounds,
      maxNewTokens,
      oneRun,
      separateRuns,
      ratio: median(oneRun.map((o, r) => separateRuns[r]!.seconds / o.seconds)),
      cpuRatio: median(oneRun.map((o, r) => separateRuns[r]!.cpuSeconds / o.cpuSeconds)),
      identical: differing === 0,
      differing,
    };
    printTrialBench(result);
    return result;
  } finally {
    if (tempRoot) rmSync(tempRoot, { recursive: true, force: true });
  }
}

export function printTrialBench(r: TrialBenchResult): void {
  const seconds = (ways: WayRound[]) => ways.map((w) => w.seconds.toFixed(2)).join(', ');
  console.log(r.cpu);
  console.log(
    `trials: ${r.model}; ${r.itemSource}; ${r.items} items × ${r.trials} trials, temperature ${DECODING.temperature}, at most ${r.maxNewTokens} new tokens; ` +
      `load average ${r.loadAverage.map((x) => x.toFixed(1)).join(' ')}`,
  );
  console.log(
    `trials: one run ${seconds(r.oneRun)} s vs ${r.trials} separate runs ${seconds(r.separateRuns)} s → ${r.ratio.toFixed(2)}x faster (CPU time ${r.cpuRatio.toFixed(2)}x; ` +
      `medians of ${r.rounds} alternating round(s)); answers ${r.identical ? 'identical' : `DIFFER in ${r.differing} of ${r.items * r.trials * r.rounds} trial-rounds`}`,
  );
}

/** The row of bench/run.ts's summary table. */
export function trialBenchRow(r: TrialBenchResult): { benchmark: string; subject: string; baseline: string; ratio: number; goal: string } {
  return {
    benchmark: `${r.trials} trials of ${r.items} items in one run, ${r.model}`,
    subject: `${median(r.oneRun.map((w) => w.seconds)).toFixed(2)} s`,
    baseline: `${r.trials} separate runs ${median(r.separateRuns.map((w) => w.seconds)).toFixed(2)} s`,
    ratio: r.ratio,
    goal: `≥ 3x on the 494M model, identical answers (${r.identical ? 'yes' : 'NO'})`,
  };
}
