// Benchmark: onnxruntime's own default thread count against the provider's (the physical cores the process may use,
// src/models/physicalCores.ts) on one model file: a prompt pass of 128 tokens and a decode step of 8 rows over 300
// cached positions, each session in a child process of its own, alternating, with identical outputs required.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** What one child measures: seconds per prompt pass and per decode step (medians of its runs), and a checksum of the logits. */
interface ThreadRound {
  threads: number | 'default';
  promptSeconds: number;
  decodeSeconds: number;
  workerThreads: number;
  checksum: number;
}

// The child: plain onnxruntime-node on the file, the input shapes a Qwen2-style graph takes.
const CHILD = `
import ort from 'onnxruntime-node';
import { readdirSync } from 'node:fs';
const [file, threadsArg] = process.argv.slice(2);
const before = readdirSync('/proc/self/task').length;
const session = await ort.InferenceSession.create(file, threadsArg === 'default' ? {} : { intraOpNumThreads: Number(threadsArg) });
const kv = session.inputNames.filter((n) => n.startsWith('past_key_values'));
const meta = session.inputMetadata?.find?.((m) => m.name === kv[0]);
const [heads, dim] = meta?.shape ? [meta.shape[1], meta.shape[3]] : [2, 64];
const feeds = (rows, tokens, past) => {
  const f = {
    input_ids: new ort.Tensor('int64', BigInt64Array.from({ length: rows * tokens }, (_, i) => BigInt(100 + (i % 500))), [rows, tokens]),
    attention_mask: new ort.Tensor('int64', new BigInt64Array(rows * (tokens + past)).fill(1n), [rows, tokens + past]),
  };
  if (session.inputNames.includes('position_ids')) f.position_ids = new ort.Tensor('int64', BigInt64Array.from({ length: rows * tokens }, (_, i) => BigInt(past + (i % tokens))), [rows, tokens]);
  for (const name of kv) f[name] = new ort.Tensor('float32', new Float32Array(rows * heads * past * dim).fill(0.01), [rows, heads, past, dim]);
  return f;
};
const time = async (f, runs) => {
  const seconds = [];
  let out;
  for (let r = 0; r < runs; r++) { const t = performance.now(); out = await session.run(f); seconds.push((performance.now() - t) / 1000); }
  seconds.sort((a, b) => a - b);
  return { seconds: seconds[seconds.length >> 1], logits: out.logits.data };
};
const prompt = await time(feeds(1, 128, 0), 5);
const decode = await time(feeds(8, 1, 300), 9);
let checksum = 0;
for (let i = 0; i < decode.logits.length; i += 97) checksum += decode.logits[i];
console.log(JSON.stringify({ promptSeconds: prompt.seconds, decodeSeconds: decode.seconds, workerThreads: readdirSync('/proc/self/task').length - before, checksum }));
`;

export async function benchSessionThreads(file: string, rounds: number, threads: number): Promise<{ defaults: ThreadRound[]; ours: ThreadRound[] }> {
  // beside node_modules, so the child resolves onnxruntime-node from this repository
  const script = path.join(repoRoot, 'node_modules', '.cache', 'bench-session-threads.mjs');
  mkdirSync(path.dirname(script), { recursive: true });
  writeFileSync(script, CHILD);
  const run = (arg: string): ThreadRound => {
    const child = spawnSync(process.execPath, [script, file, arg], { cwd: repoRoot, encoding: 'utf8', maxBuffer: 1 << 24 });
    if (child.status !== 0) throw new Error(`threads: the child failed (${child.status ?? child.signal}): ${(child.stderr || child.stdout).slice(-2000)}`);
    return { threads: arg === 'default' ? 'default' : Number(arg), ...JSON.parse(child.stdout.trim().split('\n').at(-1)!) };
  };
  const defaults: ThreadRound[] = [];
  const ours: ThreadRound[] = [];
  for (let round = 0; round < rounds; round++) {
    if (round % 2) ours.push(run(String(threads))), defaults.push(run('default'));
    else defaults.push(run('default')), ours.push(run(String(threads)));
  }
  return { defaults, ours };
}
