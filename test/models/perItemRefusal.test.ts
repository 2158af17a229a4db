// When a q8 model's per-item graph does not give the model's own logits on the CPU that runs it (its probe after the
// edit differs from the probe before: here a probe made to differ), the exact mode does not batch: the per-item entry
// is removed, the refusal recorded beside it under its key, the run goes on one prompt at a time, and the next load
// reads the refusal and keeps the model's own saved graph, saying why in its one line.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import type { TransformersProvider as Provider } from '../../src/models/transformers.ts';
import { writeQuantisedModel } from '../support/quantiseOnnx.ts';
import { writeTinyModel } from '../support/tinyModel.ts';

const probes = { calls: 0 };
let TransformersProvider: typeof Provider;
beforeAll(async () => {
  // the probe of the edited graph comes out different from the probe before the edit; test files share a module
  // registry here (isolate: false), so the provider is imported afresh with the mock, and the registry reset after
  vi.doMock('../../src/models/numericsProbe.ts', () => ({ numericsProbe: async () => `probe ${probes.calls++}` }));
  vi.resetModules();
  ({ TransformersProvider } = await import('../../src/models/transformers.ts'));
});
afterAll(() => {
  vi.doUnmock('../../src/models/numericsProbe.ts');
  vi.resetModules();
});

const root = mkdtempSync(path.join(tmpdir(), 'lokal-per-item-refusal-'));
const dir = path.join(root, 'qwen2');
const cacheDir = path.join(root, 'model-cache');
afterAll(() => rmSync(root, { recursive: true, force: true }));
beforeAll(() => {
  writeTinyModel(dir, { heads: 4, kvHeads: 2, qkvBias: true, hidden: 64, maxPositions: 256, seed: 47 });
  writeQuantisedModel(dir, 'q8');
});

const REQUESTS = ['Ciao', 'Salamat po', 'Dove si trova Milano?', 'Sino si Rizal?'].map((prompt) => ({ prompt, maxNewTokens: 4 }));

async function run(options: { exactBatching?: boolean } = {}) {
  const lines: string[] = [];
  const p = new TransformersProvider(dir, { env: {}, dtype: 'q8', threads: 1, cacheDir, log: (l) => lines.push(l), ...options });
  try {
    const answers = await Promise.all(REQUESTS.map(async (r) => (await p.generate([r]))[0]!.text));
    return { answers, lines, load: p.loadReport?.kind, largestBatch: p.generationStats.largestBatch };
  } finally {
    await p.close();
  }
}

test('a per-item graph whose probe differs is refused, recorded, and the model runs one prompt at a time', async () => {
  const reference = await run({ exactBatching: false });
  const refused = await run();
  expect(probes.calls).toBe(2);
  const why = "its per-item graph did not give the model's own logits on this CPU and onnxruntime";
  expect(refused.lines.filter((l) => l.includes(why))).toHaveLength(2);
  expect(refused.lines.find((l) => l.includes('it runs one prompt at a time'))).toMatch(/; its per-item graph did not give the model's own logits .*: it runs one prompt at a time$/u);
  expect([refused.load, refused.largestBatch]).toEqual(['plain', 1]);
  expect(refused.answers).toEqual(reference.answers);
  const entries = readdirSync(path.join(cacheDir, 'vitest-lokal-optimised'));
  // no per-item entry, its refusal beside where it was
  expect(entries.filter((e) => e.includes('per-item') && !e.endsWith('.refused.json'))).toEqual([]);
  const record = entries.find((e) => e.endsWith('.refused.json'));
  expect(JSON.parse(readFileSync(path.join(cacheDir, 'vitest-lokal-optimised', record!), 'utf8')).reason).toContain(why);

  // the next load reads the refusal: the model's own graph is saved and loaded, with no probe and no batching
  const next = await run();
  const again = await run();
  expect(probes.calls).toBe(2);
  expect([next.load, again.load, next.largestBatch, again.largestBatch]).toEqual(['optimised', 'saved', 1, 1]);
  expect(next.lines.find((l) => l.includes('runs one prompt at a time, as transformers.js does'))).toContain(`; not batched per item: ${why}`);
  expect(again.answers).toEqual(reference.answers);
  expect(existsSync(path.join(cacheDir, 'vitest-lokal-optimised', record!))).toBe(true);
});
