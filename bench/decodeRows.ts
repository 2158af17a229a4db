// Benchmark: what a decode step costs per row as its batch grows (8, 16, 32 rows over 300 cached positions) on one
// model file, in a fresh process per round with the provider's thread count: whether larger decode batches (an item's
// k trials decoded together, docs/performance-trials.md) would make a row cheaper.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

// The child: plain onnxruntime-node on the file (graph optimisation off for a saved optimised graph), Qwen2-style inputs.
const CHILD = `
import ort from 'onnxruntime-node';
const [file, threads, optimised, rowsList] = process.argv.slice(2);
const session = await ort.InferenceSession.create(file, { intraOpNumThreads: Number(threads), ...(optimised === 'saved' ? { graphOptimizationLevel: 'disabled' } : {}) });
const kv = session.inputNames.filter((n) => n.startsWith('past_key_values'));
const meta = session.inputMetadata?.find?.((m) => m.name === kv[0]);
const [heads, dim] = meta?.shape ? [meta.shape[1], meta.shape[3]] : [2, 64];
const positions = session.inputNames.find((n) => n.endsWith('logit_positions'));
const past = 300;
const result = {};
for (const rows of rowsList.split(',').map(Number)) {
  const f = {
    input_ids: new ort.Tensor('int64', BigInt64Array.from({ length: rows }, (_, i) => BigInt(100 + i)), [rows, 1]),
    attention_mask: new ort.Tensor('int64', new BigInt64Array(rows * (past + 1)).fill(1n), [rows, past + 1]),
  };
  if (session.inputNames.includes('position_ids')) f.position_ids = new ort.Tensor('int64', new BigInt64Array(rows).fill(BigInt(past)), [rows, 1]);
  if (positions) f[positions] = new ort.Tensor('int64', BigInt64Array.from({ length: rows }, (_, i) => BigInt(i)), [rows, 1]);
  for (const name of kv) f[name] = new ort.Tensor('float32', new Float32Array(rows * heads * past * dim).fill(0.01), [rows, heads, past, dim]);
  for (let r = 0; r < 2; r++) await session.run(f);
  const seconds = [];
  for (let r = 0; r < 7; r++) { const t = performance.now(); await session.run(f); seconds.push((performance.now() - t) / 1000); }
  seconds.sort((a, b) => a - b);
  result[rows] = seconds[3];
}
console.log(JSON.stringify(result));
`;

/** Median seconds of a decode step per batch size, one fresh process per round (the sizes in reverse order every other round). */
export function benchDecodeRows(file: string, saved: boolean, threads: number, rounds: number, sizes = [8, 16, 32]): Array<Record<number, number>> {
  // beside node_modules, so the child resolves onnxruntime-node from this repository
  const script = path.join(repoRoot, 'node_modules', '.cache', 'bench-decode-rows.mjs');
  mkdirSync(path.dirname(script), { recursive: true });
  writeFileSync(script, CHILD);
  const out: Array<Record<number, number>> = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? sizes : [...sizes].reverse();
    const child = spawnSync(process.execPath, [script, file, String(threads), saved ? 'saved' : 'plain', order.join(',')], { cwd: repoRoot, encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`rows: the child failed (${child.status ?? child.signal}): ${(child.stderr || child.stdout).slice(-2000)}`);
    out.push(JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Record<number, number>);
  }
  return out;
}
