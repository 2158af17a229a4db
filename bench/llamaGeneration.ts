// The `llama:` part of `npm run bench -- generation`: on the same folder's model.gguf (the same weights as its ONNX
// file), the same base and chat requests run by the `llama:` provider one at a time and batched, by llama.cpp driven
// directly through node-llama-cpp's own API, and by `transformers:` batched with prefix reuse, each in a process of its
// own (bench/generationRun.ts: its own load time and peak RSS), in alternating order round by round.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { GenerateRequest } from '../src/models/types.ts';
import { runGenerationChild, type GenerationRunJob, type GenerationWay } from './generationRun.ts';

export type LlamaBenchWayName = 'llama:one' | 'llama:direct' | 'llama:batched' | 'llama:reuse' | 'transformers:batched';

/** Each way the llama part runs, what it is, and how the child runs it. */
export const LLAMA_BENCH_WAYS: Record<LlamaBenchWayName, { label: string; way: GenerationWay }> = {
  'llama:direct': { label: 'node-llama-cpp directly, one at a time', way: { engine: 'llama-direct' } },
  'llama:one': { label: 'llama: one at a time', way: { engine: 'llama', way: 'oneAtATime', sequences: 1, sharePrefix: false } },
  'llama:batched': { label: 'llama: batched, 8 sequences (no prefix reuse)', way: { engine: 'llama', way: 'batched', sequences: 8, sharePrefix: false } },
  'llama:reuse': { label: 'llama: concurrent calls on 1 sequence, prefix reuse', way: { engine: 'llama', way: 'batched', sequences: 1, sharePrefix: true } },
  'transformers:batched': { label: 'transformers: batched + prefix reuse', way: { engine: 'transformers', way: 'batched' } },
};

export interface LlamaWayFigures {
  name: LlamaBenchWayName;
  label: string;
  loadSeconds: number[];
  peakRssMiB: number[];
  /** Per mode: seconds of each round, prompt tokens evaluated of those asked (last round), largest batch. */
  modes: Record<string, { seconds: number[]; cpuSeconds: number[]; itemSeconds: number[][]; texts: string[][]; promptTokens: number; promptTokensComputed: number; generatedTokens: number; largestBatch: number }>;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const f = (x: number, d = 3) => x.toFixed(d);

/** The ways to run: BENCH_GENERATION_LLAMA_WAYS (comma-separated names of LLAMA_BENCH_WAYS), default all. */
export function llamaBenchWays(env: NodeJS.ProcessEnv = process.env): LlamaBenchWayName[] {
  const asked = env.BENCH_GENERATION_LLAMA_WAYS?.split(',').map((s) => s.trim()).filter(Boolean);
  if (!asked) return Object.keys(LLAMA_BENCH_WAYS) as LlamaBenchWayName[];
  for (const name of asked) if (!(name in LLAMA_BENCH_WAYS)) throw new Error(`BENCH_GENERATION_LLAMA_WAYS: unknown way ${JSON.stringify(name)}; known: ${Object.keys(LLAMA_BENCH_WAYS).join(', ')}`);
  return asked as LlamaBenchWayName[];
}

export class LlamaGenerationBench {
  readonly figures: LlamaWayFigures[];
  private readonly temp = mkdtempSync(path.join(tmpdir(), 'lokal-bench-llama-'));

  constructor(
    private readonly dir: string,
    private readonly workloads: Array<{ mode: 'base' | 'chat'; requests: GenerateRequest[] }>,
    ways: LlamaBenchWayName[],
    private readonly threads?: number,
  ) {
    this.figures = ways.map((name) => ({ name, label: LLAMA_BENCH_WAYS[name].label, loadSeconds: [], peakRssMiB: [], modes: {} }));
  }

  /** One round: every way once, in reverse order on odd rounds. */
  async runRound(round: number, rounds: number): Promise<void> {
    const order = round % 2 === 0 ? this.figures : [...this.figures].reverse();
    for (const figures of order) {
      const job: GenerationRunJob = { dir: this.dir, way: LLAMA_BENCH_WAYS[figures.name].way, threads: this.threads, workloads: this.workloads };
      const result = runGenerationChild(job, this.temp, figures.label);
      figures.loadSeconds.push(result.loadSeconds);
      figures.peakRssMiB.push(result.peakRssMiB);
      for (const m of result.modes) {
        const slot = (figures.modes[m.mode] ??= { seconds: [], cpuSeconds: [], itemSeconds: [], texts: [], promptTokens: 0, promptTokensComputed: 0, generatedTokens: 0, largestBatch: 0 });
        slot.seconds.push(m.seconds);
        slot.cpuSeconds.push(m.cpuSeconds);
        slot.itemSeconds.push(m.itemSeconds);
        slot.texts.push(m.texts);
        Object.assign(slot, { promptTokens: m.promptTokens, promptTokensComputed: m.promptTokensComputed, generatedTokens: m.generatedTokens, largestBatch: m.largestBatch });
        const items = m.texts.length;
        console.log(
          `generation: round ${round + 1}/${rounds}, ${m.mode} mode, ${figures.label}: ${items} items in ${m.seconds.toFixed(1)} s (${f(items / m.seconds)} items/s; CPU ${m.cpuSeconds.toFixed(1)} s); ` +
            `prompt tokens evaluated ${m.promptTokensComputed}/${m.promptTokens}; load ${result.loadSeconds.toFixed(2)} s; peak RSS ${result.peakRssMiB.toFixed(0)} MiB`,
        );
      }
    }
  }

  private find(name: LlamaBenchWayName): LlamaWayFigures | undefined {
    return this.figures.find((w) => w.name === name && Object.keys(w.modes).length > 0);
  }

  /** items/s of a way in a mode, median over rounds. */
  itemsPerSecond(name: LlamaBenchWayName, mode: string): number | undefined {
    const m = this.find(name)?.modes[mode];
    return m ? m.texts[0]!.length / median(m.seconds) : undefined;
  }

  /** Per-round ratios a ÷ b of items/s (the two ran in the same round, so under the same load); by CPU seconds with `cpu`. */
  roundRatios(a: LlamaBenchWayName, b: LlamaBenchWayName, mode: string, cpu = false): number[] {
    const x = this.find(a)?.modes[mode];
    const y = this.find(b)?.modes[mode];
    if (!x || !y) return [];
    const of = (m: typeof x) => (cpu ? m.cpuSeconds : m.seconds);
    return of(x).map((s, r) => of(y)[r]! / s);
  }

  print(): void {
    const modes = this.workloads.map((w) => w.mode);
    for (const w of this.figures) {
      if (!Object.keys(w.modes).length) continue;
      const per = modes.map((mode) => {
        const m = w.modes[mode]!;
        return `${mode} ${f(this.itemsPerSecond(w.name, mode)!)} items/s (rounds ${m.seconds.map((s) => f(m.texts[0]!.length / s)).join(', ')}; prompt tokens evaluated ${m.promptTokensComputed}/${m.promptTokens}, generated ${m.generatedTokens}, largest batch ${m.largestBatch})`;
      });
      console.log(`generation llama part: ${w.label}: ${per.join('; ')}; load ${w.loadSeconds.map((s) => s.toFixed(2)).join(', ')} s; peak RSS ${w.peakRssMiB.map((r) => r.toFixed(0)).join(', ')} MiB`);
    }
    const pairs: Array<[LlamaBenchWayName, LlamaBenchWayName, string]> = [
      ['llama:one', 'llama:direct', 'llama: one at a time ÷ node-llama-cpp directly (goal ≥ 0.95x)'],
      ['llama:batched', 'transformers:batched', 'llama: 8 sequences ÷ transformers: batched (goal ≥ 1.5x)'],
      ['llama:reuse', 'transformers:batched', 'llama: 1 sequence + prefix reuse ÷ transformers: batched (goal ≥ 1.5x)'],
      ['llama:batched', 'llama:one', 'llama: 8 sequences ÷ llama: one at a time'],
      ['llama:reuse', 'llama:one', 'llama: 1 sequence + prefix reuse ÷ llama: one at a time'],
    ];
    for (const [a, b, what] of pairs)
      for (const mode of modes) {
        const ratios = this.roundRatios(a, b, mode);
        const cpu = this.roundRatios(a, b, mode, true);
        if (ratios.length)
          console.log(
            `generation llama part, ${mode}: ${what}: per-round ${ratios.map((r) => f(r, 2)).join(', ')} (median ${f(median(ratios), 2)}); ` +
              `by CPU seconds ${cpu.map((r) => f(r, 2)).join(', ')} (median ${f(median(cpu), 2)}; less sensitive to other load, blind to idle waiting)`,
          );
      }
    for (const mode of modes) {
      const ways = this.figures.filter((w) => w.modes[mode]);
      const first = ways[0]?.modes[mode]?.texts[0];
      if (!first) continue;
      const agree = ways.map((w) => `${w.name} ${w.modes[mode]!.texts[0]!.filter((t, i) => t === first[i]).length}/${first.length}`);
      console.log(`generation llama part, ${mode}: greedy answers equal to ${ways[0]!.name}'s (first round): ${agree.join(', ')}`);
    }
  }

  /** Summary rows: the llama: goals, each a median of per-round ratios. */
  rows(): Array<{ benchmark: string; subject: string; baseline: string; ratio: number; ratioLabel?: string; goal: string }> {
    const out: Array<{ benchmark: string; subject: string; baseline: string; ratio: number; ratioLabel?: string; goal: string }> = [];
    const items = this.workloads[0]!.requests.length;
    for (const { mode } of this.workloads) {
      const add = (a: LlamaBenchWayName, b: LlamaBenchWayName, what: string, goal: string) => {
        const ratios = this.roundRatios(a, b, mode);
        if (!ratios.length) return;
        out.push({
          benchmark: `generation, ${items} items, ${mode} mode, 494M Qwen2.5 shape (GGUF fp32): ${what}`,
          subject: `${f(this.itemsPerSecond(a, mode)!)} items/s`,
          baseline: `${LLAMA_BENCH_WAYS[b].label} ${f(this.itemsPerSecond(b, mode)!)} items/s`,
          ratio: median(ratios),
          ratioLabel: `${f(median(ratios), 2)}x`,
          goal,
        });
      };
      add('llama:one', 'llama:direct', 'llama: one at a time', '≥ 0.95x');
      add('llama:batched', 'transformers:batched', 'llama: 8 sequences', '≥ 1.5x');
      add('llama:reuse', 'transformers:batched', 'llama: 1 sequence, prefix reuse', '≥ 1.5x');
    }
    for (const w of this.figures) {
      if (!w.loadSeconds.length) continue;
      out.push({
        benchmark: `generation: ${w.label}, load and peak RSS (own process)`,
        subject: `load ${f(median(w.loadSeconds), 2)} s, peak RSS ${f(Math.max(...w.peakRssMiB), 0)} MiB`,
        baseline: '—',
        ratio: NaN,
        ratioLabel: '—',
        goal: w.name.startsWith('llama:') ? 'load ≤ 4 s, RSS ≤ 2.8 GB' : '',
      });
    }
    return out;
  }

  close(): void {
    rmSync(this.temp, { recursive: true, force: true });
  }
}
