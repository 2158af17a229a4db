// The Python onnxruntime peer of `npm run bench -- inrun` (BENCH_ORT_PYTHON: a Python with onnxruntime and numpy):
// bench/ort_peer.py runs greedy generation with prefix reuse and batches of 8 directly on onnxruntime's Python API, on
// the saved optimised graph file the `transformers:` provider of the vitest run loaded, over the same prompt token ids;
// it returns the ids it generated, which are decoded here as the provider decodes its own, so the answers are compared.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { optimisedGraphDir } from '../src/models/optimisedGraph.ts';
import { cutAtStop } from '../src/models/providerText.ts';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** What bench/ort_peer.py writes (the edge: checked, not trusted). */
export const OrtPeerResultSchema = z.object({
  seconds: z.number(),
  cpuSeconds: z.number(),
  /** Seconds inside session.run, and how many runs. */
  runSeconds: z.number(),
  runCalls: z.number().int(),
  decodeSeconds: z.number(),
  decodeSteps: z.number().int(),
  sharedPrefix: z.number().int(),
  generated: z.array(z.array(z.number().int())),
  importSeconds: z.number(),
  loadSeconds: z.number(),
  threads: z.number().int(),
  profile: z.string().nullable(),
  versions: z.record(z.string(), z.string()),
});
export type OrtPeerResult = z.infer<typeof OrtPeerResultSchema>;

/** What bench/ort_peer.py reads. */
export interface OrtPeerJob {
  graph: string;
  tokenizer: string;
  /** onnxruntime intra-op threads; 0: onnxruntime's own default. */
  threads: number;
  batchSize: number;
  prompts: number[][];
  maxNewTokens: number[];
  stops: string[][];
  eos: number[];
  pad: number;
  /** The logit-positions input to feed where the graph has it (LOGIT_POSITIONS_INPUT); null: every position's logits. */
  logitPositions: string | null;
  /** onnxruntime's profiling file prefix (SessionOptions.enable_profiling), or null. */
  profile: string | null;
}

/** The Python has onnxruntime and numpy (their versions), or an error naming what is missing. */
export function checkOrtPython(python: string): string {
  const probe = spawnSync(python, ['-c', 'import onnxruntime, numpy, sys; print(sys.version.split()[0], onnxruntime.__version__, numpy.__version__)'], { encoding: 'utf8' });
  if (probe.status !== 0)
    throw new Error(`BENCH_ORT_PYTHON=${python}: cannot import onnxruntime and numpy (${(probe.error?.message ?? probe.stderr).trim().split('\n').at(-1)}); pip install onnxruntime numpy`);
  const [py, ortVersion, numpy] = probe.stdout.trim().split(' ');
  return `Python ${py}, onnxruntime ${ortVersion}, numpy ${numpy}`;
}

/** The saved optimised graph the provider keeps for the fp32 model of `modelDir` under `cacheRoot` (LOKAL_MODEL_CACHE). */
export function savedGraphFile(cacheRoot: string, modelDir: string): string {
  const file = path.join(optimisedGraphDir(cacheRoot, { modelFolder: modelDir, modelFile: 'model.onnx', dtype: 'fp32' }), 'onnx', 'model.onnx');
  if (!existsSync(file)) throw new Error(`inrun: no saved optimised graph at ${file}: the vitest run did not save one (weights under 64 MiB are not saved by default)`);
  return file;
}

/**
 * A row's answer from the ids it generated, as the provider makes one (finalText in src/models/transformers.ts): up to
 * the first end-of-sequence id, decoded without special tokens, cut before the first stop string.
 */
export function peerAnswer(generated: readonly number[], eos: readonly number[], stops: readonly string[], decode: (ids: number[]) => string): string {
  const eosAt = generated.findIndex((t) => eos.includes(t));
  const kept = eosAt >= 0 ? generated.slice(0, eosAt) : generated.slice();
  return kept.length === 0 ? '' : cutAtStop(decode(kept), stops.filter((s) => s !== ''));
}

/** One peer process; throws with its output's tail when it fails. */
export function runOrtPeer(python: string, job: OrtPeerJob, temp: string): OrtPeerResult {
  const jobFile = path.join(temp, 'ort-peer-job.json');
  const resultFile = path.join(temp, 'ort-peer-result.json');
  writeFileSync(jobFile, JSON.stringify(job));
  const run = spawnSync(python, [path.join(repoRoot, 'bench/ort_peer.py'), jobFile, resultFile], { cwd: repoRoot, encoding: 'utf8', maxBuffer: 1 << 26 });
  if (run.status !== 0) throw new Error(`inrun: the Python onnxruntime peer failed (${run.status ?? run.signal}): ${(run.stderr || run.stdout || run.error?.message || '').slice(-3000)}`);
  const parsed = OrtPeerResultSchema.safeParse(JSON.parse(readFileSync(resultFile, 'utf8')));
  if (!parsed.success) throw new Error(`inrun: ${resultFile} from bench/ort_peer.py: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  rmSync(resultFile);
  if (parsed.data.generated.length !== job.prompts.length) throw new Error(`inrun: the Python onnxruntime peer answered ${parsed.data.generated.length} of ${job.prompts.length} prompts`);
  return parsed.data;
}
