// The "done when" for a pool of servers, end to end in child `vitest run`s on a generated dataset: two fake
// OpenAI-compatible servers, one killed midway (its connections closed, new ones refused), against one server alone,
// then again from the response cache with another list of servers.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { startFakeOpenAIServer, type FakeServer } from '../support/fakeOpenAIServer.ts';
import type { LokalItemRecord } from '../../src/benchmarks/multiloko/run/records.ts';
import { MULTILOKO_EVAL, datasetSpec, runVitest, writeDataset, type ChildRun } from './helpers.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-pool-e2e-'));
const servers: FakeServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});
// The chat prompt (an OpenAI-compatible server's default) names each item's output type.
const dataset = writeDataset(dir, datasetSpec(4).map((subset) => ({ ...subset, items: subset.items.map((item) => ({ ...item, output_type: 'word' })) })));
const ITEMS = 6 * 4;
const cacheFile = path.join(dir, 'cache.jsonl');
const show = (run: ChildRun) => `exit ${run.code}\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`;

async function evalsRun(name: string, env: Record<string, string>): Promise<{ run: ChildRun; items: LokalItemRecord[] }> {
  const json = path.join(dir, `${name}.json`);
  const run = await runVitest(['run', '--project', 'evals', MULTILOKO_EVAL, '--reporter=default', '--reporter=json', `--outputFile.json=${json}`], {
    LOKAL_MULTILOKO: dataset,
    LOKAL_OUTPUT: path.join(dir, name),
    LOKAL_MODEL: 'openai:toy-model',
    LOKAL_CONCURRENCY: '2',
    ...env,
  });
  expect(run.code, show(run)).toBe(0);
  const report = JSON.parse(readFileSync(json, 'utf8'));
  const items: LokalItemRecord[] = report.testResults.flatMap((f: any) => f.assertionResults).flatMap((a: any) => (a.meta?.lokalItem ? [a.meta.lokalItem] : []));
  return { run, items: items.sort((x, y) => x.itemKey.localeCompare(y.itemKey)) };
}

describe('a pool of two servers, one killed midway', { timeout: 240_000 }, () => {
  test('every item is scored, by both servers, with the answers of one server alone; a rerun from the cache with another list asks nothing', async () => {
    const start = async (options: Parameters<typeof startFakeOpenAIServer>[0] = {}) => {
      const server = await startFakeOpenAIServer({ latencyMs: 20, ...options });
      servers.push(server);
      return server;
    };
    const alone = await start();
    const reference = await evalsRun('alone', { OPENAI_BASE_URL: alone.url, LOKAL_CACHE: 'off' });
    expect(reference.items).toHaveLength(ITEMS);

    let closing: Promise<void> | undefined;
    let killedAt = 0;
    const doomed: FakeServer = await start({
      // After its 8th request (the run's probe of the model included) the server goes away, with requests in flight.
      fault: (n) => {
        if (n === 8) {
          killedAt = doomed.stats.answered;
          closing = doomed.close();
        }
        return undefined;
      },
    });
    const survivor = await start();
    const pooled = await evalsRun('pool', { OPENAI_BASE_URL: `${doomed.url},${survivor.url}`, LOKAL_CACHE_FILE: cacheFile });
    await closing;
    expect(closing, 'the server was killed').toBeDefined();
    expect(pooled.items).toHaveLength(ITEMS);
    expect(pooled.items.map((r) => [r.itemKey, r.rawPrediction, r.answer])).toEqual(reference.items.map((r) => [r.itemKey, r.rawPrediction, r.answer]));
    expect(pooled.items.map((r) => r.scores)).toEqual(reference.items.map((r) => r.scores));
    const by = (url: string) => pooled.items.filter((r) => r.server === url).length;
    expect(by(doomed.url)).toBeGreaterThan(0);
    expect(by(doomed.url)).toBeLessThanOrEqual(killedAt);
    expect(by(doomed.url) + by(survivor.url)).toBe(ITEMS);
    // One line when it was dropped (it is not back: nothing listens there any more).
    const output = pooled.run.stdout + pooled.run.stderr;
    expect(output.split('\n').filter((line) => line.includes(`lokal: server ${doomed.url} dropped from the pool`))).toHaveLength(1);

    // Another list of servers (one of the pool's and a new one): every answer comes from the cache.
    const fresh = await start();
    const answered = survivor.stats.answered + fresh.stats.answered;
    const again = await evalsRun('again', { OPENAI_BASE_URL: `${fresh.url},${survivor.url}`, LOKAL_CACHE_FILE: cacheFile });
    expect(again.items.map((r) => [r.itemKey, r.rawPrediction])).toEqual(reference.items.map((r) => [r.itemKey, r.rawPrediction]));
    expect(again.items.every((r) => r.cached && r.server === undefined)).toBe(true);
    expect(survivor.stats.answered + fresh.stats.answered).toBe(answered);
  });
});
