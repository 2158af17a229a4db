// `npm run bench -- inrun`: generation on a small Qwen2-shaped model (6 layers, hidden 512, 8/2 heads, q/k/v biases,
// intermediate 1408, vocabulary 8,000) inside a real `vitest run` of the MultiLoKo eval file (32 Italian dev items,
// base mode, 32 new tokens, response cache off), timed over the item tests themselves (first start to last end, from
// Vitest's own test diagnostics), against a plain greedy loop on onnxruntime-node (on the provider's thread count) over
// the same prompts: the shared
// prompt prefix run once, then batches of 8 rows continuing it. Alternating rounds; the ratio is ours ÷ the loop's
// items/s (the cost per step outside the runtime; the goal is ≥ 0.8x). With BENCH_ORT_PYTHON, the same loop written on
// onnxruntime's Python API (bench/ort_peer.py) runs on the saved optimised graph the vitest run loaded, in the same
// rounds, and its answers are compared with the run's.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AutoTokenizer } from '@huggingface/transformers';
import * as ort from 'onnxruntime-node';
import { argmax } from '../src/models/batchedGeneration.ts';
import { commonPrefixLength } from '../src/models/kvCache.ts';
import { cutAtStop } from '../src/models/providerText.ts';
import type { GenerateRequest } from '../src/models/types.ts';
import { multilokoData, multilokoRequests } from './generation.ts';
import { checkOrtPython, peerAnswer, runOrtPeer, savedGraphFile, type OrtPeerJob, type OrtPeerResult } from './ortPeer.ts';
import { LOGIT_POSITIONS_INPUT } from '../src/models/logitPositions.ts';
import { TransformersProvider } from '../src/models/transformers.ts';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const VITEST_BIN = path.join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs');
/** The small Qwen2-shaped model this bench times (make:tiny-model flags). */
export const SMALL_MODEL_FLAGS = ['--layers', '6', '--hidden', '512', '--heads', '8', '--kv-heads', '2', '--qkv-bias', '--intermediate', '1408', '--vocab', '8000'];

export interface InRunBenchOptions {
  /** A folder already holding the model (BENCH_SMALL_MODEL); default: built in a temporary folder (minutes on a loaded machine). */
  modelDir?: string;
  items?: number;
  maxNewTokens?: number;
  rounds?: number;
  batchSize?: number;
  /** A Python with onnxruntime and numpy for the Python onnxruntime peer (BENCH_ORT_PYTHON); none: no peer. */
  ortPython?: string;
  /** A file prefix for onnxruntime's profile of the peer's last round (BENCH_ORT_PROFILE). */
  ortProfile?: string;
}

/** The Python onnxruntime peer's figures over the rounds. */
export interface OrtPeerFigures {
  versions: string;
  seconds: number[];
  /** Seconds inside session.run of each round, and its decode steps. */
  runSeconds: number[];
  decodeSteps: number;
  itemsPerSecond: number;
  /** In-run items/s ÷ the peer's (median seconds of each), and per round. */
  ratio: number;
  roundRatios: number[];
  /** Answers of the peer equal to the vitest run's (first round), of the items with an answer recorded. */
  identical: number;
  compared: number;
  /** The graph file both ran. */
  graph: string;
  profile?: string;
}

export interface InRunBenchResult {
  items: number;
  maxNewTokens: number;
  /** Seconds of each round: item tests in the vitest run (first start to last end), and the direct loop. */
  inRunSeconds: number[];
  directSeconds: number[];
  inRunItemsPerSecond: number;
  directItemsPerSecond: number;
  /** In-run items/s ÷ direct items/s (median seconds of each). */
  ratio: number;
  /** Item tests that failed with an error (a wrong answer is a passing item test that records its score). */
  failedItems: number;
  ortPeer?: OrtPeerFigures;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

function buildSmallModel(dir: string): void {
  const tsx = path.join(REPO_ROOT, 'node_modules/tsx/dist/cli.mjs');
  const out = spawnSync(process.execPath, [tsx, path.join(REPO_ROOT, 'scripts/make-tiny-model.ts'), dir, ...SMALL_MODEL_FLAGS], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`make-tiny-model failed: ${out.stderr || out.stdout}`);
}

/**
 * Greedy decoding written directly on onnxruntime-node, as a user would for throughput: the prompts' common prefix run
 * once, then each batch of rows continues it (right-padded prompt pass, masked) and decodes until every row is done
 * (finished rows keep their slot). Stop strings are checked on the decoded new text each step, as our engine does.
 */
export async function directBatchedLoop(dir: string, requests: GenerateRequest[], batchSize: number, threads = 0): Promise<{ texts: string[]; seconds: number }> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const tokenizer: any = await AutoTokenizer.from_pretrained(dir);
  const config = JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8'));
  const generation = JSON.parse(readFileSync(path.join(dir, 'generation_config.json'), 'utf8'));
  const eos: number[] = [generation.eos_token_id ?? config.eos_token_id].flat().map(Number);
  const pad = Number(generation.pad_token_id ?? eos[0]);
  const session = await ort.InferenceSession.create(path.join(dir, 'onnx', 'model.onnx'), threads > 0 ? { intraOpNumThreads: threads } : {});
  const layers: number = config.num_hidden_layers;
  const heads: number = config.num_key_value_heads;
  const dim: number = config.hidden_size / config.num_attention_heads;
  const names = Array.from({ length: layers }, (_, l) => ['key', 'value'].map((k) => `${l}.${k}`)).flat();
  const prompts = requests.map((r) => (tokenizer.encode(r.prompt, { add_special_tokens: true }) as number[]).map(Number));
  const texts: string[] = [];
  const int64 = (values: ArrayLike<number>, dims: number[]) => new ort.Tensor('int64', BigInt64Array.from(Array.from(values, BigInt)), dims);
  try {
    const started = performance.now();
    // the prefix all prompts share, minus one token so every prompt has one of its own
    const shared = Math.max(0, Math.min(commonPrefixLength(prompts), ...prompts.map((p) => p.length - 1)));
    const empty = Object.fromEntries(names.map((n) => [`past_key_values.${n}`, new ort.Tensor('float32', new Float32Array(0), [1, heads, 0, dim])]));
    const prefixOut = shared > 0
      ? await session.run({ input_ids: int64(prompts[0]!.slice(0, shared), [1, shared]), attention_mask: int64(new Array(shared).fill(1), [1, shared]), position_ids: int64(Array.from({ length: shared }, (_, j) => j), [1, shared]), ...empty })
      : undefined;
    for (let at = 0; at < requests.length; at += batchSize) {
      const rows = prompts.slice(at, at + batchSize);
      const reqs = requests.slice(at, at + batchSize);
      const b = rows.length;
      const own = rows.map((p) => p.slice(shared));
      const width = Math.max(...own.map((o) => o.length));
      // the prefix cache repeated for every row
      const past: Record<string, ort.Tensor> = {};
      for (const n of names) {
        const one = prefixOut ? (prefixOut[`present.${n}`]!.data as Float32Array) : new Float32Array(0);
        const data = new Float32Array(b * one.length);
        for (let r = 0; r < b; r++) data.set(one, r * one.length);
        past[`past_key_values.${n}`] = new ort.Tensor('float32', data, [b, heads, shared, dim]);
      }
      const ids = new Array(b * width).fill(pad);
      const positions = new Array(b * width).fill(0);
      let total = shared + width;
      let mask = new Array(b * total).fill(0);
      own.forEach((o, r) => {
        o.forEach((t, j) => (ids[r * width + j] = t));
        for (let j = 0; j < width; j++) positions[r * width + j] = shared + Math.min(j, o.length - 1);
        mask.fill(1, r * total, r * total + shared + o.length);
      });
      let out = await session.run({ input_ids: int64(ids, [b, width]), attention_mask: int64(mask, [b, total]), position_ids: int64(positions, [b, width]), ...past });
      let logits = out.logits!.data as Float32Array;
      const vocab = logits.length / (b * width);
      const generated: number[][] = rows.map(() => []);
      const done = rows.map(() => false);
      const pick = (r: number, row: Float32Array) => {
        const token = argmax(row);
        generated[r]!.push(token);
        const text = tokenizer.decode(generated[r], { skip_special_tokens: true }) as string;
        const stops = reqs[r]!.stop ?? [];
        if (generated[r]!.length >= (reqs[r]!.maxNewTokens ?? 32) || eos.includes(token) || stops.some((s) => text.includes(s))) done[r] = true;
      };
      own.forEach((o, r) => pick(r, logits.subarray(((r * width) + o.length - 1) * vocab, ((r * width) + o.length) * vocab)));
      while (!done.every(Boolean)) {
        const step = total + 1;
        const nextMask = new Array(b * step).fill(0);
        for (let r = 0; r < b; r++) {
          for (let j = 0; j < total; j++) nextMask[r * step + j] = mask[r * total + j]!;
          nextMask[r * step + total] = 1;
        }
        const last = generated.map((g) => g.at(-1)!);
        const pos = own.map((o, r) => shared + o.length + generated[r]!.length - 1);
        const feeds: Record<string, ort.Tensor> = { input_ids: int64(last, [b, 1]), attention_mask: int64(nextMask, [b, step]), position_ids: int64(pos, [b, 1]) };
        for (const n of names) feeds[`past_key_values.${n}`] = out[`present.${n}`]!;
        out = await session.run(feeds);
        logits = out.logits!.data as Float32Array;
        mask = nextMask;
        total = step;
        for (let r = 0; r < b; r++) if (!done[r]) pick(r, logits.subarray(r * vocab, (r + 1) * vocab));
      }
      generated.forEach((g, r) => {
        const eosAt = g.findIndex((t) => eos.includes(t));
        texts.push(cutAtStop(tokenizer.decode(eosAt >= 0 ? g.slice(0, eosAt) : g, { skip_special_tokens: true }), reqs[r]!.stop ?? []));
      });
    }
    return { texts, seconds: (performance.now() - started) / 1000 };
  } finally {
    await session.release();
  }
}

/** One `vitest run --project evals` of the MultiLoKo eval file on the model: item tests' span and failures. */
async function vitestRun(dir: string, data: string, items: number, maxNewTokens: number, work: string): Promise<{ seconds: number; items: number; failed: number; answers: Map<string, string> }> {
  const times = path.join(work, 'item-times.json');
  rmSync(times, { force: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LOKAL_MODEL: `transformers:${dir}`,
    LOKAL_MULTILOKO: data,
    LOKAL_LANGUAGES: 'italian',
    LOKAL_SUBSETS: 'italian',
    LOKAL_LIMIT: String(items),
    LOKAL_PROMPT: 'base',
    LOKAL_MAX_NEW_TOKENS: String(maxNewTokens),
    LOKAL_CACHE: 'off',
    LOKAL_OUTPUT: path.join(work, 'results'),
    LOKAL_OFFLINE: '1',
    // the saved optimised graph in a folder of this bench's own (the Python peer runs that file)
    LOKAL_MODEL_CACHE: path.join(work, 'model-cache'),
    BENCH_ITEM_TIMES: times,
  };
  const args = [VITEST_BIN, 'run', '--project', 'evals', 'evals/multiloko.eval.ts', '--reporter', path.join(REPO_ROOT, 'bench/itemTimesReporter.ts')];
  const log = await new Promise<string>((resolve) => {
    const child = spawn(process.execPath, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (d) => (text += d));
    child.stderr.on('data', (d) => (text += d));
    child.on('close', () => resolve(text));
  });
  if (!existsSync(times)) throw new Error(`in-run bench: the vitest run wrote no item times\n${log.slice(-3000)}`);
  const tests = JSON.parse(readFileSync(times, 'utf8')) as Array<{ id: string; answer?: string; state: string; startTime: number; duration: number }>;
  if (tests.length !== items) throw new Error(`in-run bench: ${tests.length} item tests ran, ${items} expected\n${log.slice(-3000)}`);
  const first = Math.min(...tests.map((t) => t.startTime));
  const last = Math.max(...tests.map((t) => t.startTime + t.duration));
  const answers = new Map(tests.flatMap((t) => (t.answer === undefined ? [] : [[t.id, t.answer] as const])));
  return { seconds: (last - first) / 1000, items: tests.length, failed: tests.filter((t) => t.state === 'failed').length, answers };
}

export async function benchInRunGeneration(options: InRunBenchOptions = {}): Promise<InRunBenchResult | undefined> {
  const env = process.env;
  const data = multilokoData(undefined);
  if (!data) {
    console.log('inrun: skipped (no MultiLoKo data: set LOKAL_MULTILOKO; the eval file needs it)');
    return undefined;
  }
  const items = options.items ?? Number(env.BENCH_INRUN_ITEMS ?? 32);
  const maxNewTokens = options.maxNewTokens ?? 32;
  const rounds = options.rounds ?? Number(env.BENCH_ROUNDS ?? 3);
  const batchSize = options.batchSize ?? 8;
  const work = mkdtempSync(path.join(tmpdir(), 'lokal-bench-inrun-'));
  let dir = options.modelDir ?? env.BENCH_SMALL_MODEL;
  try {
    if (!dir || !existsSync(path.join(dir, 'onnx', 'model.onnx'))) {
      dir ??= path.join(work, 'model');
      const t = performance.now();
      buildSmallModel(dir);
      console.log(`inrun: built the 6-layer model in ${((performance.now() - t) / 1000).toFixed(1)} s (${dir}; BENCH_SMALL_MODEL reuses a built one)`);
    }
    const requests = (await multilokoRequests(data, items, maxNewTokens)).base;
    if (requests.length < items) throw new Error(`inrun: only ${requests.length} Italian items in ${data}`);
    const ortPython = options.ortPython ?? (env.BENCH_ORT_PYTHON || undefined);
    const ortProfile = options.ortProfile ?? (env.BENCH_ORT_PROFILE || undefined);
    // the saved optimised graph made before the rounds, as the vitest runs would make it (no thread setting), so every
    // timed run loads it (the run that optimises a model computes every position's logits in its prompt passes)
    const warm = new TransformersProvider(dir, { env: {}, cacheDir: path.join(work, 'model-cache'), log: () => undefined });
    await warm.load();
    console.log(`inrun: the model's optimised graph: ${warm.loadReport?.kind ?? 'unknown'} (later loads read it from the bench's cache folder)`);
    // both loops run on the provider's own thread count (0: onnxruntime's default, as the provider leaves it)
    const threads = warm.threads ?? 0;
    await warm.close();
    const peer = ortPython ? await ortPeerSide(ortPython, dir, requests, batchSize, work, ortProfile, threads) : undefined;
    const inRunSeconds: number[] = [];
    const directSeconds: number[] = [];
    const answers: Array<Map<string, string>> = [];
    let failedItems = 0;
    for (let round = 0; round < rounds; round++) {
      const sides = peer ? ['vitest', 'direct', 'python'] : ['vitest', 'direct'];
      const order = round % 2 === 0 ? sides : [...sides].reverse();
      for (const way of order) {
        if (way === 'vitest') {
          const r = await vitestRun(dir, data, items, maxNewTokens, work);
          inRunSeconds.push(r.seconds);
          answers.push(r.answers);
          failedItems = Math.max(failedItems, r.failed);
          console.log(`inrun: round ${round + 1}/${rounds}, vitest run: ${items} item tests in ${r.seconds.toFixed(2)} s (${(items / r.seconds).toFixed(2)} items/s)`);
        } else if (way === 'python') {
          const r = peer!.run(round === rounds - 1);
          console.log(
            `inrun: round ${round + 1}/${rounds}, Python onnxruntime loop (same graph file, prefix once, batches of ${batchSize}): ${items} items in ${r.seconds.toFixed(2)} s ` +
              `(${(items / r.seconds).toFixed(2)} items/s; session.run ${r.runSeconds.toFixed(2)} s of it over ${r.runCalls} runs, ${r.decodeSteps} decode steps)`,
          );
        } else {
          const r = await directBatchedLoop(dir, requests, batchSize, threads);
          directSeconds.push(r.seconds);
          console.log(`inrun: round ${round + 1}/${rounds}, direct onnxruntime loop (prefix once, batches of ${batchSize}): ${items} items in ${r.seconds.toFixed(2)} s (${(items / r.seconds).toFixed(2)} items/s)`);
        }
      }
    }
    const inRun = median(inRunSeconds);
    const direct = median(directSeconds);
    return {
      items,
      maxNewTokens,
      inRunSeconds,
      directSeconds,
      inRunItemsPerSecond: items / inRun,
      directItemsPerSecond: items / direct,
      ratio: direct / inRun,
      failedItems,
      ...(peer ? { ortPeer: peer.figures(inRunSeconds, answers[0] ?? new Map()) } : {}),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The Python onnxruntime peer over `requests`: prompts tokenised by the model's tokenizer as the provider tokenises a
 * plain prompt (special tokens added), run on the saved graph the first vitest run leaves in the bench's cache folder.
 */
async function ortPeerSide(python: string, dir: string, requests: GenerateRequest[], batchSize: number, work: string, profile: string | undefined, threads: number) {
  const versions = checkOrtPython(python);
  console.log(`inrun: Python onnxruntime peer ${python}: ${versions}`);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const tokenizer: any = await AutoTokenizer.from_pretrained(dir);
  const config = JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8'));
  const generation = JSON.parse(readFileSync(path.join(dir, 'generation_config.json'), 'utf8'));
  const eos: number[] = [generation.eos_token_id ?? config.eos_token_id].flat().map(Number);
  const pad = Number(tokenizer.pad_token_id ?? eos[0] ?? 0);
  const prompts = requests.map((r) => (tokenizer.encode(r.prompt, { add_special_tokens: true }) as number[]).map(Number));
  const stops = requests.map((r) => (r.stop ?? []).filter((s) => s !== ''));
  const results: OrtPeerResult[] = [];
  let graph = '';
  const decode = (ids: number[]) => tokenizer.decode(ids, { skip_special_tokens: true }) as string;
  return {
    run(last: boolean): OrtPeerResult {
      graph = savedGraphFile(path.join(work, 'model-cache'), dir);
      const job: OrtPeerJob = {
        graph,
        tokenizer: path.join(dir, 'tokenizer.json'),
        threads,
        batchSize,
        prompts,
        maxNewTokens: requests.map((r) => r.maxNewTokens ?? 32),
        stops,
        eos,
        pad,
        logitPositions: LOGIT_POSITIONS_INPUT,
        profile: last && profile ? profile : null,
      };
      const r = runOrtPeer(python, job, work);
      results.push(r);
      return r;
    },
    figures(inRunSeconds: number[], runAnswers: Map<string, string>): OrtPeerFigures {
      const seconds = results.map((r) => r.seconds);
      const texts = results[0]!.generated.map((g, i) => peerAnswer(g, eos, stops[i]!, decode));
      const keyed = requests.map((r, i) => ({ id: (r.itemKey ?? '').split('/').at(-1)!, text: texts[i]! })).filter((x) => runAnswers.has(x.id));
      return {
        versions,
        seconds,
        runSeconds: results.map((r) => r.runSeconds),
        decodeSteps: results[0]!.decodeSteps,
        itemsPerSecond: requests.length / median(seconds),
        ratio: median(seconds) / median(inRunSeconds),
        roundRatios: seconds.map((p, i) => p / inRunSeconds[i]!),
        identical: keyed.filter((x) => runAnswers.get(x.id) === x.text).length,
        compared: keyed.length,
        graph,
        ...(results.at(-1)!.profile ? { profile: results.at(-1)!.profile! } : {}),
      };
    },
  };
}
