// `npm run bench -- generation`: greedy generation on a model of the default model's exact shape (Qwen2.5-0.5B-Instruct:
// 24 layers, hidden 896, GQA 14/2, q/k/v biases, tied 151,936-token embeddings; random fp32 weights) with its real
// tokenizer and chat template: 32 Italian MultiLoKo-like items in base mode (official five-shot prompt) and chat mode,
// one request at a time (transformers.js's generate, as before batching) vs concurrent calls batched with prefix
// reuse, in alternating rounds of the same process; plus the same greedy loop written directly on onnxruntime-node.
// The llama: part (bench/llamaGeneration.ts) runs the same requests on the folder's model.gguf in rounds alternating
// with these: llama: one at a time and batched, node-llama-cpp's own API directly, and transformers: batched.
// BENCH_HF_PYTHON (a Python with torch, transformers and onnx) adds the Hugging Face peer (bench/hfPeer.ts): the same
// weights in transformers + PyTorch, driven as lm-evaluation-harness's hf backend, in rounds alternating with ours.
// The dtype part (bench/dtypeGeneration.ts) runs our fp32, q8 and q4 files and llama.cpp on the same weights as GGUF
// Q8_0 and Q4_0, each way in its own process, and prints the dtype goals as met / missed.
// BENCH_GENERATION_SHAPE=tiny builds a 2-layer model with the real tokenizer instead, for a smoke run of minutes.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AutoTokenizer } from '@huggingface/transformers';
import * as ort from 'onnxruntime-node';
import { loadMultiLoKo } from '../src/benchmarks/multiloko/data/multiloko.ts';
import { renderItemPrompt } from '../src/benchmarks/multiloko/run/itemPrompt.ts';
import { chooseFewshot } from '../src/benchmarks/multiloko/run/promptChoice.ts';
import { renderMultilokoPrompt } from '../src/benchmarks/multiloko/prompts/renderMultilokoPrompt.ts';
import { argmax } from '../src/models/batchedGeneration.ts';
import { cutAtStop } from '../src/models/providerText.ts';
import { TransformersProvider } from '../src/models/transformers.ts';
import type { GenerateRequest } from '../src/models/types.ts';
import { HfPeerBench, peerThreads, type OursFigures } from './hfPeer.ts';
import { benchLoad, loadBenchRows, printLoadBench, type LoadBenchResult } from './load.ts';
import { LlamaGenerationBench, llamaBenchWays } from './llamaGeneration.ts';
import { DtypeGenerationBench, dtypeBenchWays } from './dtypeGeneration.ts';
import { peakRssMiB } from './peakRss.mjs';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** Questions in the style of MultiLoKo's Italian subset (written for this benchmark), with their output types. */
export const ITALIAN_ITEMS: Array<{ question: string; output_type: string }> = [
  ['Chi ha dipinto la Gioconda?', 'nome'],
  ["Qual è il fiume più lungo d'Italia?", 'nome'],
  ['In che anno è caduto il muro di Berlino?', 'anno'],
  ['Chi ha scritto la Divina Commedia?', 'nome'],
  ['Qual è il capoluogo della Sicilia?', 'città'],
  ['Come si chiama il vulcano che domina il golfo di Napoli?', 'nome'],
  ['Quando si festeggia la Liberazione in Italia?', 'data'],
  ['Quante regioni ha la Repubblica italiana?', 'numero'],
  ['Chi ha composto "La traviata"?', 'nome'],
  ['In quale città si trova la Mole Antonelliana?', 'città'],
  ['Qual è la montagna più alta delle Alpi?', 'nome'],
  ['Chi era il presidente del Consiglio nel 1948?', 'nome'],
  ['In che anno si è svolta la prima edizione del Festival di Sanremo?', 'anno'],
  ['Quale squadra di calcio gioca allo stadio San Siro oltre al Milan?', 'nome'],
  ['Come si chiama il lago più grande d\'Italia?', 'nome'],
  ['Chi ha diretto il film "La dolce vita"?', 'nome'],
  ['Qual è la moneta ufficiale di San Marino?', 'nome'],
  ['In quale regione si trova Matera?', 'regione'],
  ['Quando è nato Giuseppe Garibaldi?', 'data'],
  ['Quale isola è famosa per la Costa Smeralda?', 'nome'],
  ['Chi ha inventato la pila elettrica?', 'nome'],
  ['Quanti abitanti ha circa Roma?', 'numero'],
  ['Qual è il piatto tipico di Bologna con il ragù?', 'nome'],
  ['Come si chiama lo stretto tra la Sicilia e la Calabria?', 'nome'],
  ['In che anno l\'Italia è diventata una repubblica?', 'anno'],
  ['Chi ha scritto "I promessi sposi"?', 'nome'],
  ['Qual è la città natale di Cristoforo Colombo?', 'città'],
  ['Quale fiume attraversa Firenze?', 'nome'],
  ['Come si chiama il parlamento italiano nel suo insieme?', 'nome'],
  ['Chi ha vinto il Giro d\'Italia nel 1998?', 'nome'],
  ['Quando si celebra la festa di San Giovanni a Firenze?', 'data'],
  ['Qual è il formaggio tipico della Campania fatto con latte di bufala?', 'nome'],
].map(([question, output_type]) => ({ question: question!, output_type: output_type! }));

export interface GenerationBenchOptions {
  /** Items per mode (default 32, the measured workload; at most ITALIAN_ITEMS.length). */
  items?: number;
  /** Alternating rounds; figures are medians over them (default 3; BENCH_GENERATION_ROUNDS). */
  rounds?: number;
  /** New-token budget of both modes (default 32; base mode also stops at its stop strings). */
  maxNewTokens?: number;
  /** Items the direct onnxruntime loop runs (default 8: it costs as much as one-at-a-time). */
  directItems?: number;
  /** An existing Qwen2.5-0.5B-shaped model folder to reuse (default: built in a temporary folder, then removed; BENCH_GENERATION_MODEL). */
  modelDir?: string;
  /**
   * The MultiLoKo data (a folder or the official encrypted archive): its first Italian dev items, asked as an evals
   * run asks them (dataset few-shot demonstrations). Default: LOKAL_MULTILOKO, else ../shared/data/multiloko/
   * benchmark_data.tar.xz.enc beside the repository; without data, the questions written below.
   */
  data?: string;
  threads?: number;
}

export interface GenerationModeResult {
  mode: 'base' | 'chat';
  items: number;
  /** Median items/s of each way of running, and their ratio (goal: ≥ 3 base, ≥ 1.8 chat). */
  oneAtATimeItemsPerSecond: number;
  batchedItemsPerSecond: number;
  ratio: number;
  /** Seconds of every round. */
  oneAtATimeSeconds: number[];
  batchedSeconds: number[];
  /** Prompt tokens run per item (the rest came from stored prefixes), and prompt tokens per item. */
  promptTokensPerItem: number;
  oneAtATimePromptTokensComputedPerItem: number;
  batchedPromptTokensComputedPerItem: number;
  generatedTokensPerItem: number;
  prefixHits: number;
  prefixMisses: number;
  prefixFallbacks: number;
  largestBatch: number;
  /** Batched outputs equal one-at-a-time outputs, item by item, in every round. */
  identical: boolean;
  /** One-at-a-time outputs of the first round (what the Hugging Face peer's are compared with). */
  oneAtATimeTexts: string[];
  differing: number;
  /** The direct onnxruntime loop over the first directItems items, run right after one at a time in each round: items/s, our one-at-a-time items/s on the same items, ratio (medians). */
  direct: { items: number; itemsPerSecond: number; oursItemsPerSecond: number; oursOverDirect: number; identical: boolean };
  /** Peak RSS sampled while each way ran (MiB). */
  oneAtATimePeakRssMiB: number;
  batchedPeakRssMiB: number;
}

export interface GenerationBenchResult {
  /** Where the items came from: the MultiLoKo Italian dev split, or the questions written here. */
  itemSource: string;
  parameters: number;
  onnxMiB: number;
  buildSeconds: number;
  loadSeconds: number;
  rounds: number;
  maxNewTokens: number;
  modes: GenerationModeResult[];
  /** Peak RSS of the whole benchmark process (model building runs in a child process). */
  peakRssMiB: number;
  /** Load time, peak RSS and exit delay in fresh processes (bench/load.ts). */
  load?: LoadBenchResult;
  /** The llama: part (model.gguf of the same folder), when it ran. */
  llama?: LlamaGenerationBench;
  /** The dtype part (fp32 / q8 / q4 and llama.cpp Q8_0 / Q4_0), when it ran. */
  dtypes?: DtypeGenerationBench;
  /** The Hugging Face peer (BENCH_HF_PYTHON), when it ran. */
  peer?: HfPeerBench;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const mib = (bytes: number) => bytes / 2 ** 20;

/** Samples RSS every 100 ms while `work` runs (onnxruntime runs off the main thread, so samples land mid-pass). */
async function withPeakRss<T>(work: () => Promise<T>): Promise<{ value: T; peakMiB: number }> {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 100);
  try {
    const value = await work();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { value, peakMiB: mib(peak) };
  } finally {
    clearInterval(timer);
  }
}

/** BENCH_GENERATION_SHAPE: the 494M Qwen2.5-0.5B shape (default), or `tiny` (2 layers, hidden 64: a smoke run with the real tokenizer). */
const SHAPES = { 'qwen2.5-0.5b': [], tiny: ['--layers', '2', '--hidden', '64', '--heads', '4', '--kv-heads', '2', '--intermediate', '128'] } as const;

/** Builds the model with the make:tiny-model script in a child process (its memory stays out of our RSS): fp32, q8 and q4 ONNX files, GGUF f32, Q8_0 and Q4_0. */
function buildModel(dir: string, shape: keyof typeof SHAPES): { seconds: number; parameters: number } {
  const tsx = path.join(repoRoot, 'node_modules/tsx/dist/cli.mjs');
  const started = performance.now();
  const args = [dir, '--shape', 'qwen2.5-0.5b-instruct', ...SHAPES[shape], '--tokenizer', 'qwen2.5', '--dtypes', 'fp32,q8,q4', '--gguf-type', 'f32,q8_0,q4_0'];
  const out = spawnSync(process.execPath, [tsx, path.join(repoRoot, 'scripts/make-tiny-model.ts'), ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  if (out.status !== 0) throw new Error(`make-tiny-model failed: ${out.stderr || out.stdout}`);
  const parameters = Number(/([\d,]+) parameters/.exec(out.stdout)?.[1]?.replace(/,/g, '') ?? NaN);
  return { seconds: (performance.now() - started) / 1000, parameters };
}

/** The first `count` Italian dev items of the MultiLoKo data, rendered as an evals run renders them (LOKAL_PROMPT=base|chat, dataset few-shot). */
export async function multilokoRequests(data: string, count: number, maxNewTokens: number): Promise<Record<'base' | 'chat', GenerateRequest[]>> {
  const dataset = await loadMultiLoKo(data, 'dev');
  const subset = dataset.subsets.find((s) => s.key === 'italian');
  if (!subset) throw new Error(`${data}: no Italian dev subset`);
  const fewshot = chooseFewshot(dataset, subset.questionLanguage, 'dataset');
  const render = (mode: 'base' | 'chat') =>
    subset.items.slice(0, count).map((item) => ({ ...renderItemPrompt(item, subset, { mode, fewshot, shots: 5 }).request, maxNewTokens, itemKey: `italian/${item.id}` }));
  return { base: render('base'), chat: render('chat') };
}

/** The MultiLoKo data to take items from: the option, LOKAL_MULTILOKO, or the shared archive beside the repository. */
export function multilokoData(option: string | undefined): string | undefined {
  const candidates = [option, process.env.LOKAL_MULTILOKO, path.join(repoRoot, '../shared/data/multiloko/benchmark_data.tar.xz.enc')];
  return candidates.find((c): c is string => c !== undefined && c !== '' && existsSync(c));
}

/** The items written here, rendered as MultiLoKo's Italian prompts in base or chat mode. */
export function requestsFor(mode: 'base' | 'chat', count: number, maxNewTokens: number): GenerateRequest[] {
  return ITALIAN_ITEMS.slice(0, count).map((item, i) => {
    const rendered = renderMultilokoPrompt({ language: 'italian', item: { ...item, id: i }, mode });
    return rendered.mode === 'base'
      ? { prompt: rendered.prompt, stop: rendered.stop, maxNewTokens, itemKey: `italian/${i}` }
      : { messages: [{ role: 'user' as const, content: rendered.message }], maxNewTokens, itemKey: `italian/${i}` };
  });
}

/** Greedy decoding as a plain loop on onnxruntime-node: one sequence, a key/value cache, the model's repetition penalty. */
async function directLoop(dir: string, requests: GenerateRequest[], threads: number | undefined): Promise<{ texts: string[]; seconds: number[] }> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const tokenizer: any = await AutoTokenizer.from_pretrained(dir);
  const config = JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8'));
  const generation = JSON.parse(readFileSync(path.join(dir, 'generation_config.json'), 'utf8'));
  const eos: number[] = [generation.eos_token_id ?? config.eos_token_id].flat().map(Number);
  const penalty: number = generation.repetition_penalty ?? 1;
  const session = await ort.InferenceSession.create(path.join(dir, 'onnx', 'model.onnx'), threads ? { intraOpNumThreads: threads } : {});
  const layers: number = config.num_hidden_layers;
  const kvHeads: number = config.num_key_value_heads;
  const headDim: number = config.hidden_size / config.num_attention_heads;
  const texts: string[] = [];
  const seconds: number[] = [];
  try {
    for (const req of requests) {
      const ids: number[] = req.messages
        ? (tokenizer.apply_chat_template(req.messages, { add_generation_prompt: true, return_tensor: false, return_dict: false }) as Array<number | bigint>).map(Number)
        : (tokenizer.encode(req.prompt) as number[]).map(Number);
      const stops = req.stop ?? [];
      const started = performance.now();
      let past: Record<string, ort.Tensor> = {};
      for (let l = 0; l < layers; l++)
        for (const kind of ['key', 'value']) past[`past_key_values.${l}.${kind}`] = new ort.Tensor('float32', new Float32Array(0), [1, kvHeads, 0, headDim]);
      const all = ids.slice();
      const generated: number[] = [];
      let input = ids;
      for (;;) {
        const n = input.length;
        const start = all.length - n;
        const out = await session.run({
          input_ids: new ort.Tensor('int64', BigInt64Array.from(input.map(BigInt)), [1, n]),
          attention_mask: new ort.Tensor('int64', new BigInt64Array(all.length).fill(1n), [1, all.length]),
          position_ids: new ort.Tensor('int64', BigInt64Array.from({ length: n }, (_, j) => BigInt(start + j)), [1, n]),
          ...past,
        });
        const logits = out.logits!.data as Float32Array;
        const vocab = logits.length / n;
        const row = logits.subarray((n - 1) * vocab, n * vocab);
        for (const t of new Set(all)) row[t] = row[t]! < 0 ? row[t]! * penalty : row[t]! / penalty;
        const token = argmax(row);
        all.push(token);
        generated.push(token);
        const text = tokenizer.decode(generated, { skip_special_tokens: true }) as string;
        if (generated.length >= (req.maxNewTokens ?? 64) || eos.includes(token) || stops.some((s) => text.includes(s))) break;
        past = {};
        for (let l = 0; l < layers; l++) for (const kind of ['key', 'value']) past[`past_key_values.${l}.${kind}`] = out[`present.${l}.${kind}`]!;
        input = [token];
      }
      seconds.push((performance.now() - started) / 1000);
      const eosAt = generated.findIndex((t) => eos.includes(t));
      texts.push(cutAtStop(tokenizer.decode(eosAt >= 0 ? generated.slice(0, eosAt) : generated, { skip_special_tokens: true }), stops));
    }
  } finally {
    await session.release();
  }
  return { texts, seconds };
}

export async function benchGeneration(options: GenerationBenchOptions = {}): Promise<GenerationBenchResult> {
  const env = process.env;
  const data = multilokoData(options.data);
  const items = Math.min(options.items ?? Number(env.BENCH_GENERATION_ITEMS ?? 32), data ? Number.MAX_SAFE_INTEGER : ITALIAN_ITEMS.length);
  const rounds = options.rounds ?? Number(env.BENCH_GENERATION_ROUNDS ?? 3);
  // BENCH_GENERATION_NEW_TOKENS: the new-token budget (default 32; a smaller one for smoke runs)
  const maxNewTokens = options.maxNewTokens ?? Number(env.BENCH_GENERATION_NEW_TOKENS ?? 32);
  const directItems = Math.min(options.directItems ?? 8, items);
  // BENCH_GENERATION_THREADS: CPU threads of every engine (default: each engine's own choice)
  const threads = options.threads ?? (env.BENCH_GENERATION_THREADS ? Number(env.BENCH_GENERATION_THREADS) : undefined);
  let tempRoot: string | undefined;
  let dir = options.modelDir ?? env.BENCH_GENERATION_MODEL;
  let buildSeconds = 0;
  let llama: LlamaGenerationBench | undefined;
  let dtypes: DtypeGenerationBench | undefined;
  let peer: HfPeerBench | undefined;
  const shape = env.BENCH_GENERATION_SHAPE?.trim() || 'qwen2.5-0.5b';
  if (!(shape in SHAPES)) throw new Error(`BENCH_GENERATION_SHAPE must be one of ${Object.keys(SHAPES).join(', ')}, got ${JSON.stringify(shape)}`);
  if (!dir) {
    tempRoot = mkdtempSync(path.join(tmpdir(), 'lokal-bench-qwen-'));
    dir = path.join(tempRoot, 'qwen2.5-0.5b-shape');
  }
  try {
    if (!existsSync(path.join(dir, 'onnx', 'model.onnx'))) {
      const built = buildModel(dir, shape as keyof typeof SHAPES);
      buildSeconds = built.seconds;
      console.log(`generation: built a ${(built.parameters / 1e6).toFixed(1)}M-parameter ${shape === 'tiny' ? 'tiny Qwen2-shaped' : 'Qwen2.5-0.5B-shaped'} model in ${buildSeconds.toFixed(1)} s (${dir})`);
    }
    // Load time (first, from the saved optimised graph, plain), peak RSS and exit delay, in fresh processes (BENCH_LOAD=0 skips it).
    const load = env.BENCH_LOAD === '0' ? undefined : await benchLoad(dir, mib(statSync(path.join(dir, 'onnx', 'model.onnx')).size));
    const config = JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8'));
    const h = config.hidden_size;
    const kv = (h / config.num_attention_heads) * config.num_key_value_heads;
    const parameters = config.vocab_size * h + h + config.num_hidden_layers * (2 * h * h + 2 * h * kv + h + 2 * kv + 3 * h * config.intermediate_size + 2 * h);
    const modes: GenerationModeResult[] = [];
    let loadSeconds = 0;
    const ways = {
      oneAtATime: { generateBatchSize: 1, sharePrefix: false },
      batched: {},
    } as const;
    type Way = keyof typeof ways;
    const fromData = data ? await multilokoRequests(data, items, maxNewTokens) : undefined;
    const itemSource = fromData ? `MultiLoKo Italian dev items (${path.basename(data!)}), dataset few-shot` : 'Italian questions written for this bench (no MultiLoKo data found)';
    const workloads = (['base', 'chat'] as const).map((mode) => ({ mode, requests: fromData ? fromData[mode] : requestsFor(mode, items, maxNewTokens) }));
    if (workloads[0]!.requests.length < items) throw new Error(`generation: only ${workloads[0]!.requests.length} items available, ${items} asked`);
    console.log(`generation: ${items} items: ${itemSource}`);
    // BENCH_GENERATION_TRANSFORMERS=0 leaves out the in-process transformers: part (one at a time costs ~15 s an item)
    const withTransformers = env.BENCH_GENERATION_TRANSFORMERS !== '0';
    const llamaWays = llamaBenchWays(env);
    if (llamaWays.length && !existsSync(path.join(dir, 'model.gguf')))
      throw new Error(`generation: ${dir} has no model.gguf for the llama: part: npm run make:tiny-model -- ${dir} --shape qwen2.5-0.5b-instruct --tokenizer qwen2.5 --format gguf, or BENCH_GENERATION_LLAMA_WAYS=`);
    llama = llamaWays.length ? new LlamaGenerationBench(dir, workloads, llamaWays, threads) : undefined;
    // BENCH_GENERATION_DTYPE_WAYS picks the dtype part's ways (bench/dtypeGeneration.ts) or, empty, leaves it out
    const dtypeWays = dtypeBenchWays(env);
    dtypes = dtypeWays.length ? new DtypeGenerationBench(dir, workloads, dtypeWays, threads) : undefined;
    dtypes?.prepare();
    // BENCH_HF_PYTHON: the Hugging Face peer; BENCH_HF_PROCESS_ITEMS (default 16) base items in each whole-process run,
    // BENCH_HF_BATCH_SIZE (default 8, our provider's generateBatchSize) the peer's batch size
    const hfPython = env.BENCH_HF_PYTHON?.trim();
    if (hfPython) {
      HfPeerBench.check(hfPython);
      const processItems = Number(env.BENCH_HF_PROCESS_ITEMS ?? 16);
      const processRequests = fromData ? (await multilokoRequests(data!, processItems, maxNewTokens)).base : requestsFor('base', processItems, maxNewTokens);
      peer = new HfPeerBench({ python: hfPython, dir, workloads, processRequests, threads: peerThreads(threads), batchSize: Number(env.BENCH_HF_BATCH_SIZE ?? 8) });
      await peer.runFirst();
    }
    const seconds: Record<string, number[]> = {};
    const texts: Record<string, string[][]> = {};
    const itemSeconds: Record<string, number[]> = {};
    const stats: Record<string, { promptTokens: number; computed: number; generated: number; hits: number; misses: number; fallbacks: number; largest: number }> = {};
    const peaks: Record<string, number> = {};
    const directSeconds: Record<string, number[]> = {};
    const directTexts: Record<string, string[]> = {};
    // One provider (one loaded model) at a time, both workloads on it; the order of the two ways alternates by round.
    for (let round = 0; round < rounds; round++) {
      const order: Way[] = !withTransformers ? [] : round % 2 === 0 ? ['oneAtATime', 'batched'] : ['batched', 'oneAtATime'];
      // the llama: part (its own processes) before the transformers: part on odd rounds, after it on even ones
      if (llama && round % 2 === 1) await llama.runRound(round, rounds);
      if (dtypes && round % 2 === 1) dtypes.runRound(round, rounds);
      if (peer && round % 2 === 1) peer.runRound(round, rounds);
      let providerThreads = threads;
      for (const way of order) {
        const provider = new TransformersProvider(dir, { env: {}, threads, ...ways[way] });
        try {
          const t = performance.now();
          await provider.load();
          providerThreads = provider.threads;
          loadSeconds = Math.max(loadSeconds, (performance.now() - t) / 1000);
          for (const { mode, requests } of workloads) {
            const key = `${mode}/${way}`;
            const before = { ...provider.generationStats };
            const started = performance.now();
            const { value, peakMiB } = await withPeakRss(async () => {
              if (way === 'batched') return Promise.all(requests.map((r) => provider.generate([r]).then((x) => x[0]!)));
              const out = [];
              for (const r of requests) out.push((await provider.generate([r]))[0]!);
              return out;
            });
            const elapsed = (performance.now() - started) / 1000;
            (seconds[key] ??= []).push(elapsed);
            (texts[key] ??= []).push(value.map((r) => r.text));
            if (way === 'oneAtATime') itemSeconds[`${mode}/${round}`] = value.map((r) => r.latencyMs / 1000);
            peaks[key] = Math.max(peaks[key] ?? 0, peakMiB);
            const after = provider.generationStats;
            stats[key] = {
              promptTokens: after.promptTokens - before.promptTokens,
              computed: after.promptTokensComputed - before.promptTokensComputed,
              generated: after.generatedTokens - before.generatedTokens,
              hits: after.prefixHits - before.prefixHits,
              misses: after.prefixMisses - before.prefixMisses,
              fallbacks: after.prefixFallbacks - before.prefixFallbacks,
              largest: after.largestBatch,
            };
            console.log(`generation: round ${round + 1}/${rounds}, ${mode} mode, ${way === 'batched' ? 'batched + prefix reuse' : 'one at a time'}: ${items} items in ${elapsed.toFixed(1)} s (${(items / elapsed).toFixed(3)} items/s)`);
          }
        } finally {
          await provider.close();
        }
        // the direct loop right after one at a time, on the same first items: the two see the same machine load
        if (way === 'oneAtATime') {
          for (const { mode, requests } of workloads) {
            // on the threads the provider ran with, so the loop differs from it in nothing but the code around the runs
            const direct = await directLoop(dir, requests.slice(0, directItems), providerThreads);
            const directTotal = direct.seconds.reduce((a, b) => a + b, 0);
            (directSeconds[mode] ??= []).push(directTotal);
            directTexts[mode] = direct.texts;
            const ours = itemSeconds[`${mode}/${round}`]!.slice(0, directItems).reduce((a, b) => a + b, 0);
            const same = direct.texts.every((t, i) => t === texts[`${mode}/oneAtATime`]!.at(-1)![i]);
            console.log(
              `generation: round ${round + 1}/${rounds}, ${mode} mode, direct onnxruntime loop: ${directItems} items in ${directTotal.toFixed(1)} s ` +
                `(our one at a time on them ${ours.toFixed(1)} s: ${(directTotal / ours).toFixed(2)}x of its speed; outputs ${same ? 'identical' : 'DIFFER'})`,
            );
          }
        }
      }
      if (peer && round % 2 === 0) peer.runRound(round, rounds);
      if (llama && round % 2 === 0) await llama.runRound(round, rounds);
      if (dtypes && round % 2 === 0) dtypes.runRound(round, rounds);
    }
    for (const { mode } of withTransformers ? workloads : []) {
      const oursSeconds = median(Array.from({ length: rounds }, (_, r) => itemSeconds[`${mode}/${r}`]!.slice(0, directItems).reduce((a, b) => a + b, 0)));
      const direct = { texts: directTexts[mode]!, seconds: median(directSeconds[mode]!) };
      const one = `${mode}/oneAtATime`;
      const bat = `${mode}/batched`;
      let differing = 0;
      for (let r = 0; r < rounds; r++) texts[bat]![r]!.forEach((t, i) => (differing += t === texts[one]![0]![i] && texts[one]![r]![i] === t ? 0 : 1));
      const oneRate = items / median(seconds[one]!);
      const batRate = items / median(seconds[bat]!);
      modes.push({
        mode,
        items,
        oneAtATimeItemsPerSecond: oneRate,
        batchedItemsPerSecond: batRate,
        ratio: batRate / oneRate,
        oneAtATimeSeconds: seconds[one]!,
        batchedSeconds: seconds[bat]!,
        promptTokensPerItem: stats[one]!.promptTokens / items,
        oneAtATimePromptTokensComputedPerItem: stats[one]!.computed / items,
        batchedPromptTokensComputedPerItem: stats[bat]!.computed / items,
        generatedTokensPerItem: stats[bat]!.generated / items,
        prefixHits: stats[bat]!.hits,
        prefixMisses: stats[bat]!.misses,
        prefixFallbacks: stats[bat]!.fallbacks,
        largestBatch: stats[bat]!.largest,
        identical: differing === 0,
        differing,
        oneAtATimeTexts: texts[one]![0]!,
        direct: {
          items: directItems,
          itemsPerSecond: directItems / direct.seconds,
          oursItemsPerSecond: directItems / oursSeconds,
          oursOverDirect: direct.seconds / oursSeconds,
          identical: direct.texts.every((t, i) => t === texts[one]![0]![i]),
        },
        oneAtATimePeakRssMiB: peaks[one]!,
        batchedPeakRssMiB: peaks[bat]!,
      });
    }
    const result: GenerationBenchResult = {
      itemSource,
      parameters,
      onnxMiB: mib(statSync(path.join(dir, 'onnx', 'model.onnx')).size),
      buildSeconds,
      loadSeconds,
      rounds,
      maxNewTokens,
      modes,
      peakRssMiB: peakRssMiB(),
      load,
      llama,
      dtypes,
      peer,
    };
    printGenerationBench(result);
    return result;
  } finally {
    llama?.close();
    dtypes?.close();
    peer?.close();
    if (tempRoot) rmSync(tempRoot, { recursive: true, force: true });
  }
}

export function printGenerationBench(r: GenerationBenchResult): void {
  const f = (x: number, d = 3) => x.toFixed(d);
  console.log(
    `generation: ${r.itemSource}; ${(r.parameters / 1e6).toFixed(1)}M-parameter Qwen2.5-0.5B shape (fp32, ${r.onnxMiB.toFixed(0)} MiB), real Qwen2.5 tokenizer; ` +
      `${r.maxNewTokens} new tokens at most; medians of ${r.rounds} alternating round(s); model load ${r.loadSeconds.toFixed(1)} s; peak RSS ${r.peakRssMiB.toFixed(0)} MiB`,
  );
  if (r.load) printLoadBench(r.load);
  for (const m of r.modes) {
    console.log(
      `generation ${m.mode}: one at a time ${f(m.oneAtATimeItemsPerSecond)} items/s, batched + prefix reuse ${f(m.batchedItemsPerSecond)} items/s → ${f(m.ratio, 2)}x ` +
        `(goal ≥ ${m.mode === 'base' ? 3 : 1.8}x); prompt tokens per item ${f(m.promptTokensPerItem, 1)}, computed per item ${f(m.oneAtATimePromptTokensComputedPerItem, 1)} vs ${f(m.batchedPromptTokensComputedPerItem, 1)}; ` +
        `generated ${f(m.generatedTokensPerItem, 1)} per item; prefix hits ${m.prefixHits}, misses ${m.prefixMisses}, fallbacks ${m.prefixFallbacks}; largest batch ${m.largestBatch}; ` +
        `outputs ${m.identical ? 'identical' : `DIFFER in ${m.differing} item-rounds`}; peak RSS ${m.oneAtATimePeakRssMiB.toFixed(0)} vs ${m.batchedPeakRssMiB.toFixed(0)} MiB`,
    );
    console.log(
      `generation ${m.mode}: direct onnxruntime loop (one sequence, KV cache) over ${m.direct.items} items ${f(m.direct.itemsPerSecond)} items/s; ` +
        `our one at a time on the same items ${f(m.direct.oursItemsPerSecond)} items/s = ${f(m.direct.oursOverDirect, 2)}x of it; outputs ${m.direct.identical ? 'identical' : 'DIFFER'}`,
    );
  }
  r.llama?.print();
  r.dtypes?.print();
  r.peer?.print(oursFigures(r));
}

/** Our in-process figures, as the Hugging Face peer's print and rows read them. */
function oursFigures(r: GenerationBenchResult): OursFigures {
  const mode = (name: string) => r.modes.find((m) => m.mode === name);
  return {
    itemsPerSecond: (name, way) => (way === 'batched' ? mode(name)?.batchedItemsPerSecond : mode(name)?.oneAtATimeItemsPerSecond),
    texts: (name) => mode(name)?.oneAtATimeTexts,
  };
}

/** Rows for the summary table of bench/run.ts: batched vs one at a time per mode, and ours vs the direct loop. */
export function generationBenchRows(r: GenerationBenchResult): Array<{ benchmark: string; subject: string; baseline: string; ratio: number; ratioLabel?: string; goal: string }> {
  const model = `${(r.parameters / 1e6).toFixed(0)}M Qwen2.5-0.5B shape, real tokenizer`;
  return [...(r.load ? loadBenchRows(r.load) : []), ...r.modes.flatMap((m) => [
    {
      benchmark: `generation, ${m.items} Italian items, ${m.mode} mode, ${model}: batched + prefix reuse`,
      subject: `${m.batchedItemsPerSecond.toFixed(3)} items/s`,
      baseline: `one at a time ${m.oneAtATimeItemsPerSecond.toFixed(3)} items/s`,
      ratio: m.ratio,
      goal: `≥ ${m.mode === 'base' ? 3 : 1.8}x, identical outputs (${m.identical ? 'yes' : 'NO'})`,
    },
    {
      benchmark: `generation, ${m.mode} mode, one at a time (${m.direct.items} items) vs a direct onnxruntime loop`,
      subject: `${m.direct.oursItemsPerSecond.toFixed(3)} items/s`,
      baseline: `direct loop ${m.direct.itemsPerSecond.toFixed(3)} items/s`,
      ratio: m.direct.oursOverDirect,
      goal: '(cost of the layers above the runtime)',
    },
  ]), ...(r.llama?.rows() ?? []), ...(r.dtypes?.rows() ?? []), ...(r.peer?.rows(oursFigures(r)) ?? [])];
}
