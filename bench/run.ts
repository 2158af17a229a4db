// `npm run bench`: every speed claim of the project, each measured against its baseline in this same run.
// Usage: npm run bench [-- metrics errors errors-runs logprobs sampling score replay replay-full models http generation trials threads marking rows load inrun profile]
// (default: all but the opt-in eight; threads: onnxruntime's default threads vs the physical cores (BENCH_GENERATION_MODEL);
// marking: V8's concurrent marking off vs kept beside onnxruntime's threads; rows: a decode step's cost per row at 8, 16 and 32 rows; trials: k sampled trials of n items in one run vs k separate runs,
// docs/performance-trials.md; profile: operator time per dtype, docs/performance-quantised.md.
// generation builds a 494M-parameter Qwen2.5-0.5B-shaped model and runs 32 items × 2 modes × 2 ways × 3 rounds:
// about 40 min a round on 2 cores; BENCH_GENERATION_ROUNDS, BENCH_GENERATION_ITEMS and
// BENCH_GENERATION_MODEL (a built model folder) shorten it: 8 items, 1 round, 7 min; its llama: part runs on the
// folder's model.gguf: BENCH_GENERATION_LLAMA_WAYS picks its ways or, empty, leaves it out;
// BENCH_GENERATION_TRANSFORMERS=0 leaves out the in-process transformers: part; its dtype part (fp32/q8/q4 and
// llama.cpp on Q8_0/Q4_0, the dtype goals) runs BENCH_GENERATION_DTYPE_WAYS or, empty, none; BENCH_GENERATION_SHAPE=tiny
// builds a 2-layer model for a smoke run; BENCH_HF_PYTHON (a Python with torch,
// transformers and onnx) adds the Hugging Face peer on the same weights (docs/performance-models.md). load times model
// loads in fresh processes (BENCH_GENERATION_MODEL) and a vitest run's end after its last line. inrun builds a 6-layer
// model (minutes; BENCH_SMALL_MODEL names a built one) and runs one `vitest run` per round; BENCH_ORT_PYTHON (a Python
// with onnxruntime and numpy) adds the Python onnxruntime loop on the same graph file, BENCH_ORT_PROFILE its profile)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ModeWork } from './models.ts';
import { ensureBuild } from './distBuild.ts';
import { randomPairs } from './randomPairs.ts';
import { scoreExample } from '../src/metrics/scoreExample.ts';

interface Row {
  benchmark: string;
  subject: string;
  baseline: string;
  /** baseline ÷ ours (a speed-up), unless `ratioLabel` says otherwise. */
  ratio: number;
  ratioLabel?: string;
  goal: string;
}

const rows: Row[] = [];

const fmt = (x: number, digits = 2) => x.toFixed(digits);
const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const list = (values: readonly number[], digits = 2) => values.map((v) => fmt(v, digits)).join(', ');
const mib = (bytes: number | undefined) => (bytes === undefined ? 'n/a' : `${Math.round(bytes / 2 ** 20)} MiB`);
// BENCH_ROUNDS: alternating rounds of each side-by-side comparison below (medians reported; default 5); not a LOKAL_
// variable, which the evals runs it spawns would reject as unknown.
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5) || 5);
const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** 7,500 predictions with all MultiLoKo metrics: TypeScript vs the Python port of eval.py on the same pairs. */
async function metrics(): Promise<void> {
  const pairs = randomPairs(7500);
  const warm = randomPairs(500, 1);
  for (const p of warm) scoreExample(p.prediction, p.targets);
  const start = performance.now();
  for (const p of pairs) scoreExample(p.prediction, p.targets);
  const tsSeconds = (performance.now() - start) / 1000;
  console.log(`metrics: TypeScript scored ${pairs.length} items in ${fmt(tsSeconds, 3)} s (${Math.round(pairs.length / tsSeconds)} items/s)`);
  const baseline = pythonPortSeconds(pairs);
  if (baseline === undefined) return console.log('metrics: python3 not found, no baseline run');
  console.log(`metrics: Python eval.py pipeline ${fmt(baseline, 3)} s`);
  rows.push({
    benchmark: 'MultiLoKo scoring, 7,500 items',
    subject: `${fmt(tsSeconds, 3)} s`,
    baseline: `Python ${fmt(baseline, 3)} s`,
    ratio: baseline / tsSeconds,
    goal: '≥ 5x faster',
  });
}

/**
 * The error categories and f1_words on 37,750 items (the full dev layout's count, answers in the 31 languages'
 * scripts): scoring with them against scoreExample alone, in alternating rounds in this process (goal: ≤ 1.10x).
 */
async function errors(): Promise<void> {
  const { errorAnalysisItems, scoreItems } = await import('./errorAnalysis.ts');
  const items = errorAnalysisItems();
  // Warm both paths (the JIT, and the 31 segmenters built on first use).
  scoreItems(items, true);
  scoreItems(items, false);
  const withRuns: Array<{ seconds: number; cpu: number }> = [];
  const withoutRuns: Array<{ seconds: number; cpu: number }> = [];
  for (let round = 0; round < ROUNDS; round++) {
    const sides = [() => withRuns.push(scoreItems(items, true)), () => withoutRuns.push(scoreItems(items, false))];
    for (const side of round % 2 ? sides.reverse() : sides) side();
  }
  const wall = withRuns.map((r, i) => r.seconds / withoutRuns[i]!.seconds);
  // The CPU-time ratio is the figure: wall times on a loaded machine include time the process waited for a core.
  const ratios = withRuns.map((r, i) => r.cpu / withoutRuns[i]!.cpu);
  const count = items.length.toLocaleString('en');
  console.log(
    `errors: ${count} items with error categories and f1_words, ${ROUNDS} alternating rounds (load average ${loadavg()[0]!.toFixed(2)}): ` +
      `CPU ${list(withRuns.map((r) => r.cpu), 3)} s; scoreExample alone CPU ${list(withoutRuns.map((r) => r.cpu), 3)} s; per-round CPU ratios ${list(ratios)}; wall ratios ${list(wall)}`,
  );
  rows.push({
    benchmark: `error categories and f1_words, ${count} items in 31 scripts (CPU time)`,
    subject: `${fmt(median(withRuns.map((r) => r.cpu)), 3)} s`,
    baseline: `scoreExample alone ${fmt(median(withoutRuns.map((r) => r.cpu)), 3)} s`,
    ratio: median(ratios),
    ratioLabel: `${fmt(median(ratios))}x scoreExample alone's time`,
    goal: '≤ 1.10x of whole runs (errors-runs); of scoring alone, stricter',
  });
}

/**
 * What the error categories and f1_words add to whole runs, as their goal is set (≤ 1.10x): `lokal score` over the full
 * dev layout's 37,750 items and the full replay's `vitest run`, each with this build against a copy whose errorCategory,
 * f1Words and wordSegmenter return constants (bench/withoutErrorAnalysis.ts), in alternating rounds; answers in every
 * language's script (bench/errorAnalysis.ts).
 */
async function errorsRuns(): Promise<void> {
  const { withoutErrorAnalysis } = await import('./withoutErrorAnalysis.ts');
  const { ANSWERS_BY_LANGUAGE } = await import('./errorAnalysis.ts');
  const { benchReplay, writeFullInputs, writeInstalledProject } = await import('./replay.ts');
  ensureBuild();
  const dir = mkdtempSync(path.join(tmpdir(), 'lokal-bench-errors-'));
  try {
    const dist = path.join(REPO_ROOT, 'dist');
    const stubbed = path.join(dir, 'dist-without');
    withoutErrorAnalysis(dist, stubbed);
    const targetsFor = (language: string) => ANSWERS_BY_LANGUAGE[language]!;
    const { dataset, predictions, items } = writeFullInputs(path.join(dir, 'inputs'), 250, targetsFor);
    const count = items.toLocaleString('en');
    const sides = [
      { name: 'with', dist, times: [] as number[], cpu: [] as number[], replay: [] as Array<{ seconds: number; cpu: number }> },
      { name: 'without', dist: stubbed, times: [] as number[], cpu: [] as number[], replay: [] as Array<{ seconds: number; cpu: number }> },
    ];
    const bins = sides.map((side) => path.join(writeInstalledProject(path.join(dir, side.name), side.dist), 'node_modules', 'vitest-lokal', 'bin', 'lokal.js'));
    const output = (s: number) => path.join(dir, `${sides[s]!.name}.json`);
    const scoreOnce = (s: number) => timeProcess(process.execPath, [bins[s]!, 'score', '-d', dataset, '-s', 'dev', '-p', predictions, '-o', output(s)]);
    // Warm the file cache; then check each side is what it claims: categories found with, none without.
    for (let s = 0; s < sides.length; s++) scoreOnce(s);
    const categories = (s: number) => new Set(readFileSync(output(s), 'utf8').match(/"error": *"[a-z_]+"/g) ?? []).size;
    if (categories(0) < 4 || categories(1) !== 1) throw new Error(`errors-runs: expected several error categories with the analysis and one without, found ${categories(0)} and ${categories(1)}`);
    const nonZeroF1Words = (s: number) => [...readFileSync(output(s), 'utf8').matchAll(/"f1_words": *([-0-9.eE+]+)/g)].filter((m) => Number(m[1]) !== 0).length;
    if (nonZeroF1Words(0) === 0 || nonZeroF1Words(1) !== 0) throw new Error(`errors-runs: expected some non-zero f1_words with the analysis and none without, found ${nonZeroF1Words(0)} and ${nonZeroF1Words(1)}`);
    for (let round = 0; round < ROUNDS; round++) {
      for (const s of round % 2 ? [1, 0] : [0, 1]) {
        const { seconds, cpu } = scoreOnce(s);
        sides[s]!.times.push(seconds);
        if (cpu !== undefined) sides[s]!.cpu.push(cpu);
      }
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const s of round % 2 ? [1, 0] : [0, 1]) {
        const run = await benchReplay({ layout: 'full', installed: true, dist: sides[s]!.dist, targetsFor });
        sides[s]!.replay.push({ seconds: run.seconds, cpu: run.cpuSeconds ?? NaN });
      }
    }
    const [withSide, withoutSide] = sides as [(typeof sides)[0], (typeof sides)[0]];
    const ratio = (a: readonly number[], b: readonly number[]) => median(a.map((x, i) => x / b[i]!));
    const scoreWall = ratio(withSide.times, withoutSide.times);
    const scoreCpu = withSide.cpu.length === ROUNDS && withoutSide.cpu.length === ROUNDS ? ratio(withSide.cpu, withoutSide.cpu) : undefined;
    const replayWall = ratio(withSide.replay.map((r) => r.seconds), withoutSide.replay.map((r) => r.seconds));
    const replayCpuMeasured = [...withSide.replay, ...withoutSide.replay].every((r) => Number.isFinite(r.cpu));
    const replayCpu = replayCpuMeasured ? ratio(withSide.replay.map((r) => r.cpu), withoutSide.replay.map((r) => r.cpu)) : replayWall;
    console.log(
      `errors-runs: lokal score over ${count} items (full dev layout, answers in 31 scripts), ${ROUNDS} alternating rounds (load average ${loadavg()[0]!.toFixed(2)}): ` +
        `with the categories and f1_words ${list(withSide.times)} s (CPU ${list(withSide.cpu)} s); without ${list(withoutSide.times)} s (CPU ${list(withoutSide.cpu)} s); ` +
        `median per-round ratios: wall ${fmt(scoreWall)}, CPU ${scoreCpu === undefined ? 'n/a' : fmt(scoreCpu)}`,
    );
    console.log(
      `errors-runs: full replay vitest run over ${count} items: with ${list(withSide.replay.map((r) => r.seconds))} s (CPU ${list(withSide.replay.map((r) => r.cpu))} s); ` +
        `without ${list(withoutSide.replay.map((r) => r.seconds))} s (CPU ${list(withoutSide.replay.map((r) => r.cpu))} s); median per-round ratios: wall ${fmt(replayWall)}, CPU ${fmt(replayCpu)}`,
    );
    rows.push({
      benchmark: `error categories and f1_words in lokal score, ${count} items in 31 scripts (whole process${scoreCpu === undefined ? ', wall' : ', CPU'})`,
      subject: `${fmt(median(scoreCpu === undefined ? withSide.times : withSide.cpu))} s`,
      baseline: `the same build without them ${fmt(median(scoreCpu === undefined ? withoutSide.times : withoutSide.cpu))} s`,
      ratio: scoreCpu ?? scoreWall,
      ratioLabel: `${fmt(scoreCpu ?? scoreWall)}x the time without them`,
      goal: '≤ 1.10x',
    });
    rows.push({
      benchmark: `error categories and f1_words in the full replay, ${count} items (vitest run, ${replayCpuMeasured ? 'CPU of the process tree' : 'wall: CPU not measured'})`,
      subject: `${fmt(median(withSide.replay.map((r) => (replayCpuMeasured ? r.cpu : r.seconds))))} s`,
      baseline: `the same build without them ${fmt(median(withoutSide.replay.map((r) => (replayCpuMeasured ? r.cpu : r.seconds))))} s`,
      ratio: replayCpu,
      ratioLabel: `${fmt(replayCpu)}x the time without them`,
      goal: '≤ 1.10x',
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Log-probability rows as continuation scoring reads them: logSumExp (table exponential) against the plain float64
 * two-pass log-softmax with Math.exp, on rows of Qwen2.5's 151,936 logits, in alternating rounds.
 */
async function logprobs(): Promise<void> {
  const { logSumExp } = await import('../src/models/logitRows.ts');
  const vocab = 151_936;
  const rowsPerRound = 200;
  let seed = 7;
  const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const rowsData = Array.from({ length: 8 }, () => Float32Array.from({ length: vocab }, () => (next() - 0.5) * 16));
  const plain = (row: Float32Array) => {
    let max = -Infinity;
    for (let j = 0; j < row.length; j++) if (row[j]! > max) max = row[j]!;
    let sum = 0;
    for (let j = 0; j < row.length; j++) sum += Math.exp(row[j]! - max);
    return max + Math.log(sum);
  };
  const timeRows = (f: (row: Float32Array) => number) => {
    const start = performance.now();
    let worst = 0;
    for (let k = 0; k < rowsPerRound; k++) {
      const row = rowsData[k % rowsData.length]!;
      worst = Math.max(worst, f(row)); // kept, so the call is not optimised away
    }
    return (performance.now() - start) / rowsPerRound;
  };
  timeRows(plain);
  timeRows(logSumExp);
  const ours: number[] = [];
  const base: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 2) base.push(timeRows(plain)), ours.push(timeRows(logSumExp));
    else ours.push(timeRows(logSumExp)), base.push(timeRows(plain));
  }
  const worstDiff = Math.max(...rowsData.map((row) => Math.abs(logSumExp(row) - plain(row)) / Math.abs(plain(row))));
  console.log(`logprobs: log-sum-exp of a ${vocab}-logit row, ${ROUNDS} alternating rounds of ${rowsPerRound} rows: ours ${list(ours, 3)} ms, Math.exp two-pass ${list(base, 3)} ms; max relative difference ${worstDiff.toExponential(1)}`);
  rows.push({
    benchmark: `log-sum-exp of a ${vocab.toLocaleString('en')}-logit row (continuation scoring)`,
    subject: `${fmt(median(ours), 3)} ms`,
    baseline: `float64 Math.exp two-pass ${fmt(median(base), 3)} ms`,
    ratio: median(base) / median(ours),
    goal: 'faster, within 1e-9 relative',
  });
}

/**
 * Drawing a sampled token from a row of Qwen2.5's 151,936 logits (temperature 0.7; top-p 1 and 0.9): sampleToken
 * against the definition written plainly (an object per token, a full sort), in alternating rounds; same draws.
 */
async function sampling(): Promise<void> {
  const { sampleToken } = await import('../src/core/sampleToken.ts');
  const { plainDistribution, plainDraw } = await import('./plainSampling.ts');
  const { seededUniform } = await import('../src/core/statistics/bootstrap.ts');
  const vocab = 151_936;
  const rowsPerRound = 20;
  let seed = 11;
  const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const row = Float32Array.from({ length: vocab }, () => (next() - 0.5) * 16);
  for (const topP of [1, 0.9]) {
    const settings = { temperature: 0.7, topP };
    const time = (draw: (u: () => number) => number) => {
      const uniform = seededUniform(5);
      const drawn: number[] = [];
      const start = performance.now();
      for (let k = 0; k < rowsPerRound; k++) drawn.push(draw(uniform));
      return { ms: (performance.now() - start) / rowsPerRound, drawn };
    };
    const ours = () => time((u) => sampleToken(row, settings, u));
    const plain = () => time((u) => plainDraw(plainDistribution(row, settings), u));
    ours(), plain();
    const oursMs: number[] = [];
    const plainMs: number[] = [];
    let same = true;
    for (let round = 0; round < ROUNDS; round++) {
      const [a, b] = round % 2 ? [plain(), ours()].reverse() : [ours(), plain()];
      oursMs.push(a!.ms), plainMs.push(b!.ms);
      same &&= a!.drawn.every((t, i) => t === b!.drawn[i]);
    }
    console.log(`sampling: a ${vocab}-logit row, T 0.7, top-p ${topP}, ${ROUNDS} alternating rounds of ${rowsPerRound} draws: ours ${list(oursMs, 2)} ms, plain ${list(plainMs, 2)} ms; draws ${same ? 'identical' : 'DIFFER'}`);
    rows.push({
      benchmark: `a sampled token from a ${vocab.toLocaleString('en')}-logit row, top-p ${topP}`,
      subject: `${fmt(median(oursMs), 2)} ms`,
      baseline: `the definition written plainly ${fmt(median(plainMs), 2)} ms`,
      ratio: median(plainMs) / median(oursMs),
      goal: `faster, the same draws (${same ? 'yes' : 'NO'})`,
    });
  }
}

/** Scores (prediction, targets) pairs with the Python port of eval.py; returns its scoring seconds, or undefined. */
// LOKAL_REFERENCE_PYTHON: a Python with sacrebleu and Levenshtein installed, so the baseline runs the reference libraries.
const python = process.env.LOKAL_REFERENCE_PYTHON ?? 'python3';

function pythonPortSeconds(pairs: Array<{ prediction: string; targets: string[] }>): number | undefined {
  if (spawnSync(python, ['--version']).status !== 0) return undefined;
  const port = fileURLToPath(new URL('./eval_port.py', import.meta.url));
  const input = pairs.map((p) => JSON.stringify(p)).join('\n');
  const out = JSON.parse(execFileSync(python, [port], { input, maxBuffer: 1 << 28 }).toString()) as { seconds: number; engine: string };
  console.log(`baseline engine: ${out.engine}`);
  return out.seconds;
}

/** A whole `vitest run --project evals` with a replay model over 7,500 items vs eval.py's whole flow in Python
 * (start-up, reading the dataset and predictions, scoring, aggregating, writing the JSON) on the same files; beside it,
 * Vitest alone running 7,500 tests of the same shape (the part of the run no lokal change can remove). */
async function replay(): Promise<void> {
  const { benchReplay, benchVitestFloor, writeInputs } = await import('./replay.ts');
  const r = await benchReplay();
  console.log(`replay: vitest evals run over ${r.items} items (start-up, collection, tests, runner, reporter) ${fmt(r.seconds)} s`);
  const floor = await benchVitestFloor();
  const bare = await benchVitestFloor({ annotate: false });
  console.log(`replay: Vitest alone, ${floor.tests} concurrent tests with meta + one annotation each, no lokal code: ${fmt(floor.seconds)} s (without annotations ${fmt(bare.seconds)} s)`);
  if (spawnSync(python, ['--version']).status !== 0) return console.log('replay: python3 not found, no baseline run');
  const dir = mkdtempSync(path.join(tmpdir(), 'lokal-bench-py-'));
  try {
    const { dataset, predictions } = writeInputs(dir, 30, 250);
    const port = fileURLToPath(new URL('./eval_port.py', import.meta.url));
    const start = performance.now();
    execFileSync(python, [port, '--eval', dataset, predictions, path.join(dir, 'scores.json')]);
    const baseline = (performance.now() - start) / 1000;
    console.log(`replay: eval.py's flow in Python (${python}) on the same files, whole process ${fmt(baseline)} s`);
    rows.push({
      benchmark: `replay evals run, ${r.items} items`,
      subject: `${fmt(r.seconds)} s`,
      baseline: `Python eval.py flow ${fmt(baseline)} s`,
      ratio: baseline / r.seconds,
      goal: '≥ 1x (no slower than the reference script)',
    });
    rows.push({
      benchmark: `Vitest alone, ${floor.tests} annotated tests (no lokal code)`,
      subject: `${fmt(floor.seconds)} s`,
      baseline: `Python eval.py flow ${fmt(baseline)} s`,
      ratio: baseline / floor.seconds,
      goal: '(floor of any Vitest run of this shape)',
    });
    // LOKAL_EVAL_PY: a copy of the official eval.py (not shipped here) to time as well, run by LOKAL_REFERENCE_PYTHON.
    const official = process.env.LOKAL_EVAL_PY;
    if (official) {
      const t = performance.now();
      execFileSync(python, [official, '-d', dataset, '-s', 'dev', '-p', predictions, '-o', path.join(dir, 'official.json')]);
      const seconds = (performance.now() - t) / 1000;
      console.log(`replay: official eval.py (${official}) on the same files, whole process ${fmt(seconds)} s`);
      rows.push({
        benchmark: `replay evals run, ${r.items} items`,
        subject: `${fmt(r.seconds)} s`,
        baseline: `official eval.py ${fmt(seconds)} s`,
        ratio: seconds / r.seconds,
        goal: '≥ 1x (no slower than the reference script)',
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// GNU time, when present, reports each child's CPU seconds beside its wall time (less sensitive to other load).
const GNU_TIME = existsSync('/usr/bin/time') && spawnSync('/usr/bin/time', ['-f', '%U', 'true']).status === 0 ? '/usr/bin/time' : undefined;

/** Wall seconds of one child process run to completion, and its CPU seconds (user + system) where GNU time is present. */
function timeProcess(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): { seconds: number; cpu: number | undefined } {
  const cpuFile = GNU_TIME && path.join(tmpdir(), `lokal-bench-cpu-${process.pid}`);
  const [exe, argv] = cpuFile ? [GNU_TIME!, ['-f', '%U %S', '-o', cpuFile, command, ...args]] : [command, args];
  const start = performance.now();
  const run = spawnSync(exe, argv, { cwd: REPO_ROOT, env, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 26 });
  const seconds = (performance.now() - start) / 1000;
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${run.status ?? run.signal}\n${run.stderr?.toString().slice(-2000)}`);
  let cpu: number | undefined;
  if (cpuFile) {
    const [user, system] = readFileSync(cpuFile, 'utf8').trim().split(/\s+/).slice(-2).map(Number);
    cpu = user! + system!;
    rmSync(cpuFile, { force: true });
  }
  return { seconds, cpu };
}

/**
 * `lokal score` as a user runs it (the installed bin, `lokal score -d … -s dev -p … -o …`, this build's dist/; and with
 * `--threads 1`, no worker threads) against eval.py's
 * flow in Python (bench/eval_port.py --eval; and the official eval.py when LOKAL_EVAL_PY names it) on the same items,
 * each a whole process (start-up, reading, scoring, aggregating, writing the JSON), in alternating rounds: 7,500 items
 * (30 languages × 250, the leaderboard's local run) and 37,750 (151 language folders × 250: as many items as the
 * full dev layout, in one split that both scripts score in one call).
 */
async function score(): Promise<void> {
  if (spawnSync(python, ['--version']).status !== 0) return console.log('score: python3 not found, no baseline run');
  ensureBuild();
  await scoreAtSize(30, 250, '≥ 5x faster');
  await scoreAtSize(151, 250, '≥ 8x faster');
  printStartupFloors();
}

async function scoreAtSize(languages: number, perLanguage: number, goal: string): Promise<void> {
  const { writeInputs, writeInstalledProject } = await import('./replay.ts');
  const items = (languages * perLanguage).toLocaleString('en');
  const dir = mkdtempSync(path.join(tmpdir(), 'lokal-bench-score-'));
  try {
    const { dataset, predictions } = writeInputs(dir, languages, perLanguage);
    // The bin as a user's install has it (no src/ beside it, so no check of the sources' age at start), of this build.
    const bin = path.join(writeInstalledProject(dir), 'node_modules', 'vitest-lokal', 'bin', 'lokal.js');
    const lokalArgs = ['score', '-d', dataset, '-s', 'dev', '-p', predictions, '-o', path.join(dir, 'lokal.json')];
    const port = fileURLToPath(new URL('./eval_port.py', import.meta.url));
    const official = process.env.LOKAL_EVAL_PY;
    const cores = availableParallelism();
    type Side = { name: string; run: () => { seconds: number; cpu: number | undefined }; times: number[]; cpu: number[] };
    const sides: Side[] = [
      { name: 'lokal score', run: () => timeProcess(process.execPath, [bin, ...lokalArgs]), times: [], cpu: [] },
      { name: 'lokal score --threads 1', run: () => timeProcess(process.execPath, [bin, ...lokalArgs, '--threads', '1']), times: [], cpu: [] },
      { name: `lokal score --threads ${cores}`, run: () => timeProcess(process.execPath, [bin, ...lokalArgs, '--threads', String(cores)]), times: [], cpu: [] },
      { name: `eval.py flow in Python (eval_port.py, ${python})`, run: () => timeProcess(python, [port, '--eval', dataset, predictions, path.join(dir, 'port.json')]), times: [], cpu: [] },
    ];
    if (official) {
      sides.push({ name: `official eval.py (${official})`, run: () => timeProcess(python, [official, '-d', dataset, '-s', 'dev', '-p', predictions, '-o', path.join(dir, 'official.json')]), times: [], cpu: [] });
    }
    for (const side of sides) side.run(); // warm the file cache and the build's first load
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of round % 2 ? [...sides].reverse() : sides) {
        const { seconds, cpu } = side.run();
        side.times.push(seconds);
        if (cpu !== undefined) side.cpu.push(cpu);
      }
    }
    const [ours, oneThread, everyCore, ...baselines] = sides as [Side, Side, Side, ...Side[]];
    const oursMedian = median(ours.times);
    const cpuText = (side: Side) => (side.cpu.length ? `; CPU (user + system) ${list(side.cpu)} s (median ${fmt(median(side.cpu))} s)` : '');
    // The default uses worker threads only while a core is idle (1-minute load average below cores - 0.5): the load is
    // printed, and both thread counts are timed whatever the default chose.
    console.log(`score: ${ours.name} (installed bin, default threads, ${cores} cores, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}), ${items} items, whole process, ${ROUNDS} alternating rounds: ${list(ours.times)} s (median ${fmt(oursMedian)} s)${cpuText(ours)}`);
    for (const side of [oneThread, everyCore]) console.log(`score: ${side.name}: ${list(side.times)} s (median ${fmt(median(side.times))} s)${cpuText(side)}`);
    for (const base of baselines) {
      const baseMedian = median(base.times);
      const ratios = ours.times.map((t, i) => base.times[i]! / t);
      const cpuRatio = ours.cpu.length && base.cpu.length ? `; CPU-time ratio ${fmt(median(base.cpu) / median(ours.cpu))}x (Node also runs GC and compiler threads beside the main one)` : '';
      console.log(`score: ${base.name}: ${list(base.times)} s (median ${fmt(baseMedian)} s)${cpuText(base)}; per-round wall ratios ${list(ratios)}${cpuRatio}`);
      rows.push({
        benchmark: `lokal score, ${items} items, whole process`,
        subject: `${fmt(oursMedian)} s`,
        baseline: `${base.name.replace(/ \(.*\)$/, '')} ${fmt(baseMedian)} s`,
        ratio: baseMedian / oursMedian,
        goal,
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * For reading the score bench: what each interpreter costs before running any code here (no part of the ratio).
 * NODE_EXTRA_CA_CERTS, when set, makes Node read and parse that CA bundle at every start, before any of our code.
 */
function printStartupFloors(): void {
  const medianOf = (run: () => { seconds: number; cpu: number | undefined }) => {
    const runs = Array.from({ length: ROUNDS }, run);
    const cpu = runs.flatMap((r) => (r.cpu === undefined ? [] : [r.cpu]));
    return `${fmt(median(runs.map((r) => r.seconds)))} s${cpu.length ? ` (CPU ${fmt(median(cpu))} s)` : ''}`;
  };
  const parts = [`node -e 0 ${medianOf(() => timeProcess(process.execPath, ['-e', '0']))}`];
  const extraCa = process.env.NODE_EXTRA_CA_CERTS;
  if (extraCa) {
    const env = { ...process.env, NODE_EXTRA_CA_CERTS: '' };
    parts[0] += ` with NODE_EXTRA_CA_CERTS=${extraCa}`;
    parts.push(`without it ${medianOf(() => timeProcess(process.execPath, ['-e', '0'], env))}`);
  }
  parts.push(`${python} -c pass ${medianOf(() => timeProcess(python, ['-c', 'pass']))}`);
  console.log(`score: start-up alone here (medians of ${ROUNDS}, not part of the ratio): ${parts.join('; ')}`);
}

/**
 * A full MultiLoKo-shaped dev set (31 languages, local and translated both ways: 37,750 items) through `vitest run`
 * with a replay model in a user's project (the README's config and eval file, the compiled package installed, as
 * users run it), against Vitest alone running as many concurrent tests that each set meta and send one annotation, in
 * alternating rounds; the lokal run's peak RSS is its whole process tree's.
 */
// BENCH_REPLAY_FROM_SOURCE=1: replay-full through this repository's evals project instead (how the repository runs it).
const FROM_SOURCE = process.env.BENCH_REPLAY_FROM_SOURCE === '1';

async function replayFull(): Promise<void> {
  const { benchReplay, benchVitestFloor, MULTILOKO_LANGUAGES } = await import('./replay.ts');
  const subsets = MULTILOKO_LANGUAGES.length + 4 * (MULTILOKO_LANGUAGES.length - 1);
  type Run = { seconds: number; peakRss: number | undefined; cpuSeconds: number | undefined; mainCpuSeconds: number | undefined };
  const lokal: Array<Run & { items: number }> = [];
  const floor: Array<Run & { tests: number }> = [];
  // Vitest alone with each test's meta a record of our record's shape and size: the share of the gap that is sending it.
  const recordFloor: Array<Run & { tests: number }> = [];
  for (let round = 0; round < ROUNDS; round++) {
    // A source edited mid-bench would leave dist/ stale: rebuild rather than time the wrong thing.
    ensureBuild();
    const runLokal = async () => lokal.push(await benchReplay({ layout: 'full', installed: !FROM_SOURCE }));
    const runFloor = async () => floor.push(await benchVitestFloor({ languages: subsets, itemsPerLanguage: 250 }));
    const runRecordFloor = async () => recordFloor.push(await benchVitestFloor({ languages: subsets, itemsPerLanguage: 250, record: true }));
    const sides = [runLokal, runFloor, runRecordFloor];
    // Each side first, second and third in turn.
    for (let k = 0; k < sides.length; k++) await sides[(round + k) % sides.length]!();
  }
  const items = lokal[0]!.items;
  const ours = median(lokal.map((r) => r.seconds));
  const alone = median(floor.map((r) => r.seconds));
  const ratios = lokal.map((r, i) => r.seconds / floor[i]!.seconds);
  const rss = lokal.map((r) => r.peakRss);
  const floorRss = floor.map((r) => r.peakRss);
  const peak = rss.every((b) => b !== undefined) ? Math.max(...(rss as number[])) : undefined;
  const where = FROM_SOURCE ? "in this repository's evals project (TypeScript sources, transformed by Vite)" : "in a user's project with the compiled package installed";
  console.log(`replay-full: lokal evals run over ${items} items (${subsets} subsets) ${where}, ${ROUNDS} alternating rounds: ${list(lokal.map((r) => r.seconds))} s (median ${fmt(ours)} s)`);
  console.log(`replay-full: Vitest alone, ${floor[0]!.tests} concurrent tests with meta + one annotation each: ${list(floor.map((r) => r.seconds))} s (median ${fmt(alone)} s)`);
  console.log(`replay-full: per-round ratios lokal / Vitest alone ${list(ratios)}; median ratio ${fmt(median(ratios))}`);
  const cpu = (runs: readonly Run[]) => runs.map((r) => r.cpuSeconds ?? NaN);
  const cpuRatios = lokal.map((r, i) => (r.cpuSeconds ?? NaN) / (floor[i]!.cpuSeconds ?? NaN));
  console.log(
    `replay-full: CPU seconds (user + system, whole process tree): lokal ${list(cpu(lokal))}, Vitest alone ${list(cpu(floor))}; ` +
      `per-round ratios ${list(cpuRatios)} (median ${fmt(median(cpuRatios))}; less sensitive than wall time to other load on the machine)`,
  );
  // Where each side's CPU goes: Vitest's main process (collecting what the workers send, the reporters, lokal's roll-up,
  // results file and report after the last test) and its workers (the tests themselves).
  const split = (runs: readonly Run[]) => {
    const main = runs.map((r) => r.mainCpuSeconds ?? NaN);
    return `main ${fmt(median(main))} s, workers ${fmt(median(cpu(runs).map((c, i) => c - main[i]!)))} s`;
  };
  console.log(
    `replay-full: CPU by process (medians): lokal ${split(lokal)}; Vitest alone ${split(floor)}; Vitest alone with the record below ${split(recordFloor)}`,
  );
  const recordCpuRatios = lokal.map((r, i) => (r.cpuSeconds ?? NaN) / (recordFloor[i]!.cpuSeconds ?? NaN));
  const recordShare = lokal.map((r, i) => ((recordFloor[i]!.cpuSeconds ?? NaN) - (floor[i]!.cpuSeconds ?? NaN)) / ((r.cpuSeconds ?? NaN) - (floor[i]!.cpuSeconds ?? NaN)));
  console.log(
    `replay-full: Vitest alone with a record of a redacted MultiLoKo item's shape in each test's meta: ${list(recordFloor.map((r) => r.seconds))} s, CPU ${list(cpu(recordFloor))} s; ` +
      `lokal / it: CPU ${list(recordCpuRatios)} (median ${fmt(median(recordCpuRatios))}), wall median ${fmt(median(lokal.map((r, i) => r.seconds / recordFloor[i]!.seconds)))}; ` +
      `share of lokal's extra CPU over Vitest alone that the record alone costs Vitest: ${list(recordShare)} (median ${fmt(median(recordShare))})`,
  );
  console.log(
    `replay-full: peak RSS of the whole process tree (Vitest main + workers, /proc sampled every 20 ms): lokal ${rss.map((b) => mib(b)).join(', ')} ` +
      `(max ${mib(peak)}); Vitest alone ${floorRss.map((b) => mib(b)).join(', ')}`,
  );
  rows.push({
    benchmark: `replay evals run, full dev layout, ${items} items${FROM_SOURCE ? ' (from the sources)' : ''}, vs Vitest alone`,
    subject: `${fmt(ours)} s, peak RSS ${mib(peak)}`,
    baseline: `Vitest alone ${fmt(alone)} s`,
    ratio: ours / alone,
    ratioLabel: `${fmt(ours / alone)}x Vitest alone's time`,
    goal: '≤ 1.25x; peak RSS < 1 GB',
  });
}

/** Continuation scoring on a generated ~22M-parameter model: batched with shared prompts vs one sequence at a time. */
async function models(): Promise<void> {
  const { benchContinuationBatching, BENCH_MODEL_SPEC, BENCH_QWEN2_SHAPE_SPEC } = await import('./models.ts');
  const shapes = [
    { name: 'Llama shape', spec: BENCH_MODEL_SPEC },
    { name: 'Qwen2 shape (GQA 8/2, q/k/v biases)', spec: BENCH_QWEN2_SHAPE_SPEC },
  ];
  for (const { name, spec } of shapes) {
    const r = await benchContinuationBatching({ spec });
    const model = `${(r.parameters / 1e6).toFixed(1)}M ${name}`;
    console.log(
      `models: ${r.continuations} continuations (${r.scoredTokens} scored tokens) on a ${model} model, medians of 5 rounds: ` +
        `one-by-one ${fmt(r.oneByOneSeconds)} s, padded batches ${fmt(r.paddedBatchSeconds)} s, batched + shared prompt ${fmt(r.batchedSeconds)} s, ` +
        `as ${r.questions} concurrent calls of one question each ${fmt(r.perPromptCallsSeconds)} s (max |Δ logprob| ${r.maxAbsDifference.toExponential(1)})`,
    );
    const work = (label: string, w: ModeWork) => `${label} ${w.forwardCalls} calls, ${w.tokens} tokens (${w.paddedTokens} with padding)`;
    console.log(
      `models: forward passes: ${work('one-by-one', r.work.oneByOne)}; ${work('padded', r.work.padded)}; ${work('batched + shared', r.work.batched)}; ` +
        `${work('concurrent per-question calls', r.work.perPromptCalls)}; token-count bound (one-by-one tokens ÷ shared tokens) ${fmt(r.tokenBound)}x`,
    );
    rows.push({
      benchmark: `continuation scoring, ${model}, batched + shared prompt`,
      subject: `${fmt(r.batchedThroughput, 1)} cont/s`,
      baseline: `one-by-one ${fmt(r.oneByOneThroughput, 1)} cont/s`,
      ratio: r.speedup,
      goal: `≥ 3x (token-count bound ${fmt(r.tokenBound)}x)`,
    });
    rows.push({
      benchmark: `continuation scoring, ${model}, concurrent calls of one question each`,
      subject: `${fmt(r.continuations / r.perPromptCallsSeconds, 1)} cont/s`,
      baseline: `one-by-one ${fmt(r.oneByOneThroughput, 1)} cont/s`,
      ratio: r.perPromptCallsSpeedup,
      goal: '≥ 3x (as the Kalahi suite calls it)',
    });
    rows.push({
      benchmark: `continuation scoring, ${model}, padded batches only`,
      subject: `${fmt(r.paddedBatchThroughput, 1)} cont/s`,
      baseline: `one-by-one ${fmt(r.oneByOneThroughput, 1)} cont/s`,
      ratio: r.paddingOnlySpeedup,
      goal: '(diagnostic)',
    });
  }
}

/** 1,000 requests to a 127.0.0.1 server answering after 100 ms, concurrency 32, against the ideal wall time. */
async function http(): Promise<void> {
  const { benchHttpConcurrency } = await import('./models.ts');
  const r = await benchHttpConcurrency();
  console.log(`http: ${r.requests} requests at ${r.latencyMs} ms, concurrency ${r.concurrency}: ${fmt(r.wallSeconds)} s (ideal ${fmt(r.idealSeconds, 3)} s, peak in flight ${r.maxInFlight})`);
  rows.push({
    benchmark: `OpenAI provider, ${r.requests} requests @ ${r.latencyMs} ms, c=${r.concurrency}`,
    subject: `${fmt(r.wallSeconds)} s`,
    baseline: `ideal ${fmt(r.idealSeconds, 3)} s`,
    ratio: r.idealSeconds / r.wallSeconds,
    ratioLabel: `${fmt(r.wallSeconds / r.idealSeconds)}x of ideal`,
    goal: 'within 1.3x of ideal',
  });
}

/** Greedy generation on the default model's shape and tokenizer: batched + prefix reuse vs one at a time vs a direct onnxruntime loop. */
async function generation(): Promise<void> {
  const { benchGeneration, generationBenchRows } = await import('./generation.ts');
  rows.push(...generationBenchRows(await benchGeneration()));
}

/** k sampled trials of n items in one run (one prompt pass per item) vs k separate runs, on transformers: (docs/performance-trials.md). */
async function trials(): Promise<void> {
  const { benchTrials, trialBenchRow } = await import('./trialGeneration.ts');
  rows.push(trialBenchRow(await benchTrials()));
}

/**
 * onnxruntime's default intra-op threads against the provider's default (the physical cores, physicalCores.ts) on
 * BENCH_GENERATION_MODEL's fp32 file: a prompt pass and a decode step, each side in fresh processes, alternating.
 */
async function threads(): Promise<void> {
  const dir = process.env.BENCH_GENERATION_MODEL;
  if (!dir) throw new Error('threads: set BENCH_GENERATION_MODEL to a model folder (the 494M shape: npm run make:tiny-model -- <dir> --shape qwen2.5-0.5b-instruct --tokenizer qwen2.5)');
  const { physicalCores } = await import('../src/models/physicalCores.ts');
  const cores = physicalCores();
  if (cores === undefined) return console.log('threads: no /proc and /sys to count physical cores on: the provider leaves onnxruntime its own default');
  const { benchSessionThreads } = await import('./sessionThreads.ts');
  const { defaults, ours } = await benchSessionThreads(path.join(dir, 'onnx', 'model.onnx'), ROUNDS, cores);
  const same = ours.every((o, i) => o.checksum === defaults[i]!.checksum);
  for (const [label, key] of [['prompt pass of 128 tokens', 'promptSeconds'], ['decode step of 8 rows over 300 positions', 'decodeSeconds']] as const) {
    const base = defaults.map((r) => r[key]);
    const mine = ours.map((r) => r[key]);
    console.log(`threads: ${label}, ${ROUNDS} alternating rounds: onnxruntime's default (${defaults[0]!.workerThreads} threads started) ${list(base, 3)} s; ${cores} threads (${ours[0]!.workerThreads} started) ${list(mine, 3)} s; logits ${same ? 'identical' : 'DIFFER'}`);
    rows.push({
      benchmark: `${label}, ${path.basename(dir)} fp32, onnxruntime threads`,
      subject: `${cores} threads (the physical cores) ${fmt(median(mine), 3)} s`,
      baseline: `onnxruntime's default ${fmt(median(base), 3)} s`,
      ratio: median(base) / median(mine),
      goal: `faster where onnxruntime counts fewer cores; logits identical (${same ? 'yes' : 'NO'})`,
    });
  }
}

/**
 * The provider with V8's concurrent marking off while onnxruntime's threads take every CPU (its default) against the
 * same child started with --concurrent-marking, on BENCH_GENERATION_MODEL's folder and the MultiLoKo data.
 */
async function marking(): Promise<void> {
  const dir = process.env.BENCH_GENERATION_MODEL;
  if (!dir) throw new Error('marking: set BENCH_GENERATION_MODEL to a model folder (bench/inRunGeneration.ts names the 6-layer one: npm run make:tiny-model)');
  const data = (await import('./generation.ts')).multilokoData(undefined);
  if (!data) return console.log('marking: skipped (no MultiLoKo data: set LOKAL_MULTILOKO)');
  const { benchConcurrentMarking } = await import('./concurrentMarking.ts');
  const cacheDir = mkdtempSync(path.join(tmpdir(), 'lokal-bench-marking-'));
  try {
    const { stopped, kept } = benchConcurrentMarking(dir, cacheDir, data, ROUNDS);
    const same = stopped.every((s, i) => JSON.stringify(s.answers) === JSON.stringify(kept[i]!.answers));
    const ours = stopped.map((r) => r.seconds);
    const base = kept.map((r) => r.seconds);
    console.log(`marking: ${path.basename(dir)}, 32 requests (16 in flight), ${stopped[0]!.threads ?? 'default'} onnxruntime threads, ${ROUNDS} alternating rounds: provider's default (${stopped[0]!.marking}) ${list(ours)} s; started with --concurrent-marking (${kept[0]!.marking}) ${list(base)} s; answers ${same ? 'identical' : 'DIFFER'}`);
    rows.push({
      benchmark: `32 requests on ${path.basename(dir)}, V8's concurrent marking`,
      subject: `off while onnxruntime holds every CPU ${fmt(median(ours))} s`,
      baseline: `kept (--concurrent-marking) ${fmt(median(base))} s`,
      ratio: median(base) / median(ours),
      goal: `faster; answers identical (${same ? 'yes' : 'NO'})`,
    });
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

/** A decode step of 8, 16 and 32 rows on BENCH_GENERATION_MODEL's file (its saved optimised graph when BENCH_ROWS_GRAPH names one): seconds per row. */
async function decodeRows(): Promise<void> {
  const dir = process.env.BENCH_GENERATION_MODEL;
  const graph = process.env.BENCH_ROWS_GRAPH;
  if (!dir && !graph) throw new Error('rows: set BENCH_GENERATION_MODEL to a model folder, or BENCH_ROWS_GRAPH to a saved optimised graph file');
  const { physicalCores } = await import('../src/models/physicalCores.ts');
  // the provider's count for such weights: the physical cores, else onnxruntime's default (0)
  const threads = physicalCores() ?? 0;
  const { benchDecodeRows } = await import('./decodeRows.ts');
  const file = graph ?? path.join(dir!, 'onnx', 'model.onnx');
  const rounds = benchDecodeRows(file, graph !== undefined, threads, ROUNDS);
  const perRow = (rows: number) => median(rounds.map((r) => r[rows]! / rows));
  console.log(`rows: decode step over 300 positions, ${threads} threads, ${ROUNDS} rounds, seconds per row (median): 8 rows ${fmt(perRow(8), 4)}, 16 rows ${fmt(perRow(16), 4)}, 32 rows ${fmt(perRow(32), 4)}; steps ${rounds.map((r) => [8, 16, 32].map((n) => fmt(r[n]!, 3)).join('/')).join(', ')} s`);
  rows.push({
    benchmark: `decode step per row, 32 rows against 8, ${path.basename(graph ? path.dirname(path.dirname(graph)) : dir!)}`,
    subject: `${fmt(perRow(32), 4)} s per row`,
    baseline: `${fmt(perRow(8), 4)} s per row at 8 rows`,
    ratio: perRow(8) / perRow(32),
    goal: 'above 1: larger decode batches make a row cheaper',
  });
}

/** Model load in fresh processes: first (optimised and saved), from the saved graph, plain; peak RSS, exit delay (BENCH_GENERATION_MODEL: an existing model folder). */
async function load(): Promise<void> {
  const dir = process.env.BENCH_GENERATION_MODEL;
  if (!dir) throw new Error('load: set BENCH_GENERATION_MODEL to a Qwen2.5-0.5B-shaped model folder (npm run make:tiny-model -- <dir> --shape qwen2.5-0.5b-instruct --tokenizer qwen2.5)');
  const { benchLoad, loadBenchRows } = await import('./load.ts');
  rows.push(...loadBenchRows(await benchLoad(dir, statSync(`${dir}/onnx/model.onnx`).size / 2 ** 20)));
}

/** A real `vitest run` on the 6-layer Qwen2-shaped model vs a direct onnxruntime loop with prefix reuse and batches of 8. */
async function inrun(): Promise<void> {
  const { benchInRunGeneration } = await import('./inRunGeneration.ts');
  const r = await benchInRunGeneration({ rounds: ROUNDS });
  if (!r) return;
  console.log(
    `inrun: ${r.items} Italian base-mode items × ${r.maxNewTokens} new tokens: item tests ${list(r.inRunSeconds)} s, direct loop ${list(r.directSeconds)} s ` +
      `(${fmt(r.inRunItemsPerSecond)} vs ${fmt(r.directItemsPerSecond)} items/s; ${r.failedItems} item tests failed)`,
  );
  rows.push({
    benchmark: `generation in a vitest run, ${r.items} Italian items, 6-layer Qwen2-shaped model`,
    subject: `${fmt(r.inRunItemsPerSecond)} items/s (item tests)`,
    baseline: `direct onnxruntime loop, prefix once, batches of 8: ${fmt(r.directItemsPerSecond)} items/s`,
    ratio: r.ratio,
    ratioLabel: `${fmt(r.ratio)}x of the direct loop`,
    goal: '≥ 0.8x',
  });
  const p = r.ortPeer;
  if (!p) return;
  console.log(
    `inrun: Python onnxruntime peer (${p.versions}) on ${p.graph}: ${list(p.seconds)} s (session.run ${list(p.runSeconds)} s; ${p.decodeSteps} decode steps); ` +
      `ours ÷ peer per round ${p.roundRatios.map((x) => fmt(x)).join(', ')}; answers identical to the run's ${p.identical}/${p.compared}` +
      (p.profile ? `; onnxruntime profile of its last round: ${p.profile}` : ''),
  );
  rows.push({
    benchmark: `generation in a vitest run, ${r.items} Italian items, 6-layer model, vs Python onnxruntime on the same graph file`,
    subject: `${fmt(r.inRunItemsPerSecond)} items/s (item tests)`,
    baseline: `Python onnxruntime loop, prefix once, batches of 8: ${fmt(p.itemsPerSecond)} items/s (answers identical ${p.identical}/${p.compared})`,
    ratio: p.ratio,
    ratioLabel: `${fmt(p.ratio)}x of the Python loop`,
    goal: '≥ 0.8x',
  });
}

/** Operator time per dtype, one at a time (BENCH_GENERATION_MODEL; BENCH_PROFILE_DTYPES, default fp32,q8,q4; BENCH_PROFILE_PROMPT_TOKENS, default 384; 32 decode steps). */
async function profile(): Promise<void> {
  const dir = process.env.BENCH_GENERATION_MODEL;
  if (!dir) throw new Error('profile: set BENCH_GENERATION_MODEL to a model folder with the dtype files (npm run make:tiny-model -- <dir> --dtypes fp32,q8,q4)');
  const { benchOpProfile } = await import('./opProfile.ts');
  const dtypes = (process.env.BENCH_PROFILE_DTYPES ?? 'fp32,q8,q4').split(',').map((d) => d.trim()).filter(Boolean);
  const threads = process.env.BENCH_GENERATION_THREADS ? Number(process.env.BENCH_GENERATION_THREADS) : undefined;
  await benchOpProfile(dir, dtypes, Number(process.env.BENCH_PROFILE_PROMPT_TOKENS ?? 384), 32, threads);
}

const benches: Record<string, () => Promise<void>> = { metrics, errors, 'errors-runs': errorsRuns, logprobs, sampling, score, replay, 'replay-full': replayFull, models, http, generation, trials, threads, marking, rows: decodeRows, load, inrun, profile };
/** Run only when named: they take far longer than the rest. */
const OPT_IN = new Set(['generation', 'trials', 'threads', 'marking', 'rows', 'load', 'inrun', 'profile']);

const wanted = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(benches).filter((name) => !OPT_IN.has(name));
const { cpuLine } = await import('./cpuInfo.ts');
console.log(cpuLine());
// Every process the bench starts (ours, llama.cpp's, the Python peers) gets what lokalEvals() gives a run's workers
// with a local model: large allocations on transparent huge pages (src/vitest/hugePages.ts). BENCH_HUGE_PAGES=0: none.
if (process.env.BENCH_HUGE_PAGES !== '0') {
  const { hugePagesEnv } = await import('../src/vitest/hugePages.ts');
  Object.assign(process.env, hugePagesEnv());
}
console.log(`bench: child processes start with GLIBC_TUNABLES=${process.env.GLIBC_TUNABLES ?? '(unset)'}`);
for (const name of wanted) {
  const bench = benches[name];
  if (!bench) {
    console.error(`unknown benchmark ${JSON.stringify(name)}; known: ${Object.keys(benches).join(', ')}`);
    process.exit(2);
  }
  await bench();
}
console.log('\n| benchmark | ours | baseline | ratio | goal |\n|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.benchmark} | ${r.subject} | ${r.baseline} | ${r.ratioLabel ?? `${fmt(r.ratio)}x ${r.ratio >= 1 ? 'faster' : '(slower)'}`} | ${r.goal} |`);
