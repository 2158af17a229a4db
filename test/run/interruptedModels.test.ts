// An interrupt during the second of two models (src/run/endRun.ts on a hand-built run of the capitals dataset
// benchmark, test/dataset): the first model finished, so its folder has its results and a report that does not say
// "Incomplete"; the second kept one item, so its folder has the incomplete results and a report whose verdict is
// "Incomplete"; the items kept are said once for the run. The signal's wiring is test/vitest/worker/interrupt.test.ts's.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import type { GroupInfo, ItemView } from '../../src/benchmarks/benchmark.ts';
import type { DatasetRecord } from '../../src/benchmarks/dataset/records.ts';
import type { CollectedBenchmark } from '../../src/run/collected.ts';
import { endRun } from '../../src/run/endRun.ts';
import { capitals } from '../dataset/capitalsBenchmark.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-interrupted-models-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const definition = capitals as unknown as CollectedBenchmark['definition'];
const EUROPE = [['Italy', 'Rome'], ['France', 'Paris'], ['Spain', 'Madrid'], ['Portugal', 'Lisbon'], ['Greece', 'Athens']] as const;
const ASIA = [['Japan', 'Tokyo'], ['Nepal', 'Kathmandu'], ['India', 'New Delhi'], ['Thailand', 'Bangkok'], ['Vietnam', 'Hanoi']] as const;

/** The record of an item the model answered: right for Italy and France, `Somewhere` for the rest (as the fake server answers). */
function record(id: number, group: string, country: string, capital: string): DatasetRecord {
  const answer = country === 'Italy' ? 'Rome' : country === 'France' ? 'Paris' : 'Somewhere';
  const right = answer === capital;
  return { id, group, question: `What is the capital of ${country}?`, accepted: [capital], answer, prediction: answer.toLowerCase(), targets: [capital.toLowerCase()], scores: { em: right ? 1 : 0, f1: right ? 1 : 0 }, correct: right, missing: false, cached: false, modelInput: null };
}

/** A group of `model` whose first `answered` items finished, the others skipped by the interrupt. */
function group(key: 'europe' | 'asia', model: string, answered: number) {
  const items = (key === 'europe' ? EUROPE : ASIA).map(([country, capital], i): ItemView<DatasetRecord> => {
    const id = (key === 'europe' ? 1 : 6) + i;
    return i < answered ? { record: record(id, key, country, capital), state: 'passed' } : { record: undefined, state: 'skipped' };
  });
  const info: GroupInfo = { benchmark: 'capitals', key, name: `capitals · ${key}`, order: key === 'europe' ? 0 : 1, selected: 5, total: 5, model, thresholds: undefined };
  return { aggregate: definition.aggregate(info, items, undefined) as GroupInfo, records: items.flatMap((i) => (i.record ? [i.record] : [])) };
}

/** The report's verdict line: its data-verdict and its text. */
function verdict(file: string): { kind: string; text: string } {
  const match = /<p class="verdict[^"]*" id="verdict" data-verdict="([a-z]+)">(.*?)<\/p>/su.exec(readFileSync(file, 'utf8'));
  expect(match, file).not.toBeNull();
  return { kind: match![1]!, text: match![2]! };
}

test('Ctrl-C during the second model: each model has its report, the second one "Incomplete" with the item it kept', { timeout: 60_000 }, async () => {
  const root = path.join(dir, 'project');
  mkdirSync(root, { recursive: true });
  const output = path.join(root, 'out');
  const lines: string[] = [];
  // The first model answered all ten; the second its first question, then the interrupt skipped the other nine
  // (Asia's group whole, so collect.ts leaves it out and lists it among the cut groups).
  const first: CollectedBenchmark = { definition, groups: [group('europe', 'openai:first', 5), group('asia', 'openai:first', 5)], missing: [], model: 'openai:first', skippedItems: 0, items: 10, cutGroups: [] };
  const second: CollectedBenchmark = { definition, groups: [group('europe', 'openai:second', 1)], missing: [], model: 'openai:second', skippedItems: 9, items: 10, cutGroups: ['europe', 'asia'] };
  const run = await endRun({
    run: { benchmarks: [first, second], thresholds: undefined, warnings: [] },
    registry: [definition],
    lost: [],
    reason: 'the run was interrupted before these groups finished',
    signal: 'SIGINT',
    settings: { output: 'out', model: 'openai:first,openai:second', redact: 'off' },
    root,
    env: {},
    log: (line) => lines.push(line),
  });
  const out = lines.join('\n');
  expect(run.failed, out).toBe(true);
  const folders = readdirSync(output, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  expect(folders, out).toEqual(['openai-first', 'openai-second']);
  expect(readdirSync(path.join(output, 'openai-first')).sort(), out).toEqual(['capitals.json', 'report.html']);
  expect(readdirSync(path.join(output, 'openai-second')).sort(), out).toEqual(['capitals.incomplete.json', 'report.html']);
  expect(verdict(path.join(output, 'openai-first', 'report.html')).kind).not.toBe('incomplete');
  const incomplete = JSON.parse(readFileSync(path.join(output, 'openai-second', 'capitals.incomplete.json'), 'utf8'));
  expect(incomplete.complete).toBe(false);
  expect(incomplete.missing_subsets).toEqual(['europe', 'asia']);
  const shown = verdict(path.join(output, 'openai-second', 'report.html'));
  expect(shown.kind).toBe('incomplete');
  expect(shown.text).toBe('✗ Incomplete: capitals europe, capitals asia did not finish, so the run fails.');
  expect(out).toMatch(/lokal: report \S*openai-second\/report\.html/u);
  // The first model's 10 items and the second's first: the counts of what was kept, said once for the run.
  expect(incomplete.groups.flatMap((g: { records: unknown[] }) => g.records)).toHaveLength(1);
  expect(out.match(/lokal: SIGINT: \d+ items? finished and kept in all/gu), out).toEqual(['lokal: SIGINT: 11 items finished and kept in all']);
});
