// End to end, Kalahi against a chat server that returns no log-probabilities (shaped like Ollama), in child
// `vitest run --project evals evals/kalahi.eval.ts` processes on the real Kalahi CSVs. Multiple choice runs as SEA-HELM's
// lettered question with LOKAL_KALAHI_MC=letter; without it the file fails once, at collection, before any item asks,
// with one line naming every missing capability.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadKalahi, type KalahiRow } from '../../src/benchmarks/kalahi/data/kalahi.ts';
import { startFakeOpenAIServer, type FakeServer } from '../support/fakeOpenAIServer.ts';
import { SERVER_SHAPES } from '../support/serverShapes.ts';
import { REPO_ROOT, runVitest, type ChildRun } from '../vitest/helpers.ts';
import { titleUnless } from '../support/sharedData.ts';

const DATA = path.resolve(REPO_ROOT, '../shared/data/kalahi');
const haveData = existsSync(path.join(DATA, 'filipino.csv'));
const dir = mkdtempSync(path.join(tmpdir(), 'lokal-kalahi-servers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const config = ['--config', path.join(REPO_ROOT, 'vitest.config.ts'), '--project', 'evals', 'evals/kalahi.eval.ts'];
// What each missing capability's line says: the what, the server's answer to the probe, and the settings that work.
const MC_PROBLEM = `Kalahi multiple choice by log-probabilities (LOKAL_KALAHI_MC=logprobs, the default) needs a model that scores a given reply to the prompt, and this one cannot (/chat/completions with prompt_logprobs: returned no prompt_logprobs): set LOKAL_KALAHI_MC=letter (SEA-HELM's lettered question, answered in text) or LOKAL_KALAHI_TASKS=generation`;
const BUDGET_PROBLEM = `Kalahi generation under LOKAL_KALAHI_BUDGET=max_length (256 tokens counting the prompt) cuts the reply by token, which needs its per-token log-probabilities and the prompt's token count, and this model returns none (/chat/completions with logprobs: returned no logprobs.content): set LOKAL_KALAHI_BUDGET=new_tokens`;
const show = (run: ChildRun) => `exit ${run.code}\n${run.stdout.slice(-4000)}\n${run.stderr.slice(-3000)}`;
/** The user turns the server was asked, as it rendered them (`<user>…</user><assistant>`). */
const asked: string[] = [];
let server: FakeServer;
let rows: KalahiRow[] = [];

beforeAll(async () => {
  if (!haveData) return;
  rows = (await loadKalahi(DATA, 'full')).rows.slice(0, 4);
  // Always answers "B", in SEA-HELM's answer format.
  server = await startFakeOpenAIServer({
    ...SERVER_SHAPES.Ollama,
    answer: (prompt) => {
      asked.push(prompt);
      return 'Sagot: B';
    },
  });
});
afterAll(async () => server?.close());

const env = (output: string, extra: Record<string, string>) => ({
  LOKAL_MODEL: 'openai:toy',
  OPENAI_BASE_URL: server.url,
  LOKAL_KALAHI: DATA,
  LOKAL_LIMIT: '4',
  LOKAL_CACHE: 'off',
  LOKAL_BERTSCORE_MODEL: 'off',
  LOKAL_BLEURT_MODEL: 'off',
  LOKAL_OUTPUT: output,
  LOKAL_REPORT: 'off',
  ...extra,
});

describe.skipIf(!haveData)(titleUnless('Kalahi on a chat server without log-probabilities', path.join(DATA, 'filipino.csv')), () => {
  test('LOKAL_KALAHI_MC=letter: MC1 from the lettered question, recorded as mc_protocol "letter"', async () => {
    const output = path.join(dir, 'letter');
    asked.length = 0;
    // The HTML report too: letter records have no scores to show.
    const run = await runVitest(['run', ...config], env(output, { LOKAL_KALAHI_TASKS: 'mc', LOKAL_KALAHI_MC: 'letter', LOKAL_REPORT: path.join(output, 'report.html') }));
    expect(run.code, show(run)).toBe(0);
    expect(readFileSync(path.join(output, 'report.html'), 'utf8')).toContain('Kalahi');
    expect(run.stdout).toContain(`Kalahi · full · 4 of 150 prompts · openai:toy · MC by letter (SEA-HELM's lettered question)`);
    const results = JSON.parse(readFileSync(path.join(output, 'kalahi.json'), 'utf8'));
    const full = results.variants.full;
    expect(full.mc_protocol).toBe('letter');
    // Independently of the option builder: the model said B, so MC1 is 1 where the B line the model saw is the best answer.
    const questions = asked.filter((p) => p.includes('Tanong:'));
    expect(questions).toHaveLength(rows.length);
    const expected = rows.map((row) => {
      const seen = questions.find((q) => q.includes(row.prompt))!;
      const b = /\nB\. (.*)\n/u.exec(seen)![1];
      return b === row.relevantAnswers[row.bestIndex] ? 1 : 0;
    });
    expect(full.records.map((r: { mc: { normalised: { mc1: number } } }) => r.mc.normalised.mc1)).toEqual(expected);
    expect(full.mc.mc1).toBeCloseTo(expected.reduce((a: number, b) => a + b, 0) / expected.length, 12);
    expect(full.mc.mc2).toBeNull();
  }, 120_000);

  test('with the default tasks, multiple choice and generation fail once at collection, one line naming both', async () => {
    const output = path.join(dir, 'logprobs');
    asked.length = 0;
    const before = server.stats.requests;
    const run = await runVitest(['run', ...config], env(output, {}));
    const text = run.stdout + run.stderr;
    expect(run.code, show(run)).toBe(1);
    // Both missing capabilities at once: the user does not meet the second only after fixing the first.
    const line = `LOKAL_MODEL=openai:toy: ${MC_PROBLEM}; and ${BUDGET_PROBLEM}`;
    expect(text, show(run)).toContain(line);
    expect(text.split('needs a model that scores a given reply').length - 1).toBe(1);
    // Only the probe reached the server (chat, prompt_logprobs, echo): no item asked anything.
    expect(asked.filter((p) => p.includes('Tanong:') || rows.some((r) => p.includes(r.prompt)))).toEqual([]);
    expect(server.stats.requests - before).toBe(3);
    expect(existsSync(path.join(output, 'kalahi.json'))).toBe(false);
  }, 120_000);

  test('generation under the default max_length budget fails once, naming LOKAL_KALAHI_BUDGET=new_tokens', async () => {
    const output = path.join(dir, 'budget');
    const run = await runVitest(['run', ...config], env(output, { LOKAL_KALAHI_TASKS: 'generation' }));
    const text = run.stdout + run.stderr;
    expect(run.code, show(run)).toBe(1);
    expect(text).toContain(`LOKAL_MODEL=openai:toy: ${BUDGET_PROBLEM}`);
    expect(text).not.toContain('; and ');
    const ok = await runVitest(['run', ...config], env(path.join(dir, 'new-tokens'), { LOKAL_KALAHI_TASKS: 'generation', LOKAL_KALAHI_BUDGET: 'new_tokens' }));
    expect(ok.code, show(ok)).toBe(0);
  }, 180_000);
});
