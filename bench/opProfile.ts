// Benchmark: where one-at-a-time generation spends its time per dtype (fp32, q8, q4) on a model folder — onnxruntime's
// own profiler over one prompt pass and the decode steps after it, summed by operator type — so a missed dtype goal
// comes with the profile that explains it.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ort from 'onnxruntime-node';

/** The files transformers.js loads by dtype (its `dtype` option). */
const DTYPE_FILE: Record<string, string> = { fp32: 'model.onnx', q8: 'model_quantized.onnx', q4: 'model_q4.onnx', fp16: 'model_fp16.onnx' };

export interface OpShare {
  op: string;
  ms: number;
  share: number;
}

export interface DtypeProfile {
  dtype: string;
  fileMiB: number;
  createSeconds: number;
  prefillMs: number;
  decodeMsPerStep: number;
  prefill: OpShare[];
  decode: OpShare[];
}

interface ProfileEvent {
  cat: string;
  name: string;
  dur: number;
  ts: number;
  args?: { op_name?: string };
}

/** Per operator type: total milliseconds over the events and their share of the sum, largest first. */
export function opShares(events: readonly ProfileEvent[]): OpShare[] {
  const byOp = new Map<string, number>();
  for (const e of events) {
    // onnxruntime writes a node's time as `<node>_kernel_time`; `_fence_before/after` are waits, not work
    if (e.cat !== 'Node' || !e.name.endsWith('_kernel_time')) continue;
    const op = e.args?.op_name ?? '?';
    byOp.set(op, (byOp.get(op) ?? 0) + e.dur / 1000);
  }
  const total = [...byOp.values()].reduce((a, b) => a + b, 0);
  return [...byOp].map(([op, ms]) => ({ op, ms, share: total > 0 ? ms / total : 0 })).sort((a, b) => b.ms - a.ms);
}

/** Profiles one dtype's file: session creation, one prompt pass of `promptTokens`, then `steps` decode steps, batch 1. */
export async function profileDtype(dir: string, dtype: string, promptTokens: number, steps: number, threads?: number): Promise<DtypeProfile> {
  const file = path.join(dir, 'onnx', DTYPE_FILE[dtype] ?? `${dtype}.onnx`);
  const config = JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8'));
  const kvHeads: number = config.num_key_value_heads;
  const headDim: number = config.head_dim ?? config.hidden_size / config.num_attention_heads;
  const profDir = mkdtempSync(path.join(tmpdir(), 'lokal-op-profile-'));
  try {
    const started = performance.now();
    const session = await ort.InferenceSession.create(file, {
      graphOptimizationLevel: 'all',
      enableProfiling: true,
      profileFilePrefix: path.join(profDir, dtype),
      ...(threads ? { intraOpNumThreads: threads } : {}),
    });
    const createSeconds = (performance.now() - started) / 1000;
    const pastNames = session.inputNames.filter((n) => n.startsWith('past_key_values.'));
    const feeds = (ids: number[], past: Record<string, ort.Tensor>, pastLength: number): Record<string, ort.Tensor> => {
      const total = pastLength + ids.length;
      const feed: Record<string, ort.Tensor> = {
        input_ids: new ort.Tensor('int64', BigInt64Array.from(ids.map(BigInt)), [1, ids.length]),
        attention_mask: new ort.Tensor('int64', new BigInt64Array(total).fill(1n), [1, total]),
        position_ids: new ort.Tensor('int64', BigInt64Array.from(ids.map((_, i) => BigInt(pastLength + i))), [1, ids.length]),
      };
      for (const name of pastNames) feed[name] = past[name] ?? new ort.Tensor('float32', new Float32Array(0), [1, kvHeads, 0, headDim]);
      return feed;
    };
    // Token ids spread over the vocabulary, deterministic: the profile depends on shapes, not on which ids.
    const prompt = Array.from({ length: promptTokens }, (_, i) => (i * 7919 + 13) % Math.min(config.vocab_size, 150000));
    let t = performance.now();
    let out = await session.run(feeds(prompt, {}, 0));
    const prefillMs = performance.now() - t;
    const nextPast = (o: ort.InferenceSession.OnnxValueMapType) => Object.fromEntries(pastNames.map((n) => [n, o[n.replace('past_key_values', 'present')] as ort.Tensor]));
    let past = nextPast(out);
    t = performance.now();
    for (let s = 0; s < steps; s++) {
      out = await session.run(feeds([(s * 31 + 5) % 1000], past, promptTokens + s));
      past = nextPast(out);
    }
    const decodeMsPerStep = (performance.now() - t) / steps;
    session.endProfiling();
    await session.release();
    const profileFile = readdirSync(profDir).map((f) => path.join(profDir, f)).find((f) => f.endsWith('.json'));
    if (!profileFile) throw new Error(`op profile: onnxruntime wrote no profile for ${file}`);
    const events = JSON.parse(readFileSync(profileFile, 'utf8')) as ProfileEvent[];
    // Runs are `model_run` Session events in order: the first is the prompt pass, the rest decode steps.
    const runs = events.filter((e) => e.cat === 'Session' && e.name === 'model_run').sort((a, b) => a.ts - b.ts);
    const firstEnd = runs[0] ? runs[0].ts + runs[0].dur : Infinity;
    const nodes = events.filter((e) => e.cat === 'Node');
    return {
      dtype,
      fileMiB: statSync(file).size / 2 ** 20,
      createSeconds,
      prefillMs,
      decodeMsPerStep,
      prefill: opShares(nodes.filter((e) => e.ts < firstEnd)),
      decode: opShares(nodes.filter((e) => e.ts >= firstEnd)),
    };
  } finally {
    rmSync(profDir, { recursive: true, force: true });
  }
}

const pct = (x: number) => `${(100 * x).toFixed(0)}%`;
const top = (shares: readonly OpShare[], n = 6) => shares.slice(0, n).map((s) => `${s.op} ${pct(s.share)}`).join(', ');

/** Prints one line per dtype and phase: time and the operator types that take it. */
export async function benchOpProfile(dir: string, dtypes: readonly string[], promptTokens: number, steps: number, threads?: number): Promise<DtypeProfile[]> {
  const results: DtypeProfile[] = [];
  for (const dtype of dtypes) {
    const r = await profileDtype(dir, dtype, promptTokens, steps, threads);
    results.push(r);
    console.log(
      `profile ${dtype}: ${path.basename(DTYPE_FILE[dtype] ?? dtype)} ${r.fileMiB.toFixed(0)} MiB; session created in ${r.createSeconds.toFixed(2)} s ` +
        `(optimised at creation, not loaded from the provider's saved graph)`,
    );
    console.log(`profile ${dtype}: prompt pass of ${promptTokens} tokens ${r.prefillMs.toFixed(0)} ms: ${top(r.prefill)}`);
    console.log(`profile ${dtype}: decode ${r.decodeMsPerStep.toFixed(1)} ms a step over ${steps} steps: ${top(r.decode)}`);
  }
  return results;
}
