// A gate clause whose scope names nothing the benchmark's data has (`klingon.em>=0.1`) is an error at collection,
// with the nearest known name; a subset or variant the data has but the run did not select stays "not applied".
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { kalahi, multiloko } from '../../src/benchmarks/index.ts';
import type { BenchmarkDefinition } from '../../src/core/benchmark.ts';
import { routeClauses, ThresholdError } from '../../src/core/gates.ts';
import { resolveSettingsTree, sectionSettings, type SettingsTree } from '../../src/core/settings.ts';
import { datasetSpec, writeDataset } from '../vitest/helpers.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-gate-scopes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const data = writeDataset(dir, datasetSpec(2));
const KALAHI = path.resolve(import.meta.dirname, '../../../shared/data/kalahi');

async function prepare(definition: BenchmarkDefinition, tree: SettingsTree, thresholds: string) {
  const names = ['multiloko', 'kalahi'];
  const resolved = resolveSettingsTree([multiloko.settings, kalahi.settings], { ...tree, thresholds }, { env: {} });
  const clauses = routeClauses(thresholds, names, 'multiloko').get(definition.name)!;
  return definition.prepare(sectionSettings(resolved, definition.settings), clauses);
}

async function thrown(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  expect(error).toBeInstanceOf(ThresholdError);
  return error!;
}

describe('MultiLoKo scopes', () => {
  const tree = { model: 'replay:/nonexistent.jsonl', multiloko: { data, languages: ['italian'] } };

  test('klingon: an error naming the clause, with the nearest subset key and the known ones', async () => {
    const error = await thrown(prepare(multiloko, tree, 'klingon.em>=0.1'));
    expect(error.message.replace(/did you mean "\w+"/u, 'did you mean "…"')).toBe(
      `LOKAL_THRESHOLDS clause "klingon.em>=0.1": "klingon" is not a subset of ${data} (split dev); did you mean "…"? ` +
        '(known: english, english_translated_human_italian, french, italian, italian_translated_human_english, italian_translated_machine_english)',
    );
    // A one-letter slip gets the right guess.
    expect((await thrown(prepare(multiloko, tree, 'italain.em>=0.1'))).message).toContain('did you mean "italian"?');
  });

  test('french is in the data but not selected: no error (judged "not applied" at roll-up)', async () => {
    const plan = await prepare(multiloko, tree, 'french.em>=0.1,italian.em>=0.1,local.em>=0.1');
    expect(plan.groups.map((g) => g.info.key)).toEqual(['english_translated_human_italian', 'italian', 'italian_translated_human_english', 'italian_translated_machine_english']);
  });
});

describe.skipIf(!existsSync(KALAHI))('Kalahi scopes', () => {
  const tree = { model: 'replay:/nonexistent.jsonl', kalahi: { data: KALAHI, variant: 'full', tasks: 'generation' } };

  test('an unknown category is an error with the nearest known scope; a variant not run is not', async () => {
    const error = await thrown(prepare(kalahi, tree, 'kalahi.klingon.bleu>=0.1'));
    expect(error.message).toMatch(/^LOKAL_THRESHOLDS clause "kalahi\.klingon\.bleu>=0\.1": "klingon" is not a Kalahi variant or category; did you mean "[a-z_]+"\? \(known: full, partially_enriched, unenriched, /);
    await expect(prepare(kalahi, tree, 'kalahi.unenriched.bleu>=0.1')).resolves.toBeDefined();
    // The plan starts loading its task modules at once: wait for them, so they do not load after this file ends.
    await import('../../src/benchmarks/kalahi/tasks.ts');
  });
});
