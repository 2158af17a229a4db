// Which numerics a graph allows, read from the file: q8 (per-tensor dynamic quantisation) and fp16 run in the exact
// mode (one prompt at a time, as transformers.js), fp32 and q4 (weight-only) batched; recorded in describe(), hence
// the cache key and the fingerprint; one line says why a model runs one prompt at a time.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { generateCacheKey } from '../../src/models/cache.ts';
import { graphNumerics } from '../../src/models/graphNumerics.ts';
import { readOnnxGraphFile } from '../../src/models/onnxGraphReader.ts';
import { TransformersProvider } from '../../src/models/transformers.ts';
import { QUANTISED_FILES, writeQuantisedModel } from '../support/quantiseOnnx.ts';
import { writeTinyModel } from '../support/tinyModel.ts';

const root = mkdtempSync(path.join(tmpdir(), 'lokal-numerics-'));
const dir = path.join(root, 'qwen2');
afterAll(() => rmSync(root, { recursive: true, force: true }));
beforeAll(() => {
  writeTinyModel(dir, { heads: 4, kvHeads: 2, qkvBias: true, maxPositions: 256, seed: 31 });
  for (const dtype of ['q8', 'q4', 'fp16'] as const) writeQuantisedModel(dir, dtype);
});

describe('graphNumerics', () => {
  test('per-tensor dynamic quantisation and float16 need the exact mode; float32 and MatMulNBits keep rows independent', () => {
    const of = (file: string) => graphNumerics(readOnnxGraphFile(path.join(dir, 'onnx', file)));
    expect(of('model.onnx')).toEqual({ numerics: 'batched' });
    expect(of(QUANTISED_FILES.q4)).toEqual({ numerics: 'batched' });
    expect(of(QUANTISED_FILES.q8)).toEqual({ numerics: 'exact', reason: "its graph quantises activations per tensor (DynamicQuantizeLinear ×9), so a batch would change each item's numbers" });
    expect(of(QUANTISED_FILES.fp16).numerics).toBe('exact');
    expect(of(QUANTISED_FILES.fp16).reason).toMatch(/float16/u);
    // float16 rounds by batch shape: the exact mode cannot batch it per item
    expect(of(QUANTISED_FILES.fp16).notPerItem).toMatch(/float16/u);
  });

  test('a file that is not an ONNX model is an error', () => {
    expect(() => readOnnxGraphFile(path.join(dir, 'tokenizer.json'))).toThrow();
  });
});

describe('the transformers provider', () => {
  const lines: string[] = [];
  const provider = (options: ConstructorParameters<typeof TransformersProvider>[1]) => new TransformersProvider(dir, { env: {}, threads: 1, log: (l) => lines.push(l), ...options });

  test('records the numerics in describe(), so the cache key and the fingerprint tell the modes apart', () => {
    const q8 = provider({ dtype: 'q8' });
    const forced = provider({ dtype: 'q8', numerics: 'batched' });
    expect(q8.describe().settings.numerics).toBe('exact');
    expect(forced.describe().settings.numerics).toBe('batched');
    expect(provider({ dtype: 'fp32' }).numerics).toBe('batched');
    expect(provider({ dtype: 'q4' }).numerics).toBe('batched');
    expect(provider({ dtype: 'fp16' }).numerics).toBe('exact');
    expect(provider({ dtype: 'q8', env: { LOKAL_NUMERICS: 'Batched' } }).numerics).toBe('batched');
    const req = { prompt: 'Ciao', maxNewTokens: 4 };
    expect(generateCacheKey(q8.describe(), req)).not.toBe(generateCacheKey(forced.describe(), req));
  });

  test('a Hub model: its downloaded graph decides; before the download, the dtype as transformers.js publishes it', () => {
    const cache = path.join(root, 'hub-cache');
    const hub = (dtype: 'q8' | 'fp32') => new TransformersProvider('someone/tiny', { env: {}, cacheDir: cache, dtype, allowRemote: false });
    expect(hub('q8').numerics).toBe('exact');
    expect(hub('fp32').numerics).toBe('batched');
    // a q8 file that is not dynamically quantised (here the float32 graph under that name): read, not assumed
    mkdirSync(path.join(cache, 'someone/tiny/onnx'), { recursive: true });
    copyFileSync(path.join(dir, 'onnx/model.onnx'), path.join(cache, 'someone/tiny/onnx', QUANTISED_FILES.q8));
    expect(hub('q8').numerics).toBe('batched');
  });

  test('an exact-mode model says once, in one line, why and how it gives each item its numbers alone', async () => {
    lines.length = 0;
    const q8 = provider({ dtype: 'q8', cacheDir: path.join(root, 'model-cache') });
    await q8.generate([{ prompt: 'Ciao', maxNewTokens: 2 }]);
    expect(lines.filter((l) => l.includes('one prompt at a time'))).toEqual([
      `lokal: transformers:${dir} (q8) gives each item what transformers.js gives it one prompt at a time (exact numerics): its graph quantises activations per tensor (DynamicQuantizeLinear ×9), so a batch would change each item's numbers; its saved graph therefore quantises each item on its own (prompts pass alone, decode steps are batched)`,
    ]);
    await q8.close();
    lines.length = 0;
    const alone = provider({ dtype: 'q8', exactBatching: false });
    await alone.generate([{ prompt: 'Ciao', maxNewTokens: 2 }]);
    expect(lines.filter((l) => l.includes('one prompt at a time'))).toEqual([
      `lokal: transformers:${dir} (q8) runs one prompt at a time, as transformers.js does (exact numerics): its graph quantises activations per tensor (DynamicQuantizeLinear ×9), so a batch would change each item's numbers; not batched per item: LOKAL_EXACT_BATCHING=0 (LOKAL_NUMERICS=batched batches anyway)`,
    ]);
    await alone.close();
    lines.length = 0;
    const forced = provider({ dtype: 'q8', numerics: 'batched' });
    await forced.generate([{ prompt: 'Ciao', maxNewTokens: 2 }]);
    expect(lines.filter((l) => l.includes('one prompt at a time'))).toEqual([]);
    expect(lines.filter((l) => l.includes('runs batched'))).toEqual([
      `lokal: transformers:${dir} (q8) runs batched (LOKAL_NUMERICS=batched) although its graph quantises activations per tensor (DynamicQuantizeLinear ×9), so a batch would change each item's numbers: an item's answer may depend on the items batched with it`,
    ]);
    await forced.close();
  });

  test('bad numerics and a dtype whose file is missing are one line each, the latter naming the files present', () => {
    expect(() => provider({ env: { LOKAL_NUMERICS: 'fast' } })).toThrow('numerics must be one of exact, batched, got "fast" (LOKAL_NUMERICS)');
    const other = path.join(root, 'only-q8');
    writeTinyModel(other, { maxPositions: 64, seed: 32 });
    writeQuantisedModel(other, 'q8');
    unlinkSync(path.join(other, 'onnx', 'model.onnx'));
    expect(() => new TransformersProvider(other, { env: {}, dtype: 'q4' })).toThrow(
      `${path.join(other, 'onnx')} has no weights for dtype q4 (model_q4.onnx); it holds model_quantized.onnx (q8)`,
    );
  });
});
