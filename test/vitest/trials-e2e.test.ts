// Trials end to end: a child evals run of MultiLoKo over generated items against a fake OpenAI server that answers
// each item right with its own known probability (drawn from the request's seed, so reproducible), k = 8 trials.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { LokalItemRecord } from '../../src/benchmarks/multiloko/run/records.ts';
import { trialSeed } from '../../src/core/trialSeed.ts';
import { startFakeOpenAIServer, type FakeServer } from '../support/fakeOpenAIServer.ts';
import { freePort } from '../support/freePort.ts';
import { lcg, MULTILOKO_EVAL, runVitest, writeDataset, type ChildRun, type GeneratedItem } from './helpers.ts';

const ITEMS = 200;
// A 95% interval misses 1 base seed in 20 per figure (7 puts pass@1 2.1 standard errors high); 42 is docs/trials.md's example seed.
const BASE_SEED = 42;
const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-trials-e2e-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Item i is right with probability 0.1 … 0.95, spread evenly. */
const probability = (i: number) => 0.1 + (0.85 * i) / (ITEMS - 1);
/** MultiLoKo-shaped items (the chat prompt needs each one's output type). */
const items = Array.from({ length: ITEMS }, (_, i) => ({ id: `q${i}`, question: `Which word is number ${i}? (item #${i}#)`, output_type: 'a word', targets: [`zebra${i}`] })) as GeneratedItem[];
/** The server's draw for a seed: uniform in [0, 1) from the seed alone, the first 4 bytes of its SHA-256. */
const draw = (seed: number) => createHash('sha256').update(String(seed)).digest().readUInt32BE(0) / 2 ** 32;
const right = (i: number, seed: number) => draw(seed) < probability(i);

const show = (run: ChildRun) => `exit ${run.code}\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`;

let server: FakeServer;
/** The last run's multiloko.json. */
let results: any;
let data: string;
beforeAll(async () => {
  data = writeDataset(dir, [{ key: 'italian', folder: 'italian', fileName: 'dev.jsonl', items }]);
  server = await startFakeOpenAIServer({
    port: await freePort(),
    answer: (prompt, body) => {
      const i = Number(/#(\d+)#/u.exec(prompt)![1]);
      return right(i, Number(body.seed)) ? `zebra${i}` : 'giraffe';
    },
  });
});
afterAll(() => server?.close());

async function trialsRun(name: string, env: Record<string, string>): Promise<{ run: ChildRun; items: LokalItemRecord[] }> {
  const output = path.join(dir, name);
  const json = path.join(output, 'vitest.json');
  const run = await runVitest(['run', '--project', 'evals', MULTILOKO_EVAL, '--reporter=default', '--reporter=./reporters/lokal-reporter.ts', '--reporter=json', `--outputFile.json=${json}`], {
    LOKAL_MULTILOKO: data, LOKAL_OUTPUT: output, LOKAL_CACHE_FILE: path.join(dir, 'cache.jsonl'), LOKAL_MODEL: 'openai:toy-model', OPENAI_BASE_URL: server.url,
    OPENAI_API_KEY: 'sk-trials-e2e-key', LOKAL_CONCURRENCY: '8', LOKAL_TEMPERATURE: '1', LOKAL_SEED: String(BASE_SEED), ...env,
  });
  expect(run.code, show(run)).toBe(0);
  results = JSON.parse(readFileSync(path.join(output, 'multiloko.json'), 'utf8'));
  const report = JSON.parse(readFileSync(json, 'utf8'));
  const records = report.testResults.flatMap((f: any) => f.assertionResults).flatMap((a: any) => (a.meta?.lokalItem ? [a.meta.lokalItem] : [])) as LokalItemRecord[];
  return { run, items: records.sort((a, b) => a.index - b.index) };
}

/** The 2.5 % and 97.5 % points of a figure over 2,000 simulated runs of the closed-form model (seeded). */
function simulatedInterval(figure: (n: number, c: number) => number, k: number): [number, number] {
  const random = lcg(12345);
  const means: number[] = [];
  for (let r = 0; r < 2000; r++) {
    let sum = 0;
    for (let i = 0; i < ITEMS; i++) {
      let c = 0;
      for (let t = 0; t < k; t++) if (random() < probability(i)) c++;
      sum += figure(k, c);
    }
    means.push(sum / ITEMS);
  }
  means.sort((a, b) => a - b);
  return [means[49]!, means[1949]!];
}
/** C(c, j) / C(n, j) and 1 − C(n − c, j) / C(n, j), as products (the definitions of docs/trials.md, computed directly). */
const choose = (n: number, j: number): number => (j < 0 || j > n ? 0 : Array.from({ length: j }, (_, i) => (n - i) / (i + 1)).reduce((a, b) => a * b, 1));
const passAt = (j: number) => (n: number, c: number) => 1 - choose(n - c, j) / choose(n, j);
const passHat = (j: number) => (n: number, c: number) => choose(c, j) / choose(n, j);

describe('k = 8 trials over 200 items, each right with its own probability', () => {
  test('trials match the server\'s draws; pass@1, pass@4, pass^4 fall in their 95% intervals; flaky items are those that disagreed', async () => {
    const { run, items: records } = await trialsRun('k8', { LOKAL_TRIALS: '8' });
    expect(server.stats.answered).toBe(ITEMS * 8);
    expect(records).toHaveLength(ITEMS);
    let flaky = 0;
    const measured = { pass1: 0, pass4: 0, hat4: 0 };
    records.forEach((record, i) => {
      const expected = Array.from({ length: 8 }, (_, t) => right(i, trialSeed(BASE_SEED, `q${i}`, t)));
      expect(record.trials!.map((t) => t.scores.em === 1)).toEqual(expected);
      expect(record.trials!.map((t) => t.seed)).toEqual(expected.map((_, t) => trialSeed(BASE_SEED, `q${i}`, t)));
      const c = expected.filter(Boolean).length;
      expect(record.scores.em).toBeCloseTo(c / 8, 12);
      expect(record.verdict.startsWith(`${expected.map((ok) => (ok ? '✓' : '✗')).join('')} ${c}/8`)).toBe(true);
      const disagree = c > 0 && c < 8;
      if (disagree) flaky++;
      expect(record.trialSummary!.flaky).toBe(disagree);
      expect(record.verdict.endsWith(' · flaky')).toBe(disagree);
      measured.pass1 += record.trialSummary!.passAt[0]! / ITEMS;
      measured.pass4 += record.trialSummary!.passAt[3]! / ITEMS;
      measured.hat4 += record.trialSummary!.passHat[3]! / ITEMS;
    });
    expect(flaky).toBeGreaterThan(0);
    // multiloko.json's subset figures are the items' means of the same per-item values, and the terminal names the flaky count.
    const trials = results.summary.subsets[0].trials;
    expect(trials).toMatchObject({ items: ITEMS, fewest_trials: 8, most_trials: 8, items_short: 0, flaky });
    expect(Object.keys(trials.pass_at)).toEqual(['1', '8']);
    expect(trials.pass_at['1'].value).toBeCloseTo(measured.pass1, 12);
    expect(trials.mean_em.value).toBeCloseTo(measured.pass1, 12);
    expect(trials.pass_at['1'].low).toBeLessThan(trials.pass_at['1'].value);
    expect(trials.pass_at['1'].high).toBeGreaterThan(trials.pass_at['1'].value);
    expect(run.stdout).toContain(`flaky items (trials disagree): italian ${flaky}`);
    for (const [value, figure] of [[measured.pass1, passAt(1)], [measured.pass4, passAt(4)], [measured.hat4, passHat(4)]] as const) {
      const [low, high] = simulatedInterval(figure, 8);
      expect(value).toBeGreaterThanOrEqual(low);
      expect(value).toBeLessThanOrEqual(high);
    }
    // The interval check can fail: a server right 10 points less often is outside pass@1's.
    const [low] = simulatedInterval(passAt(1), 8);
    expect(measured.pass1 - 0.1).toBeLessThan(low);
    expect(run.stderr + run.stdout).not.toContain('greedy trials');
  });

  test('a rerun asks nothing; raising k to 10 asks only trials 9 and 10', async () => {
    const before = server.stats.answered;
    await trialsRun('k8-again', { LOKAL_TRIALS: '8' });
    expect(server.stats.answered).toBe(before);
    const { items: records } = await trialsRun('k10', { LOKAL_TRIALS: '10' });
    expect(server.stats.answered).toBe(before + ITEMS * 2);
    expect(records.every((r) => r.trials!.length === 10)).toBe(true);
  });

  test('greedy trials say in one line that they agree unless the server is non-deterministic, and run', async () => {
    const before = server.stats.answered;
    const { run, items: records } = await trialsRun('greedy', { LOKAL_TRIALS: '2', LOKAL_TEMPERATURE: '', LOKAL_LIMIT: '2', LOKAL_CACHE: 'off' });
    expect(run.stdout + run.stderr).toContain('[lokal] multiloko: 2 greedy trials per item (temperature unset) will agree unless the server is non-deterministic');
    expect(server.stats.answered).toBe(before + 4);
    expect(records.map((r) => r.trials!.length)).toEqual([2, 2]);
  });

  test('k = 1 writes no trial fields: its record is trial 0 of the k = 8 run, scored alone, from the cache', async () => {
    const before = server.stats.answered;
    const { items: records } = await trialsRun('k1', { LOKAL_TRIALS: '1' });
    expect(server.stats.answered).toBe(before);
    expect('trials' in results.summary.subsets[0]).toBe(false);
    records.forEach((record, i) => {
      expect('trials' in record || 'trialSummary' in record).toBe(false);
      expect(record.scores.em).toBe(right(i, trialSeed(BASE_SEED, `q${i}`, 0)) ? 1 : 0);
    });
  });
});
