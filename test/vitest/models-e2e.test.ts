// End to end with real models: child `vitest run --project evals` processes on the real Italian dev data, asking a
// tiny generated transformers.js model (base and chat prompts, then again from the response cache) and an
// OpenAI-compatible server started here. Every run is cut to LOKAL_LIMIT=5 items.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadMultiLoKo, type MultiLoKoQuestion } from '../../src/benchmarks/multiloko/index.ts';
import { scoreExample } from '../../src/metrics/index.ts';
import { startFakeOpenAIServer, toyAnswer, toyRenderChat, type FakeServer } from '../support/fakeOpenAIServer.ts';
import { writeTinyModel } from '../support/tinyModel.ts';
import { extractAnswer, renderMultilokoPrompt, type RenderedMultilokoChatPrompt } from '../../src/benchmarks/multiloko/prompts/index.ts';
import type { LokalItemRecord } from '../../src/benchmarks/multiloko/run/records.ts';
import { MULTILOKO_EVAL, REPO_ROOT, runVitest, type ChildRun } from './helpers.ts';
import { titleUnless } from '../support/sharedData.ts';

const ARCHIVE = path.resolve(REPO_ROOT, '../shared/data/multiloko/benchmark_data.tar.xz.enc');
const hasData = existsSync(ARCHIVE);
const LIMIT = 5;

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-models-e2e-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Results = Record<string, any> & { summary: Record<string, any> };
interface Run {
  run: ChildRun;
  results: Results;
  items: LokalItemRecord[];
}

const show = (run: ChildRun) => `exit ${run.code}\n${run.stdout.slice(-4000)}\n${run.stderr.slice(-4000)}`;

/** One evals run on the first LIMIT Italian items; returns the results JSON and the items' meta (json reporter). */
async function evalsRun(name: string, env: Record<string, string>): Promise<Run> {
  const output = path.join(dir, name);
  const json = path.join(output, 'vitest.json');
  const run = await runVitest(
    ['run', '--project', 'evals', MULTILOKO_EVAL, '--reporter=default', '--reporter=./reporters/lokal-reporter.ts', '--reporter=json', `--outputFile.json=${json}`],
    { LOKAL_MULTILOKO: ARCHIVE, LOKAL_LIMIT: String(LIMIT), LOKAL_OUTPUT: output, LOKAL_CACHE_FILE: path.join(dir, 'cache.jsonl'), ...env },
  );
  expect(run.code, show(run)).toBe(0);
  const results = JSON.parse(readFileSync(path.join(output, 'multiloko.json'), 'utf8')) as Results;
  const report = JSON.parse(readFileSync(json, 'utf8'));
  const items = report.testResults.flatMap((f: any) => f.assertionResults).flatMap((a: any) => (a.meta?.lokalItem ? [a.meta.lokalItem] : []));
  return { run, results, items: items.sort((a: LokalItemRecord, b: LokalItemRecord) => a.index - b.index) };
}

function withoutSummary(results: Results): Results {
  const { summary: _summary, ...rest } = results;
  return rest as Results;
}

let italian: MultiLoKoQuestion[];
beforeAll(async () => {
  if (hasData) italian = (await loadMultiLoKo(ARCHIVE, 'dev')).subsets.find((s) => s.key === 'italian')!.items.slice(0, LIMIT);
});

/** Each item's record: scored on the extracted answer, exactly as scoreExample scores that answer. */
function expectScoredOnAnswers(run: Run, extract: (raw: string) => string): void {
  expect(run.items.map((r) => r.id)).toEqual(italian.map((i) => i.id));
  run.items.forEach((record, i) => {
    expect(record.answer, record.itemKey).toBe(extract(record.rawPrediction));
    const expected = scoreExample(record.answer, italian[i]!.targets);
    const official = run.results.italian[String(record.id)];
    expect(official.prediction).toBe(expected.prediction);
    expect(official.em).toBe(expected.scores.em);
    expect(official.chrf).toBe(expected.scores.chrf);
  });
}

describe.skipIf(!hasData)(titleUnless(`real Italian data (${ARCHIVE}) with a generated transformers.js model`, ARCHIVE), () => {
  const model = path.join(dir, 'tiny-model');
  let base: Run;

  beforeAll(() => {
    writeTinyModel(model, { layers: 1, hidden: 32, vocab: 320, seed: 3 });
  });

  test('base prompt: official few-shot completion, stop strings, extracted answers, leaderboard table and summary', async () => {
    base = await evalsRun('base', { LOKAL_MODEL: `transformers:${model}`, LOKAL_PROMPT: 'base' });
    const { run, results, items } = base;
    // The real data has no knowledge_fewshot.jsonl: the official examples are used.
    expect(results.summary.prompt).toMatchObject({ mode: 'base', fewshot: 'official', shots: 5, extraction: true });
    expect(items.every((r) => r.prompt.mode === 'base' && r.prompt.language === 'italian')).toBe(true);
    expect(results.summary.model_description).toMatchObject({ provider: 'transformers', model, settings: { decoding: 'greedy' } });
    expect(results.summary.calls).toMatchObject({ cached: 0, model_calls: LIMIT });
    // The call total is the sum of the items' own latencies (none cached in this first run), and not zero.
    const latencies = items.reduce((sum, r) => sum + r.latencyMs, 0);
    expect(latencies).toBeGreaterThan(0);
    expect(results.summary.calls.model_ms_total).toBeCloseTo(latencies, 6);
    expect(results.summary.calls.model_ms_mean).toBeCloseTo(latencies / LIMIT, 6);
    expect(results.summary.headline).toMatchObject({ languages: 1, local_subsets: ['italian'], em_2se: null });
    // Generation stopped before the next question token or a blank line.
    for (const r of items) expect(r.rawPrediction.includes('D:') || r.rawPrediction.includes('\n\n'), r.rawPrediction).toBe(false);
    expectScoredOnAnswers(base, (raw) => extractAnswer(raw, { language: 'italian', mode: 'base' }));
    expect(run.stdout).toContain('MultiLoKo leaderboard · base prompt, few-shot official ×5, answers extracted');
    expect(run.stdout).toMatch(/\| Model\s+\| Average EM \| {2}Gap \| MTE \| Min EM \| Max EM \|/);
    expect(run.stdout).toMatch(new RegExp(`\\| transformers:${model.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s+\\|\\s+\\d+\\.\\d\\d ± – \\|`));
    expect(run.stdout).toMatch(/\| italian\s+\|\s+\d+\.\d\d \|\s+– \|/);
  });

  test('chat prompt: the tokenizer chat template, zero-shot, not served from the base run cache', async () => {
    const chat = await evalsRun('chat', { LOKAL_MODEL: `transformers:${model}`, LOKAL_PROMPT: 'chat' });
    expect(chat.results.summary.prompt).toMatchObject({ mode: 'chat', fewshot: 'none', shots: 0, extraction: true });
    expect(chat.results.summary.calls).toMatchObject({ cached: 0, model_calls: LIMIT });
    expectScoredOnAnswers(chat, (raw) => extractAnswer(raw, { language: 'italian', mode: 'chat' }));
    expect(chat.run.stdout).toContain('MultiLoKo leaderboard · chat prompt, zero-shot, answers extracted');
  });

  test('a second base run is served from the response cache: every item cached, no model time, same results', async () => {
    const again = await evalsRun('base-again', { LOKAL_MODEL: `transformers:${model}`, LOKAL_PROMPT: 'base' });
    expect(again.results.summary.calls).toEqual({ cached: LIMIT, model_calls: 0, model_ms_total: 0, model_ms_mean: null });
    expect(again.results.summary.items.cached).toBe(LIMIT);
    expect(again.items.every((r) => r.cached && r.latencyMs === 0)).toBe(true);
    // The same records, now marked as served from the cache.
    const marked = withoutSummary(base.results);
    for (const id of Object.keys(marked.italian).filter((k) => typeof marked.italian[k] === 'object')) marked.italian[id] = { ...marked.italian[id], cached: true };
    expect(withoutSummary(again.results)).toEqual(marked);
    expect(again.run.stdout).toContain(`${LIMIT} items from the cache, 0 asked the model`);
  });
});

describe.skipIf(!hasData)(titleUnless('real Italian data with an OpenAI-compatible server', ARCHIVE), () => {
  const KEY = 'sk-lokal-e2e-0123456789-SECRET';
  let server: FakeServer;
  beforeAll(async () => {
    server = await startFakeOpenAIServer({ apiKey: KEY });
  });
  afterAll(() => server?.close());

  test('openai:<model> gets the chat prompt (auto), its answers are scored, the key appears nowhere; a rerun is cached', async () => {
    const env = { LOKAL_MODEL: 'openai:toy-model', OPENAI_BASE_URL: server.url, OPENAI_API_KEY: KEY, LOKAL_CONCURRENCY: '4' };
    const first = await evalsRun('openai', env);
    expect(server.stats.answered).toBe(LIMIT);
    expect(first.results.summary.prompt).toMatchObject({ mode: 'chat', fewshot: 'none', extraction: true });
    expect(first.results.summary.model_description).toEqual({
      provider: 'openai', model: 'toy-model', settings: expect.objectContaining({ baseUrl: server.url, temperature: 0 }),
    });
    // The server saw the official chat message; its toy answer is what the item recorded as raw output.
    first.items.forEach((record, i) => {
      const message = (renderMultilokoPrompt({ language: 'italian', item: italian[i]!, mode: 'chat' }) as RenderedMultilokoChatPrompt).message;
      expect(record.rawPrediction).toBe(toyAnswer(toyRenderChat([{ role: 'user', content: message }], true)));
    });
    expectScoredOnAnswers(first, (raw) => extractAnswer(raw, { language: 'italian', mode: 'chat' }));

    const again = await evalsRun('openai-again', env);
    expect(server.stats.answered).toBe(LIMIT);
    expect(again.results.summary.calls).toMatchObject({ cached: LIMIT, model_calls: 0 });

    const written = [first, again].flatMap(({ run }) => [run.stdout, run.stderr]).concat(
      readFileSync(path.join(dir, 'openai', 'multiloko.json'), 'utf8'),
      readFileSync(path.join(dir, 'openai', 'vitest.json'), 'utf8'),
      readFileSync(path.join(dir, 'cache.jsonl'), 'utf8'),
    );
    for (const text of written) expect(text.includes(KEY)).toBe(false);
  });
});

describe.skipIf(!hasData)(titleUnless('a pool of servers (OPENAI_BASE_URL lists two)', ARCHIVE), () => {
  test('each item records the server that answered it; servers of different models stop the run at its start', async () => {
    const a = await startFakeOpenAIServer({ latencyMs: 20 });
    const b = await startFakeOpenAIServer({ latencyMs: 20 });
    const other = await startFakeOpenAIServer({ models: ['another-model'] });
    try {
      const env = { LOKAL_MODEL: 'openai:toy-model', OPENAI_BASE_URL: `${a.url},${b.url}`, LOKAL_CONCURRENCY: '1', LOKAL_CACHE: 'off' };
      const pooled = await evalsRun('pool', env);
      expect(a.stats.answered + b.stats.answered).toBe(LIMIT);
      expect(pooled.items.map((r) => r.server).sort()).toEqual(
        [...Array<string>(a.stats.answered).fill(a.url), ...Array<string>(b.stats.answered).fill(b.url)].sort(),
      );
      const written = readFileSync(path.join(dir, 'pool', 'multiloko.json'), 'utf8');
      const recorded = (url: string) => written.split(new RegExp(`"server":\\s*"${url.replace(/[.]/gu, '\\.')}"`, 'u')).length - 1;
      expect(recorded(a.url)).toBe(a.stats.answered);
      expect(recorded(b.url)).toBe(b.stats.answered);

      const mixed = await runVitest(['run', '--project', 'evals', MULTILOKO_EVAL], {
        LOKAL_MULTILOKO: ARCHIVE, LOKAL_LIMIT: '2', LOKAL_OUTPUT: path.join(dir, 'mixed'), ...env, OPENAI_BASE_URL: `${a.url},${other.url}`,
      });
      expect(mixed.code, show(mixed)).toBe(1);
      expect(mixed.stdout + mixed.stderr).toContain(`the servers of OPENAI_BASE_URL serve different models: ${a.url} serves toy-model; ${other.url} serves another-model`);
      expect(other.stats.answered).toBe(0);
    } finally {
      await Promise.all([a.close(), b.close(), other.close()]);
    }
  });
});

describe.skipIf(!hasData)(titleUnless('the default model', ARCHIVE), () => {
  test('without LOKAL_MODEL the run asks transformers:onnx-community/Qwen2.5-0.5B-Instruct (offline here: a clear error)', async () => {
    const run = await runVitest(['run', '--project', 'evals', MULTILOKO_EVAL], {
      LOKAL_MULTILOKO: ARCHIVE,
      LOKAL_LIMIT: '1',
      LOKAL_OFFLINE: '1',
      LOKAL_MODEL_CACHE: path.join(dir, 'empty-hf-cache'),
      LOKAL_CACHE: 'off',
      LOKAL_OUTPUT: path.join(dir, 'default'),
    });
    expect(run.code, show(run)).toBe(1);
    expect(run.stdout + run.stderr).toContain('model "onnx-community/Qwen2.5-0.5B-Instruct" (dtype q8) is not available locally');
  });
});
