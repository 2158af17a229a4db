// The saved optimised graph: the first load keeps onnxruntime's optimised graph with its weights as
// external data (and the prepacked matrices: a later load maps them instead of packing again), later loads use it,
// and an entry that changed, is unreadable or was built under another key is rebuilt. Answers are compared with a
// plain load of the model's own file (optimisation on, nothing saved).
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import onnxProto from 'onnx-proto';
import { readFloatInitializers } from '../support/onnxGraph.ts';
import { writeTinyModel } from '../support/tinyModel.ts';
import { unprivilegedJson, unprivilegedUnavailable } from '../support/unprivileged.ts';
import { TransformersProvider } from '../../src/models/transformers.ts';
import type { GenerateRequest } from '../../src/models/types.ts';
import { LOGIT_POSITIONS_INPUT } from '../../src/models/logitPositions.ts';
import { cpuFeatures, entryProblem, optimisedGraphDir, optimisedGraphInputs, optimisedGraphKey } from '../../src/models/optimisedGraph.ts';
import { restoreConcurrentMarking } from '../support/concurrentMarking.ts';

const root = mkdtempSync(path.join(tmpdir(), 'lokal-optimised-'));
const model = path.join(root, 'tiny');
const cache = path.join(root, 'cache');
afterAll(() => rmSync(root, { recursive: true, force: true }));

const requests: GenerateRequest[] = [
  { prompt: 'D: Chi ha dipinto la Gioconda?\nR:', maxNewTokens: 6 },
  { messages: [{ role: 'user', content: 'Ano ang kabisera ng Pilipinas?' }], maxNewTokens: 6 },
];
let expected: string[];

/** Loads the model (saved graph on, cache in the test folder), answers the requests, closes it; returns what happened. */
async function loadAndAnswer(options: { saveOptimised?: boolean | 'auto'; cacheDir?: string; threads?: number } = { saveOptimised: true }) {
  const lines: string[] = [];
  const provider = new TransformersProvider(model, { env: {}, threads: 1, cacheDir: cache, log: (line) => lines.push(line), saveOptimised: true, ...options });
  try {
    const answers = (await provider.generate(requests)).map((r) => r.text);
    return { report: provider.loadReport!, lines, answers };
  } finally {
    restoreConcurrentMarking(provider);
    await provider.close();
  }
}

const entry = () => optimisedGraphDir(cache, { modelFolder: model, modelFile: 'model.onnx', dtype: 'fp32' });

beforeAll(async () => {
  writeTinyModel(model, { layers: 2, hidden: 64, heads: 4, kvHeads: 2, qkvBias: true, vocab: 400, seed: 11 });
  // a second method: the model's own file, optimised in memory only
  const plain = await loadAndAnswer({ saveOptimised: false });
  expect(plain.report.kind).toBe('plain');
  expected = plain.answers;
  expect(existsSync(cache)).toBe(false);
});

describe('saved optimised graph', () => {
  test('the first load optimises and saves the graph with external weights; the next load uses it and answers the same', async () => {
    const first = await loadAndAnswer();
    expect(first.report).toMatchObject({ kind: 'optimised', dir: entry() });
    expect(first.lines[0]).toMatch(/^lokal: optimising transformers:.*tiny \(fp32\) for the first time; later runs load the saved graph from /);
    expect(first.lines[1]).toMatch(/^lokal: loaded transformers:.*tiny \(fp32\) in \d+\.\d s, optimised for the first time/);
    expect(first.answers).toEqual(expected);
    const manifest = JSON.parse(readFileSync(path.join(entry(), 'manifest.json'), 'utf8'));
    // the weights are outside the graph file: external data of at least the model's float weights
    const data = path.join(entry(), 'onnx', 'model.onnx_data');
    expect(manifest.data.bytes).toBe(statSync(data).size);
    expect(statSync(data).size).toBeGreaterThan(statSync(path.join(entry(), 'onnx', 'model.onnx')).size);
    // ...and the MatMul weight matrices again in the kernels' prepacked layout, mapped by later loads instead of
    // packed again
    const weights = readFloatInitializers(readFileSync(path.join(model, 'onnx', 'model.onnx')));
    const source = onnxProto.onnx.ModelProto.decode(readFileSync(path.join(model, 'onnx', 'model.onnx')));
    const matmulWeights = (source.graph?.node ?? []).filter((n) => n.opType === 'MatMul').map((n) => n.input?.[1] ?? '').filter((name) => weights.has(name));
    expect(matmulWeights.length).toBeGreaterThan(0); // precondition
    const bytes = (names: Iterable<string>) => [...names].reduce((sum, name) => sum + 4 * weights.get(name)!.length, 0);
    // (the optimiser may fuse a few matrices before packing, so nine tenths of their bytes at least; without packed
    // copies the data is the weights alone)
    expect(statSync(data).size).toBeGreaterThanOrEqual(bytes(weights.keys()) + 0.9 * bytes(new Set(matmulWeights)));

    // the saved graph's output projection runs at the positions asked for only (logitPositions.ts), the model's own at all
    const inputNames = (file: string) => (onnxProto.onnx.ModelProto.decode(readFileSync(file)).graph!.input ?? []).map((i) => i.name);
    expect(inputNames(path.join(entry(), 'onnx', 'model.onnx'))).toEqual([...inputNames(path.join(model, 'onnx', 'model.onnx')), LOGIT_POSITIONS_INPUT]);

    const second = await loadAndAnswer();
    expect(second.report).toMatchObject({ kind: 'saved', dir: entry() });
    expect(second.lines).toHaveLength(1);
    expect(second.lines[0]).toMatch(/from its saved optimised graph/);
    expect(second.answers).toEqual(expected);

    // another thread count runs the same saved graph (threads are no part of its key) and answers the same
    const twoThreads = await loadAndAnswer({ threads: 2 });
    expect(twoThreads.report).toMatchObject({ kind: 'saved', dir: entry() });
    expect(twoThreads.answers).toEqual(expected);
  });

  test('transformers.js\'s own generate and continuation scoring on the saved graph (every position fed) answer and score as the plain load', async () => {
    const continuations = [
      { prompt: 'D: Chi ha dipinto la Gioconda?\nR:', continuation: ' Leonardo' },
      { prompt: 'D: Chi ha dipinto la Gioconda?\nR:', continuation: ' Raffaello Sanzio' },
      { messages: [{ role: 'user' as const, content: 'Ano ang kabisera ng Pilipinas?' }], continuation: 'Maynila' },
    ];
    const run = async (saveOptimised: boolean) => {
      // one request at a time through transformers.js's generate; scoring through its forward (prompts with their caches)
      const provider = new TransformersProvider(model, { env: {}, threads: 1, cacheDir: cache, log: () => undefined, saveOptimised, generateBatchSize: 1, sharePrefix: false });
      try {
        const answers = (await provider.generate(requests)).map((r) => r.text);
        const logprobs = (await provider.scoreContinuations(continuations)).map((r) => r.logprob);
        return { answers, logprobs, kind: provider.loadReport!.kind };
      } finally {
        await provider.close();
      }
    };
    const plain = await run(false);
    // the entry is built on the first saving load if no earlier test left one
    const saved = await run(true).then((first) => (first.kind === 'saved' ? first : run(true)));
    expect(saved.kind).toBe('saved');
    expect(saved.answers).toEqual(expected);
    expect(plain.answers).toEqual(expected);
    // the same graph optimised in memory and saved: the same float32 logits, so the same float64 sums
    expect(saved.logprobs).toEqual(plain.logprobs);
    expect(new Set(saved.logprobs).size).toBe(3);
  });

  test('tied embeddings: the lookup reads an alias of the embedding, the output projection its prepacked layout; same answers', async () => {
    const tied = path.join(root, 'tied');
    writeTinyModel(tied, { layers: 2, hidden: 64, heads: 4, kvHeads: 2, qkvBias: true, vocab: 400, seed: 12, tieEmbeddings: true });
    const answer = async (saveOptimised: boolean) => {
      const provider = new TransformersProvider(tied, { env: {}, threads: 1, cacheDir: cache, log: () => undefined, saveOptimised });
      try {
        return { answers: (await provider.generate(requests)).map((r) => r.text), kind: provider.loadReport!.kind };
      } finally {
        await provider.close();
      }
    };
    const plain = await answer(false);
    expect((await answer(true)).kind).toBe('optimised');
    const saved = await answer(true);
    expect(saved.kind).toBe('saved');
    expect(saved.answers).toEqual(plain.answers);
    const dir = optimisedGraphDir(cache, { modelFolder: tied, modelFile: 'model.onnx', dtype: 'fp32' });
    const graph = onnxProto.onnx.ModelProto.decode(readFileSync(path.join(dir, 'onnx', 'model.onnx'))).graph!;
    const [nodes, initializers] = [graph.node ?? [], graph.initializer ?? []];
    const external = (name: string) => Object.fromEntries((initializers.find((t) => t.name === name)!.externalData ?? []).map((e) => [e.key, e.value]));
    const lookup = nodes.find((n) => n.opType === 'Gather' && (n.input?.[0] ?? '').startsWith('model.embed_tokens.weight'))!;
    expect(lookup.input?.[0]).toBe('model.embed_tokens.weight.lookup');
    // the embedding itself is what the projection reads, prepacked; the alias names the same bytes, unpacked
    expect(nodes.some((n) => n.opType !== 'Gather' && (n.input ?? []).includes('model.embed_tokens.weight'))).toBe(true);
    const [embed, alias] = [external('model.embed_tokens.weight'), external('model.embed_tokens.weight.lookup')];
    expect(Object.keys(embed).some((k) => k.startsWith('prepacked'))).toBe(true);
    expect(alias).toEqual({ location: embed.location, offset: embed.offset, length: embed.length });
    // the projection runs at the positions asked for only (logitPositions.ts)
    expect((graph.input ?? []).map((i) => i.name)).toContain(LOGIT_POSITIONS_INPUT);
  });

  test('corrupted external data, a garbled graph or manifest, and a graph onnxruntime rejects are rebuilt, never used', async () => {
    const corruptions: Array<[string, () => void, RegExp]> = [
      ['external data overwritten', () => {
        const fd = openSync(path.join(entry(), 'onnx', 'model.onnx_data'), 'r+');
        writeSync(fd, Buffer.alloc(4096, 0x7f), 0, 4096, 0);
        closeSync(fd);
      }, /the external data changed/],
      ['external data truncated', () => writeFileSync(path.join(entry(), 'onnx', 'model.onnx_data'), 'short'), /external data is missing or of another size/],
      ['graph bytes changed', () => {
        const graph = path.join(entry(), 'onnx', 'model.onnx');
        const bytes = readFileSync(graph);
        bytes[bytes.length >> 1] ^= 0xff;
        writeFileSync(graph, bytes);
      }, /the graph file changed/],
      ['manifest garbled', () => writeFileSync(path.join(entry(), 'manifest.json'), '{"format": 1, "key": '), /manifest.json is unreadable/],
      ['manifest removed', () => rmSync(path.join(entry(), 'manifest.json')), /no manifest/],
      ['an entry of an older format', () => {
        const file = path.join(entry(), 'manifest.json');
        writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), format: 5 }));
      }, /made by another version of vitest-lokal \(entry format 5; this version reads 6\)/],
      // the manifest agrees with the bytes, but onnxruntime cannot parse them: the load fails and the entry is rebuilt
      ['graph replaced with garbage, manifest updated to match', () => {
        const graph = path.join(entry(), 'onnx', 'model.onnx');
        const garbage = Buffer.from('not an onnx model at all'.repeat(40));
        writeFileSync(graph, garbage);
        const manifestFile = path.join(entry(), 'manifest.json');
        const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
        manifest.graph.bytes = garbage.length;
        manifest.graph.sha256 = createHashHex(garbage);
        writeFileSync(manifestFile, JSON.stringify(manifest));
      }, /onnxruntime could not load it/],
    ];
    for (const [what, corrupt, reason] of corruptions) {
      corrupt();
      const rebuilt = await loadAndAnswer();
      expect(rebuilt.report.kind, what).toBe('optimised');
      expect(rebuilt.report.kind === 'optimised' && rebuilt.report.rebuilt, what).toMatch(reason);
      expect(rebuilt.lines[0], what).toMatch(/the saved graph was rebuilt/);
      expect(rebuilt.answers, what).toEqual(expected);
      expect(entryProblem(entry(), 'model.onnx', JSON.parse(readFileSync(path.join(entry(), 'manifest.json'), 'utf8')).key), what).toBeUndefined();
    }
  });

  test('a changed model file (new modification time), dtype, onnxruntime version, execution provider or CPU invalidate the entry', async () => {
    const before = await loadAndAnswer();
    expect(before.report.kind).toBe('saved');
    const file = path.join(model, 'onnx', 'model.onnx');
    const later = new Date(statSync(file).mtimeMs + 5000);
    utimesSync(file, later, later);
    const after = await loadAndAnswer();
    expect(after.report.kind === 'optimised' && after.report.rebuilt).toMatch(/built for another model file/);
    expect(after.answers).toEqual(expected);

    const input = { modelFolder: model, modelFile: 'model.onnx', dtype: 'fp32', ortVersion: '1.30.0', executionProvider: 'cpu' };
    const key = (extra: object) => optimisedGraphKey(optimisedGraphInputs({ ...input, cpu: cpuFeatures(), ...extra }));
    expect(key({})).toBe(key({}));
    for (const change of [{ dtype: 'fp16' }, { ortVersion: '1.29.0' }, { executionProvider: 'cuda' }, { cpu: 'another cpu' }])
      expect(key(change), JSON.stringify(change)).not.toBe(key({}));
  });

  test('a model cache that is a file, or a path under one (ENOTDIR), loads the model without saving, warning once per cache', async () => {
    const file = path.join(root, 'cache-file');
    writeFileSync(file, 'not a folder');
    for (const cacheDir of [file, path.join(file, 'under')]) {
      const first = await loadAndAnswer({ cacheDir });
      expect(first.report.kind).toBe('plain');
      expect(first.answers).toEqual(expected);
      expect(first.lines).toEqual([
        `lokal: the model cache ${cacheDir} (LOKAL_MODEL_CACHE) cannot be written (ENOTDIR): models load without saving there (downloads kept in memory, optimised graphs not saved); set LOKAL_MODEL_CACHE to a writable folder to keep them`,
        expect.stringMatching(/^lokal: loaded transformers:.*tiny \(fp32\) in \d+\.\d s$/u),
      ]);
      const again = await loadAndAnswer({ cacheDir });
      expect(again.answers).toEqual(expected);
      expect(again.lines).toEqual([expect.stringMatching(/^lokal: loaded transformers:.*tiny \(fp32\) in \d+\.\d s$/u)]);
    }
    expect(readFileSync(file, 'utf8')).toBe('not a folder');
  });

  // Root writes into a read-only folder, so the load runs in a child as an unprivileged user (test/support/unprivileged.ts).
  test.skipIf(unprivilegedUnavailable !== undefined)('a read-only model cache (EACCES, in a child run as nobody) loads the model without saving, warning once', () => {
    const readOnly = path.join(root, 'read-only-cache');
    mkdirSync(readOnly, { mode: 0o555 });
    chmodSync(readOnly, 0o555);
    chmodSync(root, 0o755);
    const result = unprivilegedJson<{ kinds: string[]; lines: string[]; answers: string[][] }>(`
      import { TransformersProvider } from './src/models/transformers.ts';
      const kinds = [], lines = [], answers = [];
      for (let i = 0; i < 2; i++) {
        const provider = new TransformersProvider(${JSON.stringify(model)}, { env: {}, threads: 1, cacheDir: ${JSON.stringify(readOnly)}, log: (line) => lines.push(line), saveOptimised: true });
        answers.push((await provider.generate(${JSON.stringify(requests)})).map((r) => r.text));
        kinds.push(provider.loadReport.kind);
        await provider.close();
      }
      process.stdout.write(JSON.stringify({ kinds, lines, answers }));`);
    expect(result.kinds).toEqual(['plain', 'plain']);
    expect(result.answers).toEqual([expected, expected]);
    expect(result.lines.filter((line) => line.includes('LOKAL_MODEL_CACHE'))).toEqual([
      `lokal: the model cache ${readOnly} (LOKAL_MODEL_CACHE) cannot be written (EACCES): models load without saving there (downloads kept in memory, optimised graphs not saved); set LOKAL_MODEL_CACHE to a writable folder to keep them`,
    ]);
    expect(readdirSync(readOnly)).toEqual([]);
  });

  test("by default ('auto') a model this small is not saved: its optimisation is instant", async () => {
    const small = await loadAndAnswer({ saveOptimised: 'auto' });
    expect(small.report.kind).toBe('plain');
    expect(small.lines).toEqual([expect.stringMatching(/^lokal: loaded transformers:.*tiny \(fp32\) in \d+\.\d s$/)]);
  });
});

const createHashHex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
