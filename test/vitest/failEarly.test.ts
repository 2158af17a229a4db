// A model that cannot answer fails the run once, at collection: child `vitest run` processes with a missing model
// folder, a dtype the folder has no weights for, an OpenAI-compatible base URL on a closed port, and a pool of servers
// all down or serving different models. Each must exit 1 with the one-line message once, declare no item test (so none
// fails), and end within a bounded time: Vitest's own start-up is most of it (3–7 s measured by hand on the shared
// 2-core machine), so the bound here is loose enough for a machine busy with other test files, and the server probe's
// wait is read from its message.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { writeTinyModel } from '../support/tinyModel.ts';
import { startFakeOpenAIServer } from '../support/fakeOpenAIServer.ts';
import { MULTILOKO_EVAL, datasetSpec, runVitest, writeDataset } from './helpers.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-fail-early-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const dataset = writeDataset(dir, datasetSpec(12));
/** Wall time of a whole child run: Vitest's start-up on a loaded machine, not the failure itself, is what varies. */
const BOUND_SECONDS = 90;

/** A port nothing listens on: bound by the OS, then released. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface Outcome {
  code: number | null;
  output: string;
  seconds: number;
  report: { numTotalTests: number; numFailedTests: number; testResults: Array<{ message: string }> };
}

async function runWith(name: string, env: Record<string, string>): Promise<Outcome> {
  const json = path.join(dir, `${name}.json`);
  const started = performance.now();
  const run = await runVitest(['run', '--project', 'evals', MULTILOKO_EVAL, '--reporter=default', '--reporter=json', `--outputFile.json=${json}`], {
    LOKAL_MULTILOKO: dataset,
    LOKAL_OUTPUT: path.join(dir, name),
    LOKAL_CACHE: 'off',
    ...env,
  });
  const seconds = (performance.now() - started) / 1000;
  return { code: run.code, output: `${run.stdout}\n${run.stderr}`, seconds, report: JSON.parse(readFileSync(json, 'utf8')) };
}

/** Lines of the output holding `text`. */
const linesWith = (output: string, text: string) => output.split('\n').filter((line) => line.includes(text));

function expectFailedOnce(outcome: Outcome, message: RegExp): void {
  const shown = `exit ${outcome.code}\n${outcome.output.slice(-3000)}`;
  expect(outcome.code, shown).toBe(1);
  // The message is one line, printed once, naming the setting and the cause.
  const lines = linesWith(outcome.output, 'ModelUnusableError');
  expect(lines, shown).toHaveLength(1);
  expect(lines[0], shown).toMatch(message);
  // No stack frames follow it (the message is the whole story).
  expect(outcome.output, shown).not.toMatch(/^\s+❯ .*\.ts:\d+:\d+/mu);
  // Nothing was declared, so no item test failed.
  expect(outcome.report.numTotalTests, shown).toBe(0);
  expect(outcome.report.numFailedTests, shown).toBe(0);
  expect(outcome.report.testResults.map((r) => r.message).join('\n'), shown).toMatch(message);
}

describe('a model that cannot answer fails the run once, at collection', { timeout: 240_000 }, () => {
  test('a model folder that does not exist', async () => {
    const missing = path.join(dir, 'no-such-model');
    const outcome = await runWith('missing', { LOKAL_MODEL: `transformers:${missing}` });
    expectFailedOnce(outcome, new RegExp(`LOKAL_MODEL=transformers:${missing} cannot be used: .*does not exist`, 'u'));
    expect(outcome.seconds).toBeLessThan(BOUND_SECONDS);
  });

  test('a dtype the model folder has no weights for', async () => {
    const model = path.join(dir, 'tiny');
    writeTinyModel(model, { layers: 1, hidden: 32, vocab: 320, seed: 3 });
    const outcome = await runWith('dtype', { LOKAL_MODEL: `transformers:${model}`, LOKAL_DTYPE: 'q4' });
    expectFailedOnce(outcome, /LOKAL_MODEL=transformers:.*tiny cannot be used: .*has no weights for dtype q4/u);
    expect(outcome.seconds).toBeLessThan(BOUND_SECONDS);
  });

  test('an OpenAI-compatible server that refuses connections stops the run after a short wait', async () => {
    const port = await closedPort();
    const outcome = await runWith('refused', { LOKAL_MODEL: 'openai:toy', OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` });
    expectFailedOnce(outcome, new RegExp(`LOKAL_MODEL=openai:toy cannot be used: .*nothing accepts connections at http://127\\.0\\.0\\.1:${port}/v1 \\(ECONNREFUSED`, 'u'));
    // The probe waited at most 3 s (72 items retrying six times each took minutes).
    const [, attempts, waited] = /ECONNREFUSED; (\d+) attempts over ([\d.]+) s/u.exec(outcome.output)!;
    expect(Number(attempts)).toBeGreaterThanOrEqual(2);
    expect(Number(waited)).toBeLessThanOrEqual(3);
    expect(outcome.seconds).toBeLessThan(BOUND_SECONDS);
  });

  test('every server of a pool down: once, naming each server and its error', async () => {
    const ports = [await closedPort(), await closedPort()];
    const outcome = await runWith('pool-down', { LOKAL_MODEL: 'openai:toy', OPENAI_BASE_URL: ports.map((port) => `http://127.0.0.1:${port}/v1`).join(',') });
    expectFailedOnce(
      outcome,
      new RegExp(`LOKAL_MODEL=openai:toy cannot be used: .*every server of OPENAI_BASE_URL is down: ${ports.map((port) => `nothing accepts connections at http://127\\.0\\.0\\.1:${port}/v1 \\(ECONNREFUSED[^)]*\\)`).join('; ')}`, 'u'),
    );
    expect(outcome.seconds).toBeLessThan(BOUND_SECONDS);
  });

  test('servers of a pool serving different models: once, naming each server and its model', async () => {
    const a = await startFakeOpenAIServer({ models: ['toy'] });
    const b = await startFakeOpenAIServer({ models: ['other'] });
    try {
      const outcome = await runWith('pool-mixed', { LOKAL_MODEL: 'openai:toy', OPENAI_BASE_URL: `${a.url},${b.url}` });
      const escape = (text: string) => text.replace(/[.]/gu, '\\.');
      expectFailedOnce(outcome, new RegExp(`serve different models: ${escape(a.url)} serves toy; ${escape(b.url)} serves other: give servers of one model, or set LOKAL_ALLOW_MIXED_SERVERS=1`, 'u'));
      expect(a.stats.answered + b.stats.answered).toBe(0);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
