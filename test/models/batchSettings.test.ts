// LOKAL_GENERATE_BATCH_SIZE, LOKAL_MAX_BATCH_TOKENS and LOKAL_PREFIX_CACHE_TOKENS reach the transformers provider:
// the same concurrent requests on a generated model batch at most as wide as set and reuse no prefix when it is 0.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BENCHMARKS } from '../../src/benchmarks/index.ts';
import { resolveSettingsTree, sharedSettings } from '../../src/core/settings.ts';
import { lokalModelOptions, openLokalModel } from '../../src/models/open.ts';
import type { TransformersProvider } from '../../src/models/transformers.ts';
import { writeTinyModel } from '../support/tinyModel.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-batch-settings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => {
  writeTinyModel(dir, { heads: 4, kvHeads: 2, qkvBias: true, seed: 5 });
});

const sections = BENCHMARKS.map((b) => b.settings);
const settingsFrom = (env: Record<string, string>) => sharedSettings(resolveSettingsTree(sections, {}, { cwd: dir, env }));

/** Six concurrent calls that share a long prefix, on the model built from these variables. */
async function run(env: Record<string, string>) {
  const model = await openLokalModel(`transformers:${dir}`, { ...lokalModelOptions(settingsFrom(env)), cache: { mode: 'off', file: '' } });
  const shared = 'Answer briefly, in one short sentence, without repeating the question. Question number ';
  const texts = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => model.provider.generate([{ prompt: `${shared}${i}: what comes next?`, maxNewTokens: 6 }]).then((r) => r[0]!.text)));
  const stats = (model.inner as TransformersProvider).generationStats;
  await model.provider.close?.();
  return { texts, stats };
}

describe('batch settings', () => {
  test('variables become provider options; bad values name the variable', () => {
    const options = lokalModelOptions(settingsFrom({ LOKAL_GENERATE_BATCH_SIZE: '4', LOKAL_MAX_BATCH_TOKENS: '2048', LOKAL_PREFIX_CACHE_TOKENS: '0' }));
    expect(options.transformers).toEqual({ generateBatchSize: 4, maxBatchTokens: 2048, prefixCacheTokens: 0 });
    expect(lokalModelOptions(settingsFrom({})).transformers).toEqual({});
    expect(() => settingsFrom({ LOKAL_GENERATE_BATCH_SIZE: '0' })).toThrow(/^LOKAL_GENERATE_BATCH_SIZE: /);
    expect(() => settingsFrom({ LOKAL_MAX_BATCH_TOKENS: '1.5' })).toThrow(/^LOKAL_MAX_BATCH_TOKENS: /);
    expect(() => settingsFrom({ LOKAL_PREFIX_CACHE_TOKENS: '-1' })).toThrow(/^LOKAL_PREFIX_CACHE_TOKENS: /);
    // onnxruntime's threads: a positive integer
    expect(lokalModelOptions(settingsFrom({ LOKAL_THREADS: '3' })).transformers).toEqual({ threads: 3 });
    expect(() => settingsFrom({ LOKAL_THREADS: '0' })).toThrow(/^LOKAL_THREADS: /);
  });

  test('the provider batches at most LOKAL_GENERATE_BATCH_SIZE rows and reuses no prefix with LOKAL_PREFIX_CACHE_TOKENS=0; same texts', async () => {
    const wide = await run({});
    const narrow = await run({ LOKAL_GENERATE_BATCH_SIZE: '2', LOKAL_PREFIX_CACHE_TOKENS: '0' });
    expect(narrow.texts).toEqual(wide.texts);
    expect(wide.stats.largestBatch).toBeGreaterThan(2);
    expect(wide.stats.prefixHits).toBeGreaterThan(0);
    expect(narrow.stats.largestBatch).toBe(2);
    expect(narrow.stats.prefixHits).toBe(0);
    expect(narrow.stats.promptTokensComputed).toBe(narrow.stats.promptTokens);
  });
});
