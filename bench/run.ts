// `npm run bench`: every speed claim of the project, each measured against its baseline in this same run.
// Usage: npm run bench [-- metrics replay models http]   (default: all)
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ModeWork } from './models.ts';
import { randomPairs } from './randomPairs.ts';
import { scoreExample } from '../src/benchmarks/multiloko/metrics/scoreExample.ts';

interface Row {
  benchmark: string;
  subject: string;
  baseline: string;
  ratio: number;
  goal: string;
}

const rows: Row[] = [];

const fmt = (x: number, digits = 2) => x.toFixed(digits);

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
    goal: 'within 1.3x of ideal (≥ 0.77)',
  });
}

const benches: Record<string, () => Promise<void>> = { metrics, replay, models, http };

const wanted = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(benches);
for (const name of wanted) {
  const bench = benches[name];
  if (!bench) {
    console.error(`unknown benchmark ${JSON.stringify(name)}; known: ${Object.keys(benches).join(', ')}`);
    process.exit(2);
  }
  await bench();
}
console.log('\n| benchmark | ours | baseline | speed-up | goal |\n|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.benchmark} | ${r.subject} | ${r.baseline} | ${fmt(r.ratio)}x | ${r.goal} |`);
