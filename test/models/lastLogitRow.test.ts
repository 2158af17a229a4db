// In the exact numerics (one prompt alone, through transformers.js's generate) a saved graph that names its logit
// positions runs the output projection at each pass's last position only, which is all generate reads; forward passes
// that score continuations still get every position. The answers are those of the plain graph, which computes every
// position (test/models/quantisedParity.test.ts holds those to transformers.js alone). The load checks once that the
// last row comes out the same bits alone as among the others; that check is not counted as scoring work.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { InferenceSession as Session } from 'onnxruntime-common';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { TransformersProvider, type TransformersProviderOptions } from '../../src/models/transformers.ts';
import type { GenerateRequest } from '../../src/models/types.ts';
import { writeQuantisedModel } from '../support/quantiseOnnx.ts';
import { writeTinyModel } from '../support/tinyModel.ts';

// The class transformers.js's sessions are made of: onnxruntime-node's (CommonJS) build of onnxruntime-common.
const { InferenceSession } = createRequire(import.meta.url)('onnxruntime-node') as { InferenceSession: { prototype: Session } };

const root = mkdtempSync(path.join(tmpdir(), 'lokal-last-logit-row-'));
const dir = path.join(root, 'qwen2');
afterAll(() => rmSync(root, { recursive: true, force: true }));
beforeAll(() => {
  writeTinyModel(dir, { heads: 4, kvHeads: 2, qkvBias: true, hidden: 64, maxPositions: 512, seed: 43, tieEmbeddings: true });
  writeQuantisedModel(dir, 'q8');
});

const REQUESTS: GenerateRequest[] = ['Ano ang kabisera ng Pilipinas?', 'Which river flows through Rome?', 'Dove si trova Milano?', 'Sino si Rizal?'].map(
  (q, i) => ({ messages: [{ role: 'user', content: q }], maxNewTokens: 8, itemKey: `q${i}` }),
);

type Run = { ids?: readonly number[]; logits?: readonly number[] };
/** Where session runs are recorded now (input_ids' and logits' shapes), if anywhere. */
let recording: Run[] | undefined;
// Patched once for the whole file: the provider binds its sessions' run when it loads.
const originalRun = InferenceSession.prototype.run;
beforeAll(() => {
  InferenceSession.prototype.run = async function (this: Session, ...args: Parameters<Session['run']>) {
    const out = await originalRun.apply(this, args);
    const feeds = args[0] as Record<string, { dims?: readonly number[] }>;
    recording?.push({ ids: feeds.input_ids?.dims, logits: (out.logits as { dims?: readonly number[] } | undefined)?.dims });
    return out;
  } as Session['run'];
});
afterAll(() => {
  InferenceSession.prototype.run = originalRun;
});

async function recordRuns(work: () => Promise<unknown>): Promise<Run[]> {
  const runs: Run[] = [];
  recording = runs;
  try {
    await work();
    return runs;
  } finally {
    recording = undefined;
  }
}

async function answers(options: TransformersProviderOptions) {
  const p = new TransformersProvider(dir, { env: {}, dtype: 'q8', log: () => undefined, ...options });
  try {
    const generated: string[] = [];
    const generation = await recordRuns(async () => {
      for (const r of REQUESTS) generated.push((await p.generate([r]))[0]!.text);
    });
    const scoredBefore = p.scoringStats.forwardCalls;
    const scoring = await recordRuns(() => p.scoreContinuations([{ messages: REQUESTS[0]!.messages!, continuation: 'Maynila.', itemKey: 's' }]));
    return { numerics: p.numerics, load: p.loadReport?.kind, generated, generation, scoring, scoredBefore, scoredAfter: p.scoringStats.forwardCalls };
  } finally {
    await p.close();
  }
}

test('a saved graph gives generate the last position only, with the plain graph answers; scoring gets every position', async () => {
  // transformers.js's generate one prompt at a time (the exact mode's other way: its per-item batching is off)
  const plain = await answers({ saveOptimised: false, exactBatching: false });
  const cacheDir = path.join(root, 'model-cache');
  await answers({ saveOptimised: true, cacheDir, exactBatching: false });
  const saved = await answers({ saveOptimised: true, cacheDir, exactBatching: false });
  expect([plain.numerics, plain.load, saved.numerics, saved.load]).toEqual(['exact', 'plain', 'exact', 'saved']);
  expect(saved.generated).toEqual(plain.generated);
  expect(new Set(plain.generated).size).toBeGreaterThan(1);

  const promptPasses = (runs: Run[]) => runs.filter((r) => (r.ids?.[1] ?? 0) > 1);
  // The plain graph: each prompt pass's logits at every position.
  expect(promptPasses(plain.generation).length).toBe(REQUESTS.length);
  for (const r of promptPasses(plain.generation)) expect(r.logits?.[1]).toBe(r.ids?.[1]);
  // The saved graph: one row per prompt pass, after the load's check (a pass of 64 at every position, then at its last).
  const [checkAll, checkLast, ...passes] = promptPasses(saved.generation);
  expect([checkAll?.ids?.[1], checkAll?.logits?.[1], checkLast?.ids?.[1], checkLast?.logits?.[1]]).toEqual([64, 64, 64, 1]);
  expect(passes.length).toBe(REQUESTS.length);
  for (const r of passes) expect(r.logits?.[1]).toBe(1);
  // Scoring a continuation reads every position of its pass.
  const scoring = promptPasses(saved.scoring);
  expect(scoring.length).toBe(1);
  expect(scoring[0]!.logits?.[1]).toBe(scoring[0]!.ids?.[1]);
  // The load's check is not counted as scoring work.
  expect([saved.scoredBefore, saved.scoredAfter]).toEqual([0, 1]);
});
