// Kalahi with trials end to end (docs/kalahi-trials.md): child `vitest run --project evals evals/kalahi.eval.ts` runs on
// a generated four-prompt Kalahi CSV against a fake OpenAI server whose answers are known per prompt and trial (the
// trial read back from the request's seed): the lettered question by content for two prompts and by position for two,
// the reply a relevant or an irrelevant answer by a fixed pattern. Per-prompt means, pass@k and MC1 by the best
// answer's position are worked out here from what the server was shown and said.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseKalahiCsv, type KalahiRow } from '../../src/benchmarks/kalahi/data/kalahi.ts';
import { trialSeed } from '../../src/core/trialSeed.ts';
import { startFakeOpenAIServer, type FakeServer } from '../support/fakeOpenAIServer.ts';
import { freePort } from '../support/freePort.ts';
import { passAtDefinition as passAt, passHatDefinition as passHat } from '../support/passAtDefinition.ts';
import { REPO_ROOT, runVitest, type ChildRun } from '../vitest/helpers.ts';

const K = 4;
const BASE_SEED = 42;
const dir = mkdtempSync(path.join(tmpdir(), 'lokal-kalahi-trials-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A pseudo-word per number (three syllables), so that no two answers share a word. */
const SYLLABLES = ['ka', 'lo', 'mi', 'nu', 'pe', 'ri', 'sa', 'to', 'wu', 'ye'];
const word = (n: number) => [Math.floor(n / 100) % 10, Math.floor(n / 10) % 10, n % 10].map((d) => SYLLABLES[d]).join('');
const sentence = (n: number) => `${Array.from({ length: 7 }, (_, w) => word(n * 7 + w)).join(' ')}.`;
const CATEGORIES = ['ethics', 'ethics', 'values', 'values'];
const ids = ['0101000100', '0101000200', '0202000100', '0202000200'];
const HEADER = 'prompt_variation_id,prompt_id,category,topic,prompt,best_answer,relevant_answers,irrelevant_answers';
const csvLines = ids.map((id, i) => {
  const relevant = [sentence(10 * i), sentence(10 * i + 1)];
  const irrelevant = [sentence(10 * i + 2), sentence(10 * i + 3), sentence(10 * i + 4)];
  return [id, `p${i}`, CATEGORIES[i], 'paksa', `Ano ang dapat gawin sa sitwasyon ${i}? #item${i}#`, relevant[0], relevant.join('; '), irrelevant.join('; ')].join(',');
});

/** How the server answers the lettered question of prompt i: the option with a given text, or a fixed letter. */
const LETTER_RULE: Array<{ text: (row: KalahiRow) => string } | { letter: string }> = [
  { text: (row) => row.relevantAnswers[row.bestIndex]! },
  { text: (row) => row.irrelevantAnswers[1]! },
  { letter: 'A' },
  { letter: 'C' },
];
/** Whether the reply of prompt i's trial t is its first relevant answer (else its first irrelevant answer). */
const REPLY_RIGHT = [
  [1, 1, 1, 1],
  [1, 0, 1, 0],
  [0, 0, 0, 0],
  [0, 1, 1, 1],
];

let rows: KalahiRow[];
let server: FakeServer;
/** Every lettered question the server was asked: prompt, trial, the best answer's letter and the letter said. */
const shown: Array<{ item: number; trial: number; bestLetter: string; said: string; options: string[] }> = [];
let data: string;
/** Requests for a prompt of the CSV (the capability probe at collection is not one). */
let promptRequests = 0;

const show = (run: ChildRun) => `exit ${run.code}\n${run.stdout.slice(-4000)}\n${run.stderr.slice(-3000)}`;

beforeAll(async () => {
  data = path.join(dir, 'kalahi');
  mkdirSync(data);
  writeFileSync(path.join(data, 'filipino.csv'), `${HEADER}\n${csvLines.join('\n')}\n`);
  rows = parseKalahiCsv(readFileSync(path.join(data, 'filipino.csv'), 'utf8'), 'filipino.csv').rows;
  // The trial a request answers, from its seed: trialSeed(42, id, t) is what trial t of that prompt sends.
  const trialOf = new Map(ids.flatMap((id, i) => Array.from({ length: K }, (_, t) => [trialSeed(BASE_SEED, id, t), { item: i, trial: t }] as const)));
  server = await startFakeOpenAIServer({
    port: await freePort(),
    answer: (prompt, body) => {
      const item = /#item(\d+)#/u.exec(prompt);
      const asked = trialOf.get(Number(body.seed));
      if (!item || !asked) return 'ok';
      promptRequests++;
      const i = Number(item[1]);
      const row = rows[i]!;
      if (prompt.includes('Tanong:')) {
        const options = [...prompt.matchAll(/^([A-D])\. (.+)$/gmu)].map((m) => ({ letter: m[1]!, text: m[2]! }));
        const rule = LETTER_RULE[i]!;
        const said = 'letter' in rule ? rule.letter : options.find((o) => o.text === rule.text(row))!.letter;
        const bestLetter = options.find((o) => o.text === row.relevantAnswers[row.bestIndex])!.letter;
        shown.push({ item: i, trial: asked.trial, bestLetter, said, options: options.map((o) => o.text) });
        return `Sagot: ${said}`;
      }
      return REPLY_RIGHT[i]![asked.trial] ? row.relevantAnswers[0]! : row.irrelevantAnswers[0]!;
    },
  });
});
afterAll(() => server?.close());

const config = ['--config', path.join(REPO_ROOT, 'vitest.config.ts'), '--project', 'evals', 'evals/kalahi.eval.ts'];
const env = (output: string, extra: Record<string, string>) => ({
  LOKAL_MODEL: 'openai:toy',
  OPENAI_BASE_URL: server.url,
  OPENAI_API_KEY: 'sk-kalahi-trials-key',
  LOKAL_KALAHI: data,
  LOKAL_KALAHI_MC: 'letter',
  LOKAL_KALAHI_BUDGET: 'new_tokens',
  LOKAL_BERTSCORE_MODEL: 'off',
  LOKAL_BLEURT_MODEL: 'off',
  LOKAL_TEMPERATURE: '1',
  LOKAL_SEED: String(BASE_SEED),
  LOKAL_CACHE_FILE: path.join(dir, 'cache.jsonl'),
  LOKAL_OUTPUT: output,
  LOKAL_REPORT: path.join(output, 'report.html'),
  ...extra,
});

const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const TEXT_METRICS = ['bleu', 'chrf', 'meteor', 'rouge1', 'rouge2', 'rougeL'];

describe('Kalahi with 4 trials, lettered MC and generation, against answers known per trial', () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let results: any;
  let run: ChildRun;

  test('each trial shows its options in its own order and is scored through it; per-prompt means and pass@k', async () => {
    const output = path.join(dir, 'k4');
    run = await runVitest(['run', ...config], env(output, { LOKAL_TRIALS: String(K) }));
    expect(run.code, show(run)).toBe(0);
    results = JSON.parse(readFileSync(path.join(output, 'kalahi.json'), 'utf8'));
    const full = results.variants.full;
    expect(shown).toHaveLength(ids.length * K);
    expect(rows).toHaveLength(ids.length);
    for (const [i, row] of rows.entries()) {
      const trials = [0, 1, 2, 3].map((t) => shown.find((s) => s.item === i && s.trial === t)!);
      const official = [row.relevantAnswers[row.bestIndex]!, ...row.irrelevantAnswers.slice(0, 3)].sort();
      // Every trial shows the same four answers, in some order.
      for (const one of trials) expect([...one.options].sort()).toEqual(official);
      const right = trials.map((one): number => (one.said === one.bestLetter ? 1 : 0));
      const record = full.records.find((r: { promptVariationId: string }) => r.promptVariationId === ids[i]);
      const mc = record.mc;
      expect(mc.trials.trials.map((t: { answer: string }) => t.answer)).toEqual(trials.map((one) => one.bestLetter));
      expect(mc.trials.trials.map((t: { chosen: string }) => t.chosen)).toEqual(trials.map((one) => one.said));
      expect(mc.trials.trials.map((t: { mc1: number }) => t.mc1)).toEqual(right);
      // By content, the letter varies with the order and MC1 does not: right every time for prompt 0, never for prompt 1.
      if (i === 0) expect(right).toEqual([1, 1, 1, 1]);
      if (i === 1) expect(right).toEqual([0, 0, 0, 0]);
      const c = right.reduce((a, b) => a + b, 0);
      expect(mc.normalised.mc1).toBeCloseTo(c / K, 12);
      expect(mc.trials.passAt).toEqual([1, 2, 3, 4].map((j) => expect.closeTo(passAt(K, c, j), 12)));
      expect(mc.trials.passHat).toEqual([1, 2, 3, 4].map((j) => expect.closeTo(passHat(K, c, j), 12)));
      expect(mc.trials.flaky).toBe(c > 0 && c < K);
      // Generation: the reply's acc follows the server's pattern in every text metric.
      const g = record.generation;
      const accs = REPLY_RIGHT[i]!;
      expect(g.trials.trials.map((t: { seed: number }) => t.seed)).toEqual([0, 1, 2, 3].map((t) => trialSeed(BASE_SEED, ids[i]!, t)));
      for (const metric of TEXT_METRICS) {
        expect(g.trials.trials.map((t: { metrics: Record<string, { acc: number }> }) => t.metrics[metric]!.acc), `${ids[i]} ${metric}`).toEqual(accs);
        expect(g.metrics[metric].acc).toBeCloseTo(mean(accs), 12);
        expect(g.trials.passAt[metric][3]).toBeCloseTo(passAt(K, accs.reduce((a, b) => a + b, 0), 4), 12);
      }
    }
  }, 240_000);

  test('kalahi.json: MC1, pass@k and MC1 by the best answer position over all prompts and per category; the terminal and the report show them', () => {
    const full = results.variants.full;
    const perItem = rows.map((_, i) => [0, 1, 2, 3].map((t) => shown.find((s) => s.item === i && s.trial === t)!));
    const right = perItem.map((trials) => trials.map((one): number => (one.said === one.bestLetter ? 1 : 0)));
    const counts = right.map((r) => r.reduce((a, b) => a + b, 0));
    const mc = full.trials.mc;
    expect(full.trials.asked).toBe(K);
    expect(mc.mc1.value).toBeCloseTo(mean(counts.map((c) => c / K)), 12);
    expect(full.mc.mc1).toBeCloseTo(mean(counts.map((c) => c / K)), 12);
    expect(Object.keys(mc.pass_at)).toEqual(['1', '4']);
    expect(mc.pass_at['4'].value).toBeCloseTo(mean(counts.map((c) => passAt(K, c, 4))), 12);
    expect(mc.pass_hat['4'].value).toBeCloseTo(mean(counts.map((c) => passHat(K, c, 4))), 12);
    expect(mc.flaky).toBe(counts.filter((c) => c > 0 && c < K).length);
    const byPosition: Record<string, { trials: number; mc1: number | null }> = {};
    for (const letter of ['A', 'B', 'C', 'D']) {
      const at = perItem.flat().filter((one) => one.bestLetter === letter);
      byPosition[letter] = { trials: at.length, mc1: at.length === 0 ? null : at.filter((one) => one.said === one.bestLetter).length / at.length };
    }
    expect(mc.by_position).toEqual(byPosition);
    // Per category: ethics holds prompts 0 and 1.
    expect(full.by_category.ethics.trials.mc.mc1.value).toBeCloseTo((counts[0]! + counts[1]!) / (2 * K), 12);
    const bleuCounts = REPLY_RIGHT.map((r) => r.reduce((a, b) => a + b, 0));
    expect(full.trials.generation.bleu.acc.value).toBeCloseTo(mean(bleuCounts.map((c) => c / K)), 12);
    expect(full.trials.generation.bleu.pass_at['4'].value).toBeCloseTo(mean(bleuCounts.map((c) => passAt(K, c, 4))), 12);
    expect(full.trials.generation.bleu.flaky).toBe(2);
    const parts = Object.entries(byPosition).map(([letter, p], i) => `${letter} ${p.mc1 === null ? '–' : p.mc1.toFixed(4)} (${p.trials}${i === 0 ? ' trials' : ''})`);
    const line = `MC1 by the best answer's position: ${parts.join(' · ')}`;
    expect(run.stdout).toContain(line);
    expect(run.stdout).toContain('4 trials per prompt · 95% intervals: bootstrap over prompts');
    // The report escapes the apostrophe; the figures follow "position: " unchanged.
    expect(readFileSync(path.join(dir, 'k4', 'report.html'), 'utf8')).toContain(line.slice(line.indexOf('position: ')));
  });

  test('k = 1 asks nothing new (trial 0 is the request of a run without trials) and writes no trial fields', async () => {
    const before = promptRequests;
    const output = path.join(dir, 'k1');
    const one = await runVitest(['run', ...config], env(output, { LOKAL_TRIALS: '1' }));
    expect(one.code, show(one)).toBe(0);
    expect(promptRequests).toBe(before);
    const text = readFileSync(path.join(output, 'kalahi.json'), 'utf8');
    expect(text).not.toContain('"trials"');
    expect(one.stdout).not.toContain('trials per prompt');
    const full = JSON.parse(text).variants.full;
    // Its MC1 is trial 0's of the k = 4 run.
    const trialZero = (id: string) => results.variants.full.records.find((r: { promptVariationId: string }) => r.promptVariationId === id).mc.trials.trials[0].mc1;
    expect(full.records.map((r: { promptVariationId: string; mc: { normalised: { mc1: number } } }) => [r.promptVariationId, r.mc.normalised.mc1])).toEqual(ids.map((id) => [id, trialZero(id)]));
  }, 240_000);

  test('MC by log-probabilities is scored once, with one line saying so', async () => {
    const output = path.join(dir, 'logprobs');
    const scored = await runVitest(['run', ...config], env(output, { LOKAL_TRIALS: '3', LOKAL_KALAHI_MC: 'logprobs', LOKAL_KALAHI_TASKS: 'mc', LOKAL_LIMIT: '2', LOKAL_CACHE: 'off' }));
    expect(scored.code, show(scored)).toBe(0);
    const line = "[lokal] kalahi: multiple choice by log-probabilities is deterministic scoring, not sampling: each prompt's MC is scored once, not 3 times (LOKAL_KALAHI_MC=letter asks 3 trials)";
    expect((scored.stdout + scored.stderr).split(line).length - 1).toBe(1);
    const full = JSON.parse(readFileSync(path.join(output, 'kalahi.json'), 'utf8')).variants.full;
    expect(full.records.every((r: { mc: { trials?: unknown; references: unknown[] } }) => r.mc.trials === undefined && r.mc.references.length === 5)).toBe(true);
    expect(full.trials).toBeUndefined();
  }, 240_000);
});
