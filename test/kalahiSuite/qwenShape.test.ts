// Kalahi end to end on a model of the default model's shape (Qwen2.5: grouped-query attention, q/k/v biases, tied
// 151,936-token embeddings) with Qwen2.5's real tokenizer, chat template and generation config, on the real Kalahi
// CSVs (first 3 prompts of the unenriched file): MC1/MC2 by log-probabilities and greedy replies (cut to a few tokens)
// with their text metrics, through the benchmark's plan, aggregation and results file — once with the provider's
// batching and prefix reuse (items concurrent, as Vitest's concurrent item tests run them: scoring calls join, replies
// share batches) and once one request at a time (plain scoring without prefix reuse, transformers.js's own generate).
// The figures must agree: MC within 1e-6 relative, replies identical, hence identical generation metrics.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AutoTokenizer } from '@huggingface/transformers';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SHARED_DEFAULTS } from '../../src/core/settings.ts';
import type { ItemContext } from '../../src/benchmarks/benchmark.ts';
import type { KalahiSettings } from '../../src/benchmarks/kalahi/run/config.ts';
import { prepareKalahi } from '../../src/benchmarks/kalahi/run/plan.ts';
import { reportKalahi } from '../../src/benchmarks/kalahi/results/report.ts';
import { aggregateKalahi } from '../../src/benchmarks/kalahi/results/aggregate.ts';
import type { KalahiPromptRecord } from '../../src/benchmarks/kalahi/run/records.ts';
import type { KalahiRow } from '../../src/benchmarks/kalahi/data/kalahi.ts';
import { TransformersProvider, type TransformersProviderOptions } from '../../src/models/transformers.ts';
import type { LokalModel } from '../../src/models/open.ts';
import { providerRow } from '../../src/models/providers.ts';
import type { ModelProvider } from '../../src/models/types.ts';
import { QWEN2_5_0_5B_INSTRUCT, qwenTokenizerDir, writeTinyModel } from '../support/tinyModel.ts';
import { REPO_ROOT } from '../vitest/helpers.ts';

const DATA = path.resolve(REPO_ROOT, '../shared/data/kalahi');
const haveData = existsSync(path.join(DATA, 'filipino_unenriched.csv'));
const LIMIT = 3;
/** Its first three prompts are three different questions (in `full` they are three phrasings sharing their answers). */
const VARIANT = 'unenriched';
/** New tokens per reply: Kalahi asks for max_length=256, which on a random network is ~200 greedy steps per prompt. */
const NEW_TOKENS = 12;

const root = mkdtempSync(path.join(tmpdir(), 'lokal-kalahi-qwen-'));
const dir = path.join(root, 'qwen2.5-shape');
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let tokenizer: any;

/** The real config with 2 layers of hidden 32 (4 heads of 8, 2 key/value heads); vocabulary, tokenizer, template and generation config as published. */
const SMALL = { layers: 2, hidden: 32, heads: 4, kvHeads: 2, intermediate: 64, maxPositions: 1024, seed: 5 };

beforeAll(async () => {
  if (!haveData) return;
  writeTinyModel(dir, SMALL, { ...QWEN2_5_0_5B_INSTRUCT, tokenizerDir: qwenTokenizerDir() });
  tokenizer = await AutoTokenizer.from_pretrained(dir);
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Run {
  records: KalahiPromptRecord[];
  rows: KalahiRow[];
  /** kalahi.json as the report writes it. */
  json: { variants: Record<string, Record<string, any>> };
  provider: TransformersProvider;
}

/** Kalahi's plan on the model with these provider options; items concurrent (one Promise.all) or one after another. */
async function kalahiRun(options: TransformersProviderOptions, concurrent: boolean): Promise<Run> {
  // redact off: the records' prompt text is what is checked (LOKAL_REDACT=auto would hash it where CI is set).
  const settings = { ...SHARED_DEFAULTS, redact: 'off', data: DATA, model: `transformers:${dir}`, limit: LIMIT, variant: VARIANT, bertscoreModel: 'off', bleurtModel: 'off' } as KalahiSettings;
  const plan = await prepareKalahi(settings, []);
  const provider = new TransformersProvider(dir, { env: {}, threads: 1, ...options });
  // Kalahi's requests as they are, with the reply budget cut to NEW_TOKENS so the test stays short.
  const capped: ModelProvider = {
    describe: () => provider.describe(),
    generate: (requests) => provider.generate(requests.map(({ maxLength: _, ...r }) => ({ ...r, maxNewTokens: NEW_TOKENS }))),
    scoreContinuations: (requests) => provider.scoreContinuations(requests),
  };
  const model: LokalModel = { kind: 'transformers', row: providerRow('transformers')!, provider: capped, inner: provider, chat: async () => true };
  const context: ItemContext = { model: async () => model, annotate: async () => undefined, expect: () => { throw new Error('not strict'); } };
  const group = plan.groups[0]!;
  const rows = [...group.items];
  const run = async (row: KalahiRow) => {
    const result = await plan.runItem(row, group.info, context);
    expect(result.failures, row.promptVariationId).toEqual([]);
    return result.record;
  };
  const records: KalahiPromptRecord[] = [];
  if (concurrent) records.push(...(await Promise.all(rows.map(run))));
  else for (const row of rows) records.push(await run(row));
  const aggregate = aggregateKalahi(group.info, records.map((record) => ({ record, state: 'passed' as const })));
  const json = JSON.parse(reportKalahi([{ aggregate, records }], { clauses: [] }).resultsText!);
  return { records, rows, json, provider };
}

const relClose = (actual: number | null, expected: number | null, what: string) => {
  expect(actual === null, `${what}: ${actual} vs ${expected}`).toBe(expected === null);
  if (actual !== null && expected !== null) expect(Math.abs(actual - expected), `${what}: ${actual} vs ${expected}`).toBeLessThanOrEqual(1e-6 * Math.max(1e-12, Math.abs(expected)));
};

describe.skipIf(!haveData)(haveData ? 'Kalahi on a Qwen2.5-shaped model with the real tokenizer' : `Kalahi on a Qwen2.5-shaped model (skipped: no Kalahi CSVs in ${DATA})`, () => {
  test(`MC and generation of the first ${LIMIT} prompts: batched with prefix reuse and one at a time give the same figures`, async () => {
    const batched = await kalahiRun({}, true);
    const single = await kalahiRun({ generateBatchSize: 1, sharePrefix: false }, false);
    try {
      // the two runs took the two paths: concurrent generation shared batches and reused a prefix; the other never batched
      expect(batched.provider.generationStats.largestBatch).toBeGreaterThan(1);
      expect(batched.provider.generationStats.promptTokensComputed).toBeLessThan(batched.provider.generationStats.promptTokens);
      expect(single.provider.generationStats.largestBatch).toBe(1);
      expect(single.provider.generationStats.promptTokensComputed).toBe(single.provider.generationStats.promptTokens);

      expect(batched.records.map((r) => r.promptVariationId)).toEqual(single.records.map((r) => r.promptVariationId));
      batched.records.forEach((b, i) => {
        const s = single.records[i]!;
        const row = batched.rows[i]!;
        // MC: every reference's log-probability, then the prompt's figures
        b.mc!.references.forEach((ref, j) => {
          relClose(ref.logprob, s.mc!.references[j]!.logprob, `${row.promptVariationId} reference ${j}`);
          expect(ref.tokens).toBe(s.mc!.references[j]!.tokens);
        });
        expect(b.mc!.normalised.mc1).toBe(s.mc!.normalised.mc1);
        relClose(b.mc!.normalised.mc2, s.mc!.normalised.mc2, `${row.promptVariationId} MC2`);
        // generation: the same greedy reply, hence the same metrics
        expect(b.generation!.response.length, row.promptVariationId).toBeGreaterThan(0);
        expect(b.generation!.response).toBe(s.generation!.response);
        expect(b.generation!.metrics).toEqual(s.generation!.metrics);
        // what the model saw: Qwen's template rendered (its default system prompt), counted by the tokenizer itself
        const rendered = `<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n<|im_start|>user\n${row.prompt}<|im_end|>\n<|im_start|>assistant\n`;
        const promptTokens = (tokenizer.apply_chat_template([{ role: 'user', content: row.prompt }], { add_generation_prompt: true, return_tensor: false, return_dict: false }) as unknown[]).length;
        for (const r of [b, s]) {
          expect(r.generation!.modelInput).toEqual({ text: rendered });
          expect(r.mc!.modelInput).toEqual({ text: rendered });
          expect(r.generation!.promptTokens).toBe(promptTokens);
          expect(r.mc!.promptTokens).toBe(promptTokens);
        }
        expect(b.generation!.outputTokens).toBe(s.generation!.outputTokens);
        expect(b.generation!.outputTokens).toBeGreaterThan(0);
        expect(b.generation!.outputTokens).toBeLessThanOrEqual(NEW_TOKENS);
      });

      // the published figures of kalahi.json
      const [bj, sj] = [batched.json.variants[VARIANT]!, single.json.variants[VARIANT]!];
      expect(bj.items).toEqual({ selected: LIMIT, total: 85, recorded: LIMIT, failed: 0, skipped: 0 });
      expect(bj.table.mc.MC1).toBe(sj.table.mc.MC1);
      relClose(bj.table.mc.MC2, sj.table.mc.MC2, 'MC2');
      for (const key of Object.keys(sj.mc.non_norm)) relClose(bj.mc.non_norm[key], sj.mc.non_norm[key], `non-normalised ${key}`);
      expect(bj.generation).toEqual(sj.generation);
      expect(bj.table.generation).toEqual(sj.table.generation);
    } finally {
      await batched.provider.close();
      await single.provider.close();
    }
  }, 120_000);
});
