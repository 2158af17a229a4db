// Several real providers in one run — a generated transformers.js model and an OpenAI-compatible server — give each
// model the results it gets when run alone (the second method), in its own folder; the first model is released
// after its describe and the second built for its own.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { modelSlugs, listModels, modelLabels } from '../../src/core/modelList.ts';
import { startFakeOpenAIServer, type FakeServer } from '../support/fakeOpenAIServer.ts';
import { writeTinyModel } from '../support/tinyModel.ts';
import { MULTILOKO_EVAL, REPO_ROOT, runVitest, type ChildRun } from './helpers.ts';
import { titleUnless } from '../support/sharedData.ts';

const ARCHIVE = path.resolve(REPO_ROOT, '../shared/data/multiloko/benchmark_data.tar.xz.enc');

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-multi-providers-'));
let server: FakeServer;
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const tiny = path.join(dir, 'tiny-model');
const models = [`transformers:${tiny}`, 'openai:toy-model'];

type Results = Record<string, unknown> & { summary: Record<string, unknown> };
const show = (run: ChildRun) => `exit ${run.code}\n${run.stdout.slice(-4000)}\n${run.stderr.slice(-4000)}`;

async function evalsRun(name: string, model: string): Promise<{ run: ChildRun; output: string }> {
  const output = path.join(dir, name);
  const run = await runVitest(['run', '--project', 'evals', MULTILOKO_EVAL], {
    LOKAL_MULTILOKO: ARCHIVE,
    LOKAL_SUBSETS: 'italian',
    LOKAL_LIMIT: '3',
    LOKAL_MODEL: model,
    LOKAL_OUTPUT: output,
    LOKAL_CACHE: 'off',
    OPENAI_BASE_URL: server.url,
    OPENAI_API_KEY: 'sk-test',
  });
  return { run, output };
}

/** The per-subset item records and means: everything but the summary (which holds timings). */
function figures(file: string): Record<string, unknown> {
  const { summary: _summary, ...rest } = JSON.parse(readFileSync(file, 'utf8')) as Results;
  return rest;
}

beforeAll(async () => {
  writeTinyModel(tiny, { layers: 1, hidden: 32, vocab: 320, seed: 3 });
  server = await startFakeOpenAIServer({ apiKey: 'sk-test' });
});

describe.skipIf(!existsSync(ARCHIVE))(titleUnless('transformers: and openai: listed together on the first Italian items', ARCHIVE), () => {
  test("each model's results file equals its run alone", async () => {
    const both = await evalsRun('both', models.join(','));
    expect(both.run.code, show(both.run)).toBe(0);
    const alone = [await evalsRun('alone-0', models[0]!), await evalsRun('alone-1', models[1]!)];
    const slugs = modelSlugs(models);
    models.forEach((model, i) => {
      expect(alone[i]!.run.code, show(alone[i]!.run)).toBe(0);
      const together = figures(path.join(both.output, slugs[i]!, 'multiloko.json'));
      expect(together, model).toEqual(figures(path.join(alone[i]!.output, 'multiloko.json')));
      expect(Object.keys(together)).toContain('italian');
    });
    // Named by the shortest tail of each provider string (the model folder's name, the server's model id).
    const labels = modelLabels(listModels(models.join(',')));
    expect(labels[1]).toBe('toy-model');
    expect(both.run.stdout).toContain(`#1 ${labels[0]}`);
    expect(both.run.stdout).toContain(`#2 ${labels[1]}`);
  }, 300_000);
});
