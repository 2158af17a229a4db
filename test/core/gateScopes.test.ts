// A gate clause whose scope names nothing the benchmark's data has (`klingon.em>=0.1`) is an error at collection,
// with the nearest known name; a subset or variant the data has but the run did not select stays "not applied".
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { kalahi, multiloko } from '../../src/benchmarks/index.ts';
import type { BenchmarkDefinition } from '../../src/benchmarks/benchmark.ts';
import { routeClauses, ThresholdError } from '../../src/core/gates.ts';
import { resolveSettingsTree, sectionSettings, type SettingsTree } from '../../src/core/settings.ts';
import { datasetSpec, writeDataset } from '../vitest/helpers.ts';
import { judgeKalahi, parseKalahiThresholds, type JudgedSuite } from '../../src/benchmarks/kalahi/run/gates.ts';
import { multilokoGate } from '../../src/benchmarks/multiloko/run/gates.ts';
import type { LokalSubsetAggregate, LokalSubsetInfo } from '../../src/benchmarks/multiloko/run/records.ts';
import { judgeRun, summariseGroups } from '../../src/benchmarks/multiloko/results/rollup.ts';
import type { RolledSubset } from '../../src/benchmarks/multiloko/run/rolledSubset.ts';
import { titleUnless } from '../support/sharedData.ts';

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

/** A subset of the plan rolled up with these 0/1 EM scores (every metric's mean set to the EM mean). */
function rolled(info: LokalSubsetInfo, ems: number[]): RolledSubset {
  const em = ems.reduce((a, b) => a + b, 0) / ems.length;
  const means = { em, f1: em, bleu: 100 * em, chrf: 100 * em, edit_distance: 1 - em, edit_similarity: em, edit_distance_first: 1 - em };
  const aggregate = { ...info, benchmark: 'multiloko', scored: ems.length, missing: 0, failed: 0, skipped: 0, cached: 0, modelCalls: 0, modelMs: 0, prompts: [], means } as unknown as LokalSubsetAggregate;
  const records = ems.map((v, i) => ({ subset: info.key, id: `q${i}`, index: i, prediction: v ? 'right' : 'wrong', scores: { em: v } }));
  return { aggregate, records: records as unknown as RolledSubset['records'] };
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
    // Levenshtein distance from "klingon": french 6, italian 6, english 7, the translated keys 28 to 30; of the two at
    // 6, the first in the known list (french) is named.
    expect(error.message).toBe(
      `LOKAL_THRESHOLDS clause "klingon.em>=0.1": "klingon" is not a subset of ${data} (split dev); did you mean "french"? ` +
        '(known: english, english_translated_human_italian, french, italian, italian_translated_human_english, italian_translated_machine_english)',
    );
    // A one-letter slip gets the right guess.
    expect((await thrown(prepare(multiloko, tree, 'italain.em>=0.1'))).message).toContain('did you mean "italian"?');
  });

  test('french is in the data but not selected: no error, and judged "not applied" at roll-up', async () => {
    const thresholds = 'french.em>=0.1,italian.em>=0.6';
    const plan = await prepare(multiloko, tree, thresholds);
    const keys = plan.groups.map((g) => g.info.key);
    expect(keys).toEqual(['english_translated_human_italian', 'italian', 'italian_translated_human_english', 'italian_translated_machine_english']);
    // The run's subsets rolled up with the same clauses: italian's EM is 1/2 (one of two right), below 0.6.
    const subsets = plan.groups.map((g) => rolled(g.info, [1, 0]));
    const gates = routeClauses(thresholds, ['multiloko', 'kalahi'], 'multiloko').get('multiloko')!.map(multilokoGate);
    const judged = judgeRun(subsets, summariseGroups(subsets), { gates, baselineTolerance: 0.02 });
    expect(judged.notApplied).toEqual(['french.em>=0.1']);
    expect(judged.outcomes.map((o) => [o.gate, o.value, o.pass])).toEqual([['italian.em>=0.6', 0.5, false]]);
  });
});

describe.skipIf(!existsSync(KALAHI))(titleUnless('Kalahi scopes', KALAHI), () => {
  const tree = { model: 'replay:/nonexistent.jsonl', kalahi: { data: KALAHI, variant: 'full', tasks: 'generation' } };

  test('an unknown category is an error with the nearest known scope; a variant not run is not', async () => {
    const error = await thrown(prepare(kalahi, tree, 'kalahi.klingon.bleu>=0.1'));
    expect(error.message).toMatch(/^LOKAL_THRESHOLDS clause "kalahi\.klingon\.bleu>=0\.1": "klingon" is not a Kalahi variant or category; did you mean "[a-z_]+"\? \(known: full, partially_enriched, unenriched, /);
    const thresholds = 'kalahi.unenriched.bleu>=0.1';
    const plan = await prepare(kalahi, tree, thresholds);
    expect(plan.groups.map((g) => (g.info as { variant: string }).variant)).toEqual(['full']);
    // Rolled up over the one variant run (full, generation): the clause on unenriched is listed, not judged.
    const suite = { variant: 'full', tasks: ['generation'], overall: {}, byCategory: {}, notComputed: {} } as unknown as JudgedSuite;
    expect(judgeKalahi(parseKalahiThresholds(thresholds), [suite])).toEqual({ outcomes: [], notApplied: [thresholds] });
    // The plan starts loading its task modules at once: wait for them, so they do not load after this file ends.
    await import('../../src/benchmarks/kalahi/run/tasks.ts');
  });
});
