// The dtype part of `npm run bench -- generation` (the quantised files users download should be fast): the same
// requests on the folder's fp32, q8 (model_quantized.onnx) and q4 (model_q4.onnx) files through `transformers:`,
// one at a time and batched, and on the same weights as GGUF Q8_0 / Q4_0 (model-q8_0.gguf, model-q4_0.gguf) through `llama:` one at a
// time, with 8 sequences and with prefix reuse on one sequence. Each way runs in a process of its own
// (bench/generationRun.ts: its own load time and peak RSS); the ONNX graphs are optimised and saved once before the
// rounds, so every timed load is a load from the saved graph. The five dtype goals are printed as met / missed.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ModelDtype } from '../src/models/dtypeFiles.ts';
import { weightFiles } from '../src/models/dtypeFiles.ts';
import type { GenerateRequest } from '../src/models/types.ts';
import { runGenerationChild, type GenerationWay } from './generationRun.ts';

export type DtypeWayName =
  | 'ours:fp32:one' | 'ours:fp32:batched' | 'ours:q8:alone' | 'ours:q8:one' | 'ours:q8:batched' | 'ours:q4:one' | 'ours:q4:batched'
  | 'llama:q8_0:one' | 'llama:q8_0:batched' | 'llama:q8_0:reuse' | 'llama:q4_0:one' | 'llama:q4_0:batched' | 'llama:q4_0:reuse';

const ONNX_FILES: Record<'fp32' | 'q8' | 'q4', string> = { fp32: 'model.onnx', q8: 'model_quantized.onnx', q4: 'model_q4.onnx' };
const GGUF_FILES: Record<'q8_0' | 'q4_0', string> = { q8_0: 'model-q8_0.gguf', q4_0: 'model-q4_0.gguf' };

const ours = (dtype: 'fp32' | 'q8' | 'q4', way: 'oneAtATime' | 'batched') => ({
  // q8's exact numerics batch per item, prompts whole: no prefix is reused
  label: `ours ${dtype} ${way === 'batched' ? (dtype === 'q8' ? 'batched per item' : 'batched + prefix reuse') : 'one at a time'}`,
  way: { engine: 'transformers', way, dtype: dtype as ModelDtype } as GenerationWay,
  file: `onnx/${ONNX_FILES[dtype]}`,
});
/** q8 through transformers.js's own generate, one request at a time: the exact mode without its per-item batching. */
const q8Alone = {
  label: "ours q8 one at a time through transformers.js's generate",
  way: { engine: 'transformers', way: 'oneAtATime', dtype: 'q8', exactBatching: false } as GenerationWay,
  file: `onnx/${ONNX_FILES.q8}`,
};
const llama = (type: 'q8_0' | 'q4_0', how: 'one' | 'batched' | 'reuse') => ({
  label: `llama.cpp ${type.toUpperCase()} ${how === 'one' ? 'one at a time' : how === 'batched' ? '8 sequences' : '1 sequence + prefix reuse'}`,
  way: {
    engine: 'llama',
    way: how === 'one' ? 'oneAtATime' : 'batched',
    sequences: how === 'batched' ? 8 : 1,
    sharePrefix: how === 'reuse',
    gguf: GGUF_FILES[type],
  } as GenerationWay,
  file: GGUF_FILES[type],
});

/** Every way the dtype part runs: label, how the child runs it, and the file it needs in the model folder. */
export const DTYPE_BENCH_WAYS: Record<DtypeWayName, { label: string; way: GenerationWay; file: string }> = {
  'ours:fp32:one': ours('fp32', 'oneAtATime'),
  'ours:fp32:batched': ours('fp32', 'batched'),
  'ours:q8:alone': q8Alone,
  'ours:q8:one': ours('q8', 'oneAtATime'),
  'ours:q8:batched': ours('q8', 'batched'),
  'ours:q4:one': ours('q4', 'oneAtATime'),
  'ours:q4:batched': ours('q4', 'batched'),
  'llama:q8_0:one': llama('q8_0', 'one'),
  'llama:q8_0:batched': llama('q8_0', 'batched'),
  'llama:q8_0:reuse': llama('q8_0', 'reuse'),
  'llama:q4_0:one': llama('q4_0', 'one'),
  'llama:q4_0:batched': llama('q4_0', 'batched'),
  'llama:q4_0:reuse': llama('q4_0', 'reuse'),
};

/** BENCH_GENERATION_DTYPE_WAYS: comma-separated names of DTYPE_BENCH_WAYS (default all; empty leaves the part out). */
export function dtypeBenchWays(env: NodeJS.ProcessEnv = process.env): DtypeWayName[] {
  const asked = env.BENCH_GENERATION_DTYPE_WAYS?.split(',').map((s) => s.trim()).filter(Boolean);
  if (!asked) return Object.keys(DTYPE_BENCH_WAYS) as DtypeWayName[];
  for (const name of asked)
    if (!(name in DTYPE_BENCH_WAYS)) throw new Error(`BENCH_GENERATION_DTYPE_WAYS: unknown way ${JSON.stringify(name)}; known: ${Object.keys(DTYPE_BENCH_WAYS).join(', ')}`);
  return asked as DtypeWayName[];
}

/** The files the ways need that `dir` lacks (named for the one-line error at the start). */
export function missingDtypeFiles(dir: string, ways: readonly DtypeWayName[]): string[] {
  return [...new Set(ways.map((w) => DTYPE_BENCH_WAYS[w].file))].filter((f) => !existsSync(path.join(dir, f)));
}

interface WayFigures {
  name: DtypeWayName;
  loadSeconds: number[];
  loadKinds: string[];
  numerics?: string;
  peakRssMiB: number[];
  modes: Record<string, { seconds: number[]; texts: string[][] }>;
}

export interface GoalCheck {
  goal: string;
  /** The measured value and what it is compared with; undefined when a way it needs did not run. */
  value?: number;
  target: number;
  /** `≥` or `≤` the target. */
  direction: 'at least' | 'at most';
  detail: string;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const f = (x: number, d = 3) => x.toFixed(d);
const mib = (bytes: number) => bytes / 2 ** 20;

export class DtypeGenerationBench {
  readonly figures: WayFigures[];
  private readonly temp = mkdtempSync(path.join(tmpdir(), 'lokal-bench-dtype-'));
  /** Saved optimised graphs of every ONNX dtype (LOKAL_MODEL_CACHE's role), made before the timed rounds. */
  private readonly cacheDir = path.join(this.temp, 'model-cache');
  /** MiB of the q8 weights (model_quantized.onnx and its external data), read now: a temporary model folder is gone by the summary. */
  private readonly q8WeightsMiB: number | undefined;

  constructor(
    private readonly dir: string,
    private readonly workloads: Array<{ mode: 'base' | 'chat'; requests: GenerateRequest[] }>,
    ways: DtypeWayName[],
    private readonly threads?: number,
  ) {
    const missing = missingDtypeFiles(dir, ways);
    if (missing.length)
      throw new Error(
        `generation: ${dir} lacks ${missing.join(', ')} for the dtype part: npm run make:tiny-model -- ${dir} --shape qwen2.5-0.5b-instruct --tokenizer qwen2.5 ` +
          `--dtypes fp32,q8,q4 --gguf-type f32,q8_0,q4_0, or BENCH_GENERATION_DTYPE_WAYS=`,
      );
    this.figures = ways.map((name) => ({ name, loadSeconds: [], loadKinds: [], peakRssMiB: [], modes: {} }));
    const onnxDir = path.join(dir, 'onnx');
    this.q8WeightsMiB = existsSync(path.join(onnxDir, ONNX_FILES.q8))
      ? mib(weightFiles(onnxDir, ONNX_FILES.q8).reduce((sum, file) => sum + statSync(path.join(onnxDir, file)).size, 0))
      : undefined;
  }

  /**
   * Optimises and saves each ONNX graph the ways load once (a load with no requests), so the timed loads read the
   * saved graph: per dtype, and for q8 with and without the exact mode's per-item batching (two entries).
   */
  prepare(): void {
    const graphs = new Map<string, { dtype?: ModelDtype; exactBatching?: boolean }>();
    for (const w of this.figures.map((x) => DTYPE_BENCH_WAYS[x.name].way)) {
      if (w.engine === 'transformers') graphs.set(`${w.dtype}${w.exactBatching === false ? ' (exact batching off)' : ''}`, { dtype: w.dtype, exactBatching: w.exactBatching });
    }
    for (const [label, { dtype, exactBatching }] of graphs) {
      const result = runGenerationChild(
        { dir: this.dir, way: { engine: 'transformers', way: 'oneAtATime', dtype, ...(exactBatching === undefined ? {} : { exactBatching }) }, threads: this.threads, cacheDir: this.cacheDir, workloads: [] },
        this.temp,
        `saving the optimised ${label} graph`,
      );
      console.log(`generation dtypes: ${label} graph ${result.loadKind === 'optimised' ? 'optimised and saved' : `loaded (${result.loadKind})`} in ${f(result.loadSeconds, 2)} s`);
    }
  }

  /** One round: every way once, in reverse order on odd rounds. */
  runRound(round: number, rounds: number): void {
    const order = round % 2 === 0 ? this.figures : [...this.figures].reverse();
    for (const figures of order) {
      const { label, way } = DTYPE_BENCH_WAYS[figures.name];
      const result = runGenerationChild({ dir: this.dir, way, threads: this.threads, cacheDir: this.cacheDir, workloads: this.workloads }, this.temp, label);
      figures.loadSeconds.push(result.loadSeconds);
      if (result.loadKind) figures.loadKinds.push(result.loadKind);
      figures.numerics = result.numerics ?? figures.numerics;
      figures.peakRssMiB.push(result.peakRssMiB);
      for (const m of result.modes) {
        const slot = (figures.modes[m.mode] ??= { seconds: [], texts: [] });
        slot.seconds.push(m.seconds);
        slot.texts.push(m.texts);
        console.log(
          `generation dtypes: round ${round + 1}/${rounds}, ${m.mode} mode, ${label}${result.numerics ? ` (${result.numerics} numerics)` : ''}: ${m.texts.length} items in ${f(m.seconds, 1)} s ` +
            `(${f(m.texts.length / m.seconds)} items/s); load ${f(result.loadSeconds, 2)} s${result.loadKind ? ` (${result.loadKind})` : ''}; peak RSS ${f(result.peakRssMiB, 0)} MiB`,
        );
      }
    }
  }

  private find(name: DtypeWayName): WayFigures | undefined {
    return this.figures.find((w) => w.name === name && Object.keys(w.modes).length > 0);
  }

  /** items/s of a way in a mode, median over rounds. */
  itemsPerSecond(name: DtypeWayName, mode: string): number | undefined {
    const m = this.find(name)?.modes[mode];
    return m ? m.texts[0]!.length / median(m.seconds) : undefined;
  }

  /** Per-round ratios a ÷ b of items/s (both ran in the same round, under the same load). */
  private roundRatios(a: DtypeWayName, b: DtypeWayName, mode: string): number[] {
    const x = this.find(a)?.modes[mode];
    const y = this.find(b)?.modes[mode];
    return x && y ? x.seconds.map((s, r) => y.seconds[r]! / s) : [];
  }

  /** The fastest llama.cpp way on a GGUF type in a mode (median items/s). */
  private llamaBest(type: 'q8_0' | 'q4_0', mode: string): DtypeWayName | undefined {
    const ways = (['one', 'batched', 'reuse'] as const).map((how) => `llama:${type}:${how}` as DtypeWayName).filter((w) => this.itemsPerSecond(w, mode) !== undefined);
    return ways.sort((a, b) => this.itemsPerSecond(b, mode)! - this.itemsPerSecond(a, mode)!)[0];
  }

  /** The five dtype goals, per mode for the speed ones (ratios are medians of per-round ratios). */
  goals(): GoalCheck[] {
    const checks: GoalCheck[] = [];
    for (const { mode } of this.workloads) {
      const ratio = (a: DtypeWayName, b: DtypeWayName | undefined) => {
        const r = b ? this.roundRatios(a, b, mode) : [];
        return r.length ? median(r) : undefined;
      };
      const best = this.llamaBest('q8_0', mode);
      checks.push(
        { goal: `${mode}: q8 batched ÷ our fp32 batched`, value: ratio('ours:q8:batched', 'ours:fp32:batched'), target: 1.5, direction: 'at least', detail: 'x (median of per-round items/s ratios)' },
        { goal: `${mode}: q8 batched ÷ llama.cpp's best way on Q8_0${best ? ` (${DTYPE_BENCH_WAYS[best].label})` : ''}`, value: ratio('ours:q8:batched', best), target: 2, direction: 'at least', detail: 'x (median of per-round items/s ratios)' },
        { goal: `${mode}: q8 one at a time ÷ llama.cpp Q8_0 one at a time`, value: ratio('ours:q8:one', 'llama:q8_0:one'), target: 0.8, direction: 'at least', detail: 'x (median of per-round items/s ratios)' },
      );
    }
    const q8 = this.figures.filter((w) => w.name.startsWith('ours:q8:') && w.loadSeconds.length);
    const savedLoads = q8.flatMap((w) => w.loadSeconds.filter((_, i) => w.loadKinds[i] === 'saved'));
    checks.push({ goal: 'q8 load from the saved optimised graph', value: savedLoads.length ? median(savedLoads) : undefined, target: 2, direction: 'at most', detail: 's (median)' });
    const weights = this.q8WeightsMiB ?? 0;
    const peak = q8.length && this.q8WeightsMiB !== undefined ? Math.max(...q8.flatMap((w) => w.peakRssMiB)) : undefined;
    const allowance = mib(0.8e9);
    checks.push({
      goal: `q8 peak RSS ÷ (q8 weights ${f(weights, 0)} MiB + 0.8 GB)`,
      value: peak === undefined ? undefined : peak / (weights + allowance),
      target: 1,
      direction: 'at most',
      detail: peak === undefined ? '' : `x (peak ${f(peak, 0)} MiB)`,
    });
    return checks;
  }

  print(): void {
    const modes = this.workloads.map((w) => w.mode);
    for (const w of this.figures) {
      if (!Object.keys(w.modes).length) continue;
      const per = modes.map((mode) => `${mode} ${f(this.itemsPerSecond(w.name, mode)!)} items/s`);
      const kinds = w.loadKinds.length ? ` (${[...new Set(w.loadKinds)].join(', ')})` : '';
      console.log(
        `generation dtypes: ${DTYPE_BENCH_WAYS[w.name].label}${w.numerics ? ` (${w.numerics} numerics)` : ''}: ${per.join('; ')}; ` +
          `load ${w.loadSeconds.map((s) => f(s, 2)).join(', ')} s${kinds}; peak RSS ${w.peakRssMiB.map((r) => f(r, 0)).join(', ')} MiB`,
      );
    }
    // an item's answer is its own: batched equals one at a time on the same file; and how far each dtype moved from fp32
    for (const mode of modes) {
      const agree = (a: DtypeWayName, b: DtypeWayName) => {
        const x = this.find(a)?.modes[mode]?.texts[0];
        const y = this.find(b)?.modes[mode]?.texts[0];
        return x && y ? `${x.filter((t, i) => t === y[i]).length}/${x.length}` : undefined;
      };
      const pairs: Array<[DtypeWayName, DtypeWayName, string]> = [
        ['ours:fp32:batched', 'ours:fp32:one', 'fp32 batched = one at a time'],
        ['ours:q8:batched', 'ours:q8:one', 'q8 batched = one at a time'],
        ['ours:q8:batched', 'ours:q8:alone', "q8 batched = transformers.js's generate one at a time"],
        ['ours:q4:batched', 'ours:q4:one', 'q4 batched = one at a time'],
        ['ours:q8:one', 'ours:fp32:one', 'q8 = fp32'],
        ['ours:q4:one', 'ours:fp32:one', 'q4 = fp32'],
        ['llama:q8_0:one', 'ours:q8:one', 'llama.cpp Q8_0 = our q8'],
        ['llama:q4_0:one', 'ours:q4:one', 'llama.cpp Q4_0 = our q4'],
      ];
      const parts = pairs.flatMap(([a, b, what]) => {
        const n = agree(a, b);
        return n ? [`${what} ${n}`] : [];
      });
      if (parts.length) console.log(`generation dtypes, ${mode}: greedy answers equal (first round): ${parts.join('; ')}`);
    }
    for (const g of this.goals()) console.log(`generation dtypes goal: ${goalLine(g)}`);
  }

  /** Summary rows for bench/run.ts's table. */
  rows(): Array<{ benchmark: string; subject: string; baseline: string; ratio: number; ratioLabel?: string; goal: string }> {
    const items = this.workloads[0]!.requests.length;
    const rows = this.figures.flatMap((w) =>
      this.workloads.flatMap(({ mode }) => {
        const ips = this.itemsPerSecond(w.name, mode);
        if (ips === undefined) return [];
        return [{
          benchmark: `generation, ${items} items, ${mode} mode: ${DTYPE_BENCH_WAYS[w.name].label}${w.numerics ? ` (${w.numerics} numerics)` : ''}`,
          subject: `${f(ips)} items/s`,
          baseline: `load ${f(median(w.loadSeconds), 2)} s, peak RSS ${f(Math.max(...w.peakRssMiB), 0)} MiB`,
          ratio: NaN,
          ratioLabel: '—',
          goal: '',
        }];
      }),
    );
    for (const g of this.goals())
      rows.push({
        benchmark: `dtype goal: ${g.goal}`,
        subject: g.value === undefined ? 'not run' : g.detail.startsWith('x') ? `${f(g.value, 2)}x` : `${f(g.value, 2)} ${g.detail}`,
        baseline: g.detail.startsWith('x') ? g.detail.slice(1).trim() : '—',
        ratio: g.value ?? NaN,
        ratioLabel: verdict(g),
        goal: `${g.direction === 'at least' ? '≥' : '≤'} ${g.target}`,
      });
    return rows;
  }

  close(): void {
    rmSync(this.temp, { recursive: true, force: true });
  }
}

/** met / missed / not run. */
export function verdict(g: GoalCheck): string {
  if (g.value === undefined || Number.isNaN(g.value)) return 'not run';
  return (g.direction === 'at least' ? g.value >= g.target : g.value <= g.target) ? 'met' : 'missed';
}

export function goalLine(g: GoalCheck): string {
  const value = g.value === undefined ? 'not run (a way it needs was left out)' : `${f(g.value, 2)}${g.detail.startsWith('x') ? '' : ' '}${g.detail}`.trim();
  return `${g.goal}: ${value}; goal ${g.direction === 'at least' ? '≥' : '≤'} ${g.target} → ${verdict(g)}`;
}
