// The Hugging Face peer of `npm run bench -- generation` (BENCH_HF_PYTHON: a Python with torch, transformers and onnx):
// bench/hf_peer.py runs Hugging Face transformers + PyTorch (CPU) on the weights of our ONNX file, driven as
// lm-evaluation-harness's `hf` backend drives generate_until, each run a process of its own. First, one process maps
// the ONNX weights and saves them as a Hugging Face checkpoint (its logits checked against onnxruntime's on our file);
// then, round by round in alternation with ours: the peer's generation (base and chat, one at a time and batched), and
// a whole 16-item process of each side (spawn to exit: start-up, load from the cached form, generation, exit; ours on
// the compiled package, as users run it).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AutoTokenizer } from '@huggingface/transformers';
import * as ort from 'onnxruntime-node';
import { z } from 'zod';
import type { GenerateRequest } from '../src/models/types.ts';
import { ensureBuild } from './distBuild.ts';
import type { GenerationRunJob, GenerationRunResult } from './generationRun.ts';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** What bench/hf_peer.py writes (the edge: checked, not trusted). */
export const PeerResultSchema = z.object({
  importSeconds: z.number(),
  loadKind: z.enum(['mapped', 'checkpoint']),
  loadSeconds: z.number(),
  saveSeconds: z.number(),
  tokenizerSeconds: z.number(),
  loadRssMiB: z.number(),
  logitsShape: z.array(z.number().int()).nullable(),
  modes: z.array(
    z.object({
      mode: z.enum(['base', 'chat']),
      way: z.enum(['oneAtATime', 'batched']),
      seconds: z.number(),
      cpuSeconds: z.number(),
      texts: z.array(z.string()),
      promptTokens: z.number().int(),
      generatedTokens: z.number().int(),
      largestBatch: z.number().int(),
    }),
  ),
  peakRssMiB: z.number(),
  threads: z.number().int(),
  versions: z.record(z.string(), z.string()),
});
export type PeerResult = z.infer<typeof PeerResultSchema>;

export type PeerWay = 'oneAtATime' | 'batched';
type Workload = { mode: 'base' | 'chat'; requests: GenerateRequest[] };

/** One whole process of either side: wall seconds from spawn to exit, its load, peak RSS and texts. */
export interface WholeProcess {
  seconds: number;
  loadSeconds: number;
  loadKind: string;
  peakRssMiB: number;
  texts: string[];
}

/** Largest |a − b| over two equally long arrays. */
export function maxAbsDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`maxAbsDifference: lengths ${a.length} and ${b.length} differ`);
  let worst = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i]! - b[i]!);
    if (Number.isNaN(d)) return NaN; // a NaN logit fails any tolerance
    if (d > worst) worst = d;
  }
  return worst;
}

/** How many of `texts` equal `reference` item by item. */
export function identicalCount(texts: readonly string[], reference: readonly string[]): number {
  return texts.filter((t, i) => t === reference[i]).length;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const f = (x: number, d = 3) => x.toFixed(d);

/** Logits of our ONNX file on `ids` (one sequence, no past), from onnxruntime-node: [ids.length, vocab], row-major. */
async function onnxLogits(dir: string, ids: number[], threads: number): Promise<Float32Array> {
  const config = JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8'));
  const session = await ort.InferenceSession.create(path.join(dir, 'onnx', 'model.onnx'), { intraOpNumThreads: threads });
  try {
    const kvHeads: number = config.num_key_value_heads;
    const headDim: number = config.hidden_size / config.num_attention_heads;
    const feeds: Record<string, ort.Tensor> = {
      input_ids: new ort.Tensor('int64', BigInt64Array.from(ids.map(BigInt)), [1, ids.length]),
      attention_mask: new ort.Tensor('int64', new BigInt64Array(ids.length).fill(1n), [1, ids.length]),
      position_ids: new ort.Tensor('int64', BigInt64Array.from(ids.map((_, i) => BigInt(i))), [1, ids.length]),
    };
    for (let l = 0; l < config.num_hidden_layers; l++)
      for (const kind of ['key', 'value']) feeds[`past_key_values.${l}.${kind}`] = new ort.Tensor('float32', new Float32Array(0), [1, kvHeads, 0, headDim]);
    const out = await session.run(feeds, ['logits']);
    return Float32Array.from(out.logits!.data as Float32Array);
  } finally {
    await session.release();
  }
}

export interface HfPeerBenchOptions {
  python: string;
  dir: string;
  /** The generation workloads (the same requests ours runs). */
  workloads: Workload[];
  /** The requests of the whole-process comparison (16 base-mode items), run batched by both sides. */
  processRequests: GenerateRequest[];
  /** CPU threads of both sides (torch.set_num_threads; onnxruntime's intra-op threads). */
  threads: number;
  /** The peer's batch size when batched (lm-evaluation-harness's --batch_size): our provider's generateBatchSize. */
  batchSize: number;
}

export class HfPeerBench {
  /** The mapping check: max |logit difference| over every position of the prompt, and the prompt's length. */
  logits?: { maxAbsDifference: number; tokens: number; vocab: number; maxAbsLogit: number };
  first?: { peer: PeerResult; peerProcess: WholeProcess; ours: WholeProcess };
  /** The peer's generation process of each round. */
  readonly generation: PeerResult[] = [];
  readonly wholeProcess: { ours: WholeProcess[]; peer: WholeProcess[] } = { ours: [], peer: [] };
  private readonly temp = mkdtempSync(path.join(tmpdir(), 'lokal-bench-hf-'));
  private readonly checkpoint = path.join(this.temp, 'hf-checkpoint');
  private readonly ortCache = path.join(this.temp, 'ort-cache');

  constructor(private readonly options: HfPeerBenchOptions) {
    // our whole process runs the compiled package
    ensureBuild();
  }

  /** The peer's Python has torch, transformers and onnx, or an error naming what is missing. */
  static check(python: string): void {
    const probe = spawnSync(python, ['-c', 'import torch, transformers, onnx; print(torch.__version__, transformers.__version__, onnx.__version__)'], { encoding: 'utf8' });
    if (probe.status !== 0)
      throw new Error(`BENCH_HF_PYTHON=${python}: cannot import torch, transformers and onnx (${(probe.error?.message ?? probe.stderr).trim().split('\n').at(-1)}); see docs/performance-models.md for the venv`);
    console.log(`generation: Hugging Face peer ${python}: torch, transformers, onnx ${probe.stdout.trim()}`);
  }

  /** One peer process; its result, and wall seconds from spawn to exit. */
  private runPeer(workloads: Workload[], ways: PeerWay[], logitsIds?: number[]): { result: PeerResult; seconds: number; logitsFile?: string } {
    const jobFile = path.join(this.temp, 'peer-job.json');
    const resultFile = path.join(this.temp, 'peer-result.json');
    const logitsFile = logitsIds ? path.join(this.temp, 'peer-logits.f32') : undefined;
    const { dir, threads, batchSize } = this.options;
    writeFileSync(jobFile, JSON.stringify({ dir, checkpoint: this.checkpoint, threads, batchSize, ways, workloads, ...(logitsIds ? { logits: { ids: logitsIds, out: logitsFile } } : {}) }));
    const started = performance.now();
    const run = spawnSync(this.options.python, [path.join(repoRoot, 'bench/hf_peer.py'), jobFile, resultFile], { cwd: repoRoot, encoding: 'utf8', maxBuffer: 1 << 26, env: { ...process.env, TOKENIZERS_PARALLELISM: 'false' } });
    const seconds = (performance.now() - started) / 1000;
    if (run.status !== 0) throw new Error(`generation: the Hugging Face peer failed (${run.status ?? run.signal}): ${(run.stderr || run.stdout || run.error?.message || '').slice(-3000)}`);
    const parsed = PeerResultSchema.safeParse(JSON.parse(readFileSync(resultFile, 'utf8')));
    if (!parsed.success) throw new Error(`generation: ${resultFile} from bench/hf_peer.py: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    rmSync(resultFile);
    return { result: parsed.data, seconds, logitsFile };
  }

  /** One whole process of ours (bench/wholeProcessRun.mjs on the compiled package, transformers: batched), spawn to exit. */
  private runOurs(requests: GenerateRequest[]): WholeProcess {
    const job: GenerationRunJob = { dir: this.options.dir, way: { engine: 'transformers', way: 'batched' }, threads: this.options.threads, cacheDir: this.ortCache, workloads: [{ mode: 'base', requests }] };
    const jobFile = path.join(this.temp, 'ours-job.json');
    const resultFile = path.join(this.temp, 'ours-result.json');
    writeFileSync(jobFile, JSON.stringify(job));
    const started = performance.now();
    const run = spawnSync(process.execPath, [path.join(repoRoot, 'bench/wholeProcessRun.mjs'), jobFile, resultFile], { cwd: repoRoot, encoding: 'utf8', maxBuffer: 1 << 26 });
    const seconds = (performance.now() - started) / 1000;
    if (run.status !== 0) throw new Error(`generation: our whole-process run failed (${run.status ?? run.signal}): ${(run.stderr || run.stdout).slice(-3000)}`);
    const result = JSON.parse(readFileSync(resultFile, 'utf8')) as GenerationRunResult;
    rmSync(resultFile);
    return { seconds, loadSeconds: result.loadSeconds, loadKind: result.loadKind ?? 'unknown', peakRssMiB: result.peakRssMiB, texts: result.modes[0]!.texts };
  }

  private peerProcess(run: { result: PeerResult; seconds: number }): WholeProcess {
    const r = run.result;
    return { seconds: run.seconds, loadSeconds: r.loadSeconds + r.saveSeconds + r.tokenizerSeconds, loadKind: r.loadKind, peakRssMiB: r.peakRssMiB, texts: r.modes[0]!.texts };
  }

  /**
   * First loads of both sides (the peer maps our ONNX weights and saves its checkpoint; ours optimises and saves its
   * graph), each a whole 16-item process; the peer's logits on the first base prompt (at most 64 tokens) are checked
   * against onnxruntime's on our ONNX file.
   */
  async runFirst(): Promise<void> {
    const { dir, threads, processRequests } = this.options;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const tokenizer: any = await AutoTokenizer.from_pretrained(dir);
    const first = processRequests[0]!;
    const text = first.prompt ?? (tokenizer.apply_chat_template(first.messages, { add_generation_prompt: true, tokenize: false }) as string);
    const ids = (tokenizer.encode(text, { add_special_tokens: false }) as number[]).slice(0, 64).map(Number);
    const peerRun = this.runPeer([{ mode: 'base', requests: processRequests }], ['batched'], ids);
    const ours = this.runOurs(processRequests);
    const peerLogits = new Float32Array(readFileSync(peerRun.logitsFile!).buffer.slice(0));
    const ortLogits = await onnxLogits(dir, ids, threads);
    const vocab = ortLogits.length / ids.length;
    const [rows, cols] = peerRun.result.logitsShape ?? [];
    if (rows !== ids.length || cols !== vocab) throw new Error(`generation: the peer's logits are [${rows}, ${cols}], onnxruntime's [${ids.length}, ${vocab}]: the weight mapping is wrong`);
    this.logits = { maxAbsDifference: maxAbsDifference(peerLogits, ortLogits), tokens: ids.length, vocab, maxAbsLogit: maxAbsDifference(ortLogits, new Float32Array(ortLogits.length)) };
    console.log(
      `generation: Hugging Face peer's logits on ${ids.length} prompt tokens vs onnxruntime's on our ONNX file: max |difference| ${this.logits.maxAbsDifference.toExponential(2)} ` +
        `(largest |logit| ${f(this.logits.maxAbsLogit, 2)})`,
    );
    if (!(this.logits.maxAbsDifference <= LOGITS_TOLERANCE))
      throw new Error(`generation: the Hugging Face peer's logits differ from onnxruntime's by ${this.logits.maxAbsDifference} (> ${LOGITS_TOLERANCE}): the weight mapping in bench/hf_peer.py is wrong`);
    this.first = { peer: peerRun.result, peerProcess: this.peerProcess(peerRun), ours };
    const p = peerRun.result;
    console.log(
      `generation: first loads: peer mapped our ONNX weights in ${f(p.loadSeconds, 2)} s + saved its checkpoint in ${f(p.saveSeconds, 2)} s (imports ${f(p.importSeconds, 2)} s), ` +
        `whole ${processRequests.length}-item process ${f(peerRun.seconds, 1)} s; ours (${ours.loadKind}) load ${f(ours.loadSeconds, 2)} s, whole process ${f(ours.seconds, 1)} s`,
    );
  }

  /** One round: the peer's generation process, then the whole-process pair (order alternating by round). */
  runRound(round: number, rounds: number): void {
    const run = this.runPeer(this.options.workloads, ['oneAtATime', 'batched']);
    this.generation.push(run.result);
    const r = run.result;
    for (const m of r.modes)
      console.log(
        `generation: round ${round + 1}/${rounds}, ${m.mode} mode, Hugging Face peer ${m.way === 'batched' ? `batched (${this.options.batchSize})` : 'one at a time'}: ` +
          `${m.texts.length} items in ${f(m.seconds, 1)} s (${f(m.texts.length / m.seconds)} items/s; CPU ${f(m.cpuSeconds, 1)} s)`,
      );
    console.log(`generation: round ${round + 1}/${rounds}, Hugging Face peer process: imports ${f(r.importSeconds, 2)} s, load (${r.loadKind}) ${f(r.loadSeconds + r.tokenizerSeconds, 2)} s, peak RSS ${r.peakRssMiB.toFixed(0)} MiB, whole ${f(run.seconds, 1)} s`);
    const sides = [
      { name: 'ours', run: () => this.wholeProcess.ours.push(this.runOurs(this.options.processRequests)) },
      { name: 'peer', run: () => this.wholeProcess.peer.push(this.peerProcess(this.runPeer([{ mode: 'base', requests: this.options.processRequests }], ['batched']))) },
    ];
    for (const side of round % 2 ? [...sides].reverse() : sides) side.run();
    const ours = this.wholeProcess.ours.at(-1)!;
    const peer = this.wholeProcess.peer.at(-1)!;
    console.log(
      `generation: round ${round + 1}/${rounds}, whole ${this.options.processRequests.length}-item base-mode process (spawn to exit, batched): ours ${f(ours.seconds, 1)} s ` +
        `(load ${ours.loadKind} ${f(ours.loadSeconds, 2)} s, peak RSS ${ours.peakRssMiB.toFixed(0)} MiB) vs peer ${f(peer.seconds, 1)} s (load ${f(peer.loadSeconds, 2)} s, peak RSS ${peer.peakRssMiB.toFixed(0)} MiB)`,
    );
  }

  /** The peer's items/s in a mode and way, median over rounds. */
  itemsPerSecond(mode: string, way: PeerWay): number | undefined {
    const seconds = this.generation.flatMap((r) => r.modes.filter((m) => m.mode === mode && m.way === way).map((m) => m.seconds));
    const items = this.options.workloads.find((w) => w.mode === mode)?.requests.length;
    return seconds.length && items ? items / median(seconds) : undefined;
  }

  /** Peer texts (first round) of a mode and way. */
  texts(mode: string, way: PeerWay): string[] | undefined {
    return this.generation[0]?.modes.find((m) => m.mode === mode && m.way === way)?.texts;
  }

  print(ours: OursFigures): void {
    for (const { mode } of this.options.workloads)
      for (const way of ['oneAtATime', 'batched'] as const) {
        const peer = this.itemsPerSecond(mode, way);
        const mine = ours.itemsPerSecond(mode, way);
        const reference = ours.texts(mode);
        const texts = this.texts(mode, way);
        if (peer === undefined) continue;
        console.log(
          `generation peer, ${mode} mode, ${way === 'batched' ? 'batched' : 'one at a time'}: Hugging Face ${f(peer)} items/s` +
            (mine === undefined ? '' : `, ours ${f(mine)} items/s (${f(mine / peer, 2)}x)`) +
            (texts && reference ? `; greedy outputs identical to our one at a time: ${identicalCount(texts, reference)}/${reference.length}` : ''),
        );
      }
    const w = this.wholeProcess;
    if (w.ours.length)
      console.log(
        `generation peer: whole ${this.options.processRequests.length}-item process: ours ${w.ours.map((x) => f(x.seconds, 1)).join(', ')} s vs peer ${w.peer.map((x) => f(x.seconds, 1)).join(', ')} s; ` +
          `load ours ${w.ours.map((x) => f(x.loadSeconds, 2)).join(', ')} s vs peer ${w.peer.map((x) => f(x.loadSeconds, 2)).join(', ')} s; ` +
          `peak RSS ours ${w.ours.map((x) => x.peakRssMiB.toFixed(0)).join(', ')} vs peer ${w.peer.map((x) => x.peakRssMiB.toFixed(0)).join(', ')} MiB; ` +
          `answers identical ${w.ours.map((x, i) => `${identicalCount(w.peer[i]!.texts, x.texts)}/${x.texts.length}`).join(', ')}`,
      );
  }

  /** Summary rows for bench/run.ts: peer ÷ ours (a speed-up) for load, items/s per mode and way, whole process, RSS. */
  rows(ours: OursFigures): Array<{ benchmark: string; subject: string; baseline: string; ratio: number; ratioLabel?: string; goal: string }> {
    const out: Array<{ benchmark: string; subject: string; baseline: string; ratio: number; ratioLabel?: string; goal: string }> = [];
    const peerName = 'HF transformers + PyTorch';
    if (this.first) {
      const o = this.first.ours;
      const p = this.first.peerProcess;
      out.push({ benchmark: 'vs HF peer: first load (ours optimised + saved; peer mapped from ONNX + saved)', subject: `${f(o.loadSeconds, 2)} s (${o.loadKind})`, baseline: `${peerName} ${f(p.loadSeconds, 2)} s`, ratio: p.loadSeconds / o.loadSeconds, goal: '(once per model)' });
    }
    const w = this.wholeProcess;
    if (w.ours.length) {
      const load = { ours: median(w.ours.map((x) => x.loadSeconds)), peer: median(w.peer.map((x) => x.loadSeconds)) };
      const imports = median(this.generation.map((r) => r.importSeconds));
      out.push({ benchmark: 'vs HF peer: cached load (ours saved graph; peer from_pretrained checkpoint)', subject: `${f(load.ours, 2)} s (${w.ours.at(-1)!.loadKind})`, baseline: `${peerName} ${f(load.peer, 2)} s (+ imports ${f(imports, 2)} s)`, ratio: load.peer / load.ours, goal: 'ours ≤ 4 s' });
      const items = this.options.processRequests.length;
      const whole = { ours: median(w.ours.map((x) => x.seconds)), peer: median(w.peer.map((x) => x.seconds)) };
      const perRound = w.ours.map((x, i) => w.peer[i]!.seconds / x.seconds);
      out.push({ benchmark: `vs HF peer: whole ${items}-item base-mode process, spawn to exit, batched`, subject: `${f(whole.ours, 1)} s`, baseline: `${peerName} ${f(whole.peer, 1)} s`, ratio: median(perRound), goal: '≥ 3x' });
      const rss = { ours: Math.max(...w.ours.map((x) => x.peakRssMiB)), peer: Math.max(...w.peer.map((x) => x.peakRssMiB)) };
      out.push({ benchmark: `vs HF peer: peak RSS of the ${items}-item process`, subject: `${rss.ours.toFixed(0)} MiB`, baseline: `${peerName} ${rss.peer.toFixed(0)} MiB`, ratio: rss.peer / rss.ours, ratioLabel: `${f(rss.ours / rss.peer, 2)}x the peer's`, goal: 'ours ≤ 3.0 GB' });
    }
    for (const { mode, requests } of this.options.workloads)
      for (const way of ['oneAtATime', 'batched'] as const) {
        const peer = this.itemsPerSecond(mode, way);
        const mine = ours.itemsPerSecond(mode, way);
        if (peer === undefined || mine === undefined) continue;
        const reference = ours.texts(mode);
        const texts = this.texts(mode, way);
        const same = texts && reference ? `, identical ${identicalCount(texts, reference)}/${reference.length}` : '';
        const label = way === 'batched' ? `batched (ours + prefix reuse; peer batch ${this.options.batchSize})` : 'one at a time';
        out.push({ benchmark: `vs HF peer: generation, ${requests.length} items, ${mode} mode, ${label}`, subject: `${f(mine)} items/s`, baseline: `${peerName} ${f(peer)} items/s`, ratio: mine / peer, goal: `(greedy outputs${same})` });
      }
    return out;
  }

  close(): void {
    rmSync(this.temp, { recursive: true, force: true });
  }
}

/** Ours as the in-process generation part measured it: items/s per mode and way, and our one-at-a-time texts. */
export interface OursFigures {
  itemsPerSecond(mode: string, way: PeerWay): number | undefined;
  texts(mode: string): string[] | undefined;
}

/** The largest |logit difference| accepted between the peer and onnxruntime (fp32 on both sides, different kernels). */
export const LOGITS_TOLERANCE = 1e-3;

/** The thread count both sides use: BENCH_GENERATION_THREADS, else the machine's available parallelism. */
export function peerThreads(threads: number | undefined): number {
  return threads ?? os.availableParallelism();
}
