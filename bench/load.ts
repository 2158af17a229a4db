// `npm run bench -- load` (also part of `generation`): model load on the Qwen2.5-0.5B-shaped model in fresh
// processes: the first load (optimised and saved), loads from the saved optimised graph and plain loads of the model
// file, alternating by round; each process then answers a batch of items and ends by itself. Reports load seconds,
// peak RSS and the time from the process's last line to its end (exit delay). Cold rounds first evict the model's and
// the saved graph's files from the page cache and load from the saved graph with and without the weights' read-ahead.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuLine } from './cpuInfo.ts';
import { evictFromPageCache, filesUnder, residentBytes } from './pageCache.ts';
import { evalData, vitestExitRun, type VitestExitRun } from './vitestExit.ts';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export interface LoadRun {
  kind: string;
  loadSeconds: number;
  loadRssMiB: number;
  generateSeconds: number;
  peakRssMiB: number;
  exitDelaySeconds: number;
}

export interface LoadBenchResult {
  items: number;
  rounds: number;
  first: LoadRun;
  saved: LoadRun[];
  plain: LoadRun[];
  weightsMiB: number;
  loadAverage: string;
  /** Loads from the saved graph after evicting its files: read-ahead off (the baseline) and on, one each a round. */
  cold: { off: LoadRun[]; on: LoadRun[]; eviction: string; residentMiB: number[] };
  /** `vitest run`s of both eval files from the saved graph, one per round (none without the benchmarks' data). */
  vitest: VitestExitRun[];
}

/** One child process: its JSON line, and seconds from that line to the process's end. */
function child(dir: string, cacheDir: string, save: 'on' | 'off', items: number, tokens: number, readAhead: 'on' | 'off' = 'off'): Promise<LoadRun> {
  const tsx = path.join(repoRoot, 'node_modules/tsx/dist/cli.mjs');
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [tsx, path.join(repoRoot, 'bench/loadChild.ts'), dir, cacheDir, save, String(items), String(tokens), readAhead], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    let lastLineAt = 0;
    proc.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.endsWith('\n')) lastLineAt = performance.now();
    });
    proc.on('error', reject);
    proc.on('close', (code) => {
      const ended = performance.now();
      const line = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !line.startsWith('{')) return reject(new Error(`load child (${save}) exited ${code}: ${out.slice(-2000)}`));
      resolve({ ...(JSON.parse(line) as Omit<LoadRun, 'exitDelaySeconds'>), exitDelaySeconds: (ended - lastLineAt) / 1000 });
    });
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

export async function benchLoad(dir: string, weightsMiB: number, options: { rounds?: number; items?: number; tokens?: number } = {}): Promise<LoadBenchResult> {
  const rounds = options.rounds ?? Number(process.env.BENCH_LOAD_ROUNDS ?? 2);
  const items = options.items ?? 16;
  const tokens = options.tokens ?? 16;
  const loadAverage = (await import('node:os')).loadavg().map((x) => x.toFixed(1)).join(' ');
  const cacheDir = mkdtempSync(path.join(tmpdir(), 'lokal-bench-load-'));
  console.log(`load: ${cpuLine()}`);
  try {
    const first = await child(dir, cacheDir, 'on', items, tokens);
    if (first.kind !== 'optimised') throw new Error(`load: the first load was "${first.kind}", not optimised and saved`);
    console.log(`load: first load (optimised and saved) ${first.loadSeconds.toFixed(1)} s, peak RSS ${first.peakRssMiB.toFixed(0)} MiB, exit ${first.exitDelaySeconds.toFixed(2)} s after the last line`);
    const saved: LoadRun[] = [];
    const plain: LoadRun[] = [];
    const vitest: VitestExitRun[] = [];
    const cold: LoadBenchResult['cold'] = { off: [], on: [], eviction: '', residentMiB: [] };
    for (let round = 0; round < rounds; round++) {
      for (const way of round % 2 === 0 ? (['saved', 'plain'] as const) : (['plain', 'saved'] as const)) {
        const run = await child(dir, cacheDir, way === 'saved' ? 'on' : 'off', items, tokens);
        if (run.kind !== way) throw new Error(`load: a ${way} load reported "${run.kind}"`);
        (way === 'saved' ? saved : plain).push(run);
        console.log(`load: round ${round + 1}/${rounds}, ${way}: load ${run.loadSeconds.toFixed(1)} s, ${items} items in ${run.generateSeconds.toFixed(1)} s, peak RSS ${run.peakRssMiB.toFixed(0)} MiB, exit ${run.exitDelaySeconds.toFixed(2)} s after the last line`);
      }
      // cold: the files evicted before each load, read-ahead off and on in alternating order
      const files = filesUnder(dir, cacheDir);
      const copyable = (file: string) => !file.startsWith(path.join(dir, 'onnx'));
      for (const readAhead of round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
        cold.eviction = evictFromPageCache(files, copyable);
        const resident = residentBytes(files);
        if (resident !== undefined) cold.residentMiB.push(resident / 2 ** 20);
        const run = await child(dir, cacheDir, 'on', items, tokens, readAhead);
        if (run.kind !== 'saved') throw new Error(`load: a cold load reported "${run.kind}"`);
        cold[readAhead].push(run);
        console.log(`load: round ${round + 1}/${rounds}, cold (${cold.eviction}${resident === undefined ? '' : `, ${(resident / 2 ** 20).toFixed(0)} MiB still resident`}), read-ahead ${readAhead}: load ${run.loadSeconds.toFixed(1)} s`);
      }
      const data = evalData();
      if (!data) {
        if (round === 0) console.log('load: vitest run skipped (no MultiLoKo or Kalahi data: set LOKAL_MULTILOKO and LOKAL_KALAHI)');
        continue;
      }
      const run = await vitestExitRun(dir, cacheDir, data);
      vitest.push(run);
      console.log(`load: round ${round + 1}/${rounds}, vitest run of both eval files: ${run.totalSeconds.toFixed(1)} s, reporter ${run.reporterSeconds.toFixed(2)} s after Vitest's summary, exit ${run.exitDelaySeconds.toFixed(2)} s after the reporter's last line`);
    }
    const result = { items, rounds, first, saved, plain, weightsMiB, loadAverage, cold, vitest };
    printLoadBench(result);
    return result;
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

export function printLoadBench(r: LoadBenchResult): void {
  const m = (runs: LoadRun[], key: keyof LoadRun) => median(runs.map((x) => x[key] as number));
  console.log(
    `load: medians of ${r.rounds} alternating round(s), load average at start ${r.loadAverage}; weights ${r.weightsMiB.toFixed(0)} MiB; ` +
      `first ${r.first.loadSeconds.toFixed(1)} s; saved graph ${m(r.saved, 'loadSeconds').toFixed(1)} s vs plain ${m(r.plain, 'loadSeconds').toFixed(1)} s ` +
      `(${(m(r.plain, 'loadSeconds') / m(r.saved, 'loadSeconds')).toFixed(2)}x); peak RSS of ${r.items} batched items ${m(r.saved, 'peakRssMiB').toFixed(0)} vs ${m(r.plain, 'peakRssMiB').toFixed(0)} MiB ` +
      `(goal ≤ weights + 1024); exit after the last line ${m(r.saved, 'exitDelaySeconds').toFixed(2)} vs ${m(r.plain, 'exitDelaySeconds').toFixed(2)} s` +
      `; cold (files evicted by ${r.cold.eviction}) from the saved graph: read-ahead off ${m(r.cold.off, 'loadSeconds').toFixed(1)} s, on ${m(r.cold.on, 'loadSeconds').toFixed(1)} s ` +
      `(${(m(r.cold.off, 'loadSeconds') / m(r.cold.on, 'loadSeconds')).toFixed(2)}x), cold ÷ warm ${(m(r.cold.off, 'loadSeconds') / m(r.saved, 'loadSeconds')).toFixed(2)}x` +
      (r.vitest.length > 0 ? `; vitest run of both eval files: exit ${median(r.vitest.map((v) => v.exitDelaySeconds)).toFixed(2)} s after the reporter's last line (goal ≤ 1 s)` : ''),
  );
}

/** Rows for bench/run.ts's summary table. */
export function loadBenchRows(r: LoadBenchResult): Array<{ benchmark: string; subject: string; baseline: string; ratio: number; goal: string }> {
  const m = (runs: LoadRun[], key: keyof LoadRun) => median(runs.map((x) => x[key] as number));
  return [
    { benchmark: 'model load, 494M Qwen2.5-0.5B shape fp32: saved optimised graph', subject: `${m(r.saved, 'loadSeconds').toFixed(1)} s`, baseline: `plain ${m(r.plain, 'loadSeconds').toFixed(1)} s (first, saving: ${r.first.loadSeconds.toFixed(1)} s)`, ratio: m(r.plain, 'loadSeconds') / m(r.saved, 'loadSeconds'), goal: '≤ 4 s on a quiet machine' },
    { benchmark: `cold load from the saved graph (${r.cold.eviction}), weights read ahead`, subject: `${m(r.cold.on, 'loadSeconds').toFixed(1)} s`, baseline: `read-ahead off ${m(r.cold.off, 'loadSeconds').toFixed(1)} s; warm ${m(r.saved, 'loadSeconds').toFixed(1)} s`, ratio: m(r.cold.off, 'loadSeconds') / m(r.cold.on, 'loadSeconds'), goal: '≤ 3 s cold on a quiet machine' },
    { benchmark: `peak RSS, load + ${r.items} batched items`, subject: `${m(r.saved, 'peakRssMiB').toFixed(0)} MiB`, baseline: `plain ${m(r.plain, 'peakRssMiB').toFixed(0)} MiB`, ratio: m(r.plain, 'peakRssMiB') / m(r.saved, 'peakRssMiB'), goal: `≤ weights + 1 GB = ${(r.weightsMiB + 1024).toFixed(0)} MiB` },
    { benchmark: 'process end after its last line', subject: `${m(r.saved, 'exitDelaySeconds').toFixed(2)} s`, baseline: `plain ${m(r.plain, 'exitDelaySeconds').toFixed(2)} s`, ratio: m(r.plain, 'exitDelaySeconds') / Math.max(m(r.saved, 'exitDelaySeconds'), 1e-3), goal: '≤ 1 s' },
    ...(r.vitest.length > 0
      ? [{ benchmark: "vitest run of both eval files: end after the reporter's last line", subject: `${median(r.vitest.map((v) => v.exitDelaySeconds)).toFixed(2)} s`, baseline: `reporter ${median(r.vitest.map((v) => v.reporterSeconds)).toFixed(2)} s after Vitest's summary`, ratio: 1 / Math.max(median(r.vitest.map((v) => v.exitDelaySeconds)), 1e-3), goal: '≤ 1 s (ratio: 1 s ÷ the delay, ≥ 1)' }]
      : []),
  ];
}
