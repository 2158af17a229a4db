// The end-of-run rules of src/run/endRun.ts on hand-built runs of the toy benchmark (test/toy): an incomplete run is
// marked and kept beside the complete file, a complete one supersedes an earlier incomplete file, gates over
// unfinished groups fail unjudged, an interrupt says what it kept, several models get a folder each. Every expected
// file is written out here by hand from the toy's records.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { GroupInfo } from '../../src/benchmarks/benchmark.ts';
import type { CollectedBenchmark } from '../../src/run/collected.ts';
import { endRun, incompleteness, type RunEndInput } from '../../src/run/endRun.ts';
import { capitals } from '../toy/toyBenchmark.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-end-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PREVIOUS = `${JSON.stringify({ benchmark: 'toy', note: 'a complete earlier run' })}\n`;
const WORKER = 'a Vitest worker exited unexpectedly (killed, e.g. by SIGKILL or the out-of-memory killer) before these groups finished';
const THREE_GATES = 'toy.accuracy>=0.5,toy.europe.accuracy>=0.5,toy.asia.accuracy>=0.5';

interface Rec {
  id: number;
  reply: string;
  correct: boolean;
}
const EUROPE: Rec[] = [
  { id: 1, reply: 'Rome', correct: true },
  { id: 2, reply: 'Paris', correct: true },
  { id: 3, reply: 'Madrid', correct: true },
];
const ASIA: Rec[] = [
  { id: 4, reply: 'Tokyo', correct: true },
  { id: 5, reply: 'Pokhara', correct: false },
];

/** A toy group as the runner aggregates it, with the accuracy given by hand. */
function group(key: 'europe' | 'asia', records: Rec[], accuracy: number | null, model?: string) {
  const info: GroupInfo = { benchmark: 'toy', key, name: `toy · ${key}`, order: key === 'europe' ? 0 : 1, selected: key === 'europe' ? 3 : 2, total: key === 'europe' ? 3 : 2, model, thresholds: undefined };
  return { aggregate: { ...info, scored: records.length, accuracy } as GroupInfo, records };
}

function benchmark(over: Partial<CollectedBenchmark> = {}): CollectedBenchmark {
  return { definition: capitals as unknown as CollectedBenchmark['definition'], groups: [group('europe', EUROPE, 1), group('asia', ASIA, 0.5)], missing: [], model: undefined, skippedItems: 0, items: 5, cutGroups: [], ...over };
}

/** A project folder with an earlier complete toy.json (and, if given, an earlier incomplete file) in `out/`. */
function project(name: string, earlierIncomplete?: string): { root: string; out: string } {
  const root = path.join(dir, name);
  const out = path.join(root, 'out');
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'toy.json'), PREVIOUS);
  if (earlierIncomplete !== undefined) writeFileSync(path.join(out, 'toy.incomplete.json'), earlierIncomplete);
  return { root, out };
}

async function end(root: string, over: Partial<RunEndInput> & { thresholds?: string; model?: string } = {}) {
  const lines: string[] = [];
  const { thresholds, model, ...rest } = over;
  const result = await endRun({
    run: { benchmarks: [benchmark()], thresholds: undefined, warnings: [] },
    registry: [capitals as unknown as CollectedBenchmark['definition']],
    lost: [],
    reason: WORKER,
    settings: { output: 'out', ...(thresholds ? { thresholds } : {}), ...(model ? { model } : {}) },
    root,
    env: {},
    log: (line) => lines.push(line),
    ...rest,
  });
  return { ...result, lines, stdout: lines.join('\n') };
}

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

/** A `>=` gate as src/core/gates.ts records it: its figures to 4 places, a whole number as it is. */
function gate(clause: string, figure: string, value: number, bound: number) {
  const pass = value >= bound;
  const shown = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(4));
  return { gate: clause, figure, value, op: '>=', bound, pass, message: `${figure} = ${shown(value)}, ${pass ? 'meets' : 'must be'} ≥ ${shown(bound)} (gate ${clause})` };
}

/** A gate over groups that did not finish: failed, without a value. */
function unmeasured(clause: string, figure: string, bound: number, why: string) {
  return { gate: clause, figure, value: null, op: '>=', bound, pass: false, message: `${figure}: ${why} (gate ${clause})` };
}

/** The toy's own results, as its report writes them: continents, the judged gates, gates_passed. */
function toyResults(continents: Record<string, { accuracy: number | null; records: Rec[] }>, gates: object[], passed: boolean) {
  return { benchmark: 'toy', continents, gates, gates_passed: passed };
}

describe('a complete run', () => {
  test('writes toy.json and removes the earlier incomplete file it supersedes; nothing fails', async () => {
    const { root, out } = project('complete', '{"complete":false}\n');
    const run = await end(root, { thresholds: 'toy.accuracy>=0.5' });
    expect(readdirSync(out)).toEqual(['toy.json']);
    // 4 of 5 right: accuracy 0.8.
    expect(read(path.join(out, 'toy.json'))).toEqual(
      toyResults({ europe: { accuracy: 1, records: EUROPE }, asia: { accuracy: 0.5, records: ASIA } }, [gate('toy.accuracy>=0.5', 'toy all accuracy', 0.8, 0.5)], true),
    );
    expect(run.failed).toBe(false);
    expect(run.exit.line()).toBeUndefined();
    expect([...run.files]).toEqual([['toy', path.join(out, 'toy.json')]]);
    expect(run.lines.filter((l) => l.startsWith('lokal: '))).toEqual([`lokal: wrote ${path.relative(process.cwd(), path.join(out, 'toy.json'))}`]);
    // One model: the single-model outputs ran (toy's results have no report section, so no report).
    expect('reportFile' in run && run.reportFile === undefined).toBe(true);
    expect('compareFile' in run).toBe(false);
  });

  test('a missed gate fails the run and names the benchmark in the exit line; the recorded gates judge when none are given', async () => {
    const { root, out } = project('missed');
    // Gates recorded by the test run (a merge of shards): judged as if given now.
    const run = await end(root, { run: { benchmarks: [benchmark()], thresholds: 'toy.asia.accuracy>=0.9', warnings: [] } });
    expect(read(path.join(out, 'toy.json')).gates).toEqual([gate('toy.asia.accuracy>=0.9', 'toy asia accuracy', 0.5, 0.9)]);
    expect(run.failed).toBe(true);
    expect(run.exit.line()).toBe('lokal: exit 1: toy failed (see its lines above)');
  });

  test('-t or .skip cut items, yet neither a filter nor a signal: the run is whole (skipped tests alone do not make it incomplete)', async () => {
    const { root, out } = project('skipped-only');
    const run = await end(root, { run: { benchmarks: [benchmark({ cutGroups: ['asia'], skippedItems: 1 })], thresholds: undefined, warnings: [] } });
    expect(readdirSync(out)).toEqual(['toy.json']);
    expect(run.failed).toBe(false);
  });
});

describe('an incomplete run (a worker died)', () => {
  test('toy.incomplete.json beside the untouched toy.json: complete false, the reason, the missing groups, gates over them failed unjudged', async () => {
    const { root, out } = project('killed');
    const run = await end(root, { thresholds: THREE_GATES, run: { benchmarks: [benchmark({ groups: [group('europe', EUROPE, 1)], missing: ['asia'] })], thresholds: undefined, warnings: [] } });
    expect(readFileSync(path.join(out, 'toy.json'), 'utf8')).toBe(PREVIOUS);
    expect(readdirSync(out).sort()).toEqual(['toy.incomplete.json', 'toy.json']);
    const why = 'depends on groups that did not finish (asia), so the gate fails';
    // The marker first, then the toy's own results (Europe's gate judged as usual), gates_passed forced false.
    expect(readFileSync(path.join(out, 'toy.incomplete.json'), 'utf8')).toBe(
      `${JSON.stringify(
        {
          complete: false,
          incomplete_reason: WORKER,
          missing_subsets: ['asia'],
          gates_failed_for_missing_data: [
            unmeasured('toy.accuracy>=0.5', 'toy accuracy', 0.5, why),
            unmeasured('toy.asia.accuracy>=0.5', 'toy asia accuracy', 0.5, why),
          ],
          ...toyResults({ europe: { accuracy: 1, records: EUROPE } }, [gate('toy.europe.accuracy>=0.5', 'toy europe accuracy', 1, 0.5)], true),
          gates_passed: false,
        },
        null,
        2,
      )}\n`,
    );
    expect(run.stdout).toContain(`lokal: toy: INCOMPLETE run: ${WORKER}: asia`);
    expect(run.stdout).toContain(`  ✗ toy accuracy: ${why} (gate toy.accuracy>=0.5)`);
    expect(run.stdout).toContain(`lokal: wrote ${path.relative(process.cwd(), path.join(out, 'toy.incomplete.json'))} (complete: false; the 3 items that finished; ${path.relative(process.cwd(), path.join(out, 'toy.json'))} left as it was)`);
    expect(run.failed).toBe(true);
    expect(run.exit.line()).toBe('lokal: exit 1: toy: incomplete run');
    expect([...run.files]).toEqual([['toy', path.join(out, 'toy.incomplete.json')]]);
  });

  test('no item finished: nothing is written, the earlier incomplete file keeps its items, the run fails', async () => {
    const earlier = `${JSON.stringify({ benchmark: 'toy', complete: false, note: 'an earlier interrupted run' })}\n`;
    const { root, out } = project('none-finished', earlier);
    const run = await end(root, { run: { benchmarks: [benchmark({ groups: [group('europe', [], null), group('asia', [], null)], missing: ['europe', 'asia'] })], thresholds: undefined, warnings: [] } });
    expect(readFileSync(path.join(out, 'toy.json'), 'utf8')).toBe(PREVIOUS);
    expect(readFileSync(path.join(out, 'toy.incomplete.json'), 'utf8')).toBe(earlier);
    expect(run.stdout).toContain(`lokal: toy: INCOMPLETE run: ${WORKER}: europe, asia`);
    expect(run.stdout).toContain(`lokal: toy: no item finished, so no results file is written (${path.relative(process.cwd(), path.join(out, 'toy.json'))} and toy.incomplete.json left as they were)`);
    expect(run.failed).toBe(true);
    expect(run.files.size).toBe(0);
  });

  test('an eval file that left no group: named with the reason, the run fails, nothing written', async () => {
    const { root, out } = project('lost');
    const file = path.join(root, 'evals', 'toy.eval.ts');
    const run = await end(root, { lost: [file], run: { benchmarks: [], thresholds: undefined, warnings: ['a warning of the walk'] } });
    expect(run.lines).toEqual(['lokal: a warning of the walk', `lokal: ${path.relative(process.cwd(), file)} did not finish: a Vitest worker exited unexpectedly (killed, e.g. by SIGKILL or the out-of-memory killer); its results were not written`]);
    expect(run.exit.line()).toBe('lokal: exit 1: 1 eval file did not finish');
    expect(readdirSync(out)).toEqual(['toy.json']);
  });
});

describe('a -t filter that kept part of the benchmark', () => {
  test('the incomplete file names the filter and the items it kept; the complete file is left as it was', async () => {
    const { root, out } = project('one-group');
    // collect.ts leaves out a group the filter skipped whole (Asia), and lists it among the cut groups.
    const run = await end(root, { filter: '/europe/', run: { benchmarks: [benchmark({ groups: [group('europe', EUROPE, 1)], cutGroups: ['asia'], skippedItems: 2 })], thresholds: undefined, warnings: [] } });
    expect(readFileSync(path.join(out, 'toy.json'), 'utf8')).toBe(PREVIOUS);
    const results = read(path.join(out, 'toy.incomplete.json'));
    expect(results.incomplete_reason).toBe('a -t filter (/europe/) kept 3 of 5 items');
    expect(results.missing_subsets).toEqual(['asia']);
    expect(Object.keys(results.continents)).toEqual(['europe']);
    expect(run.stdout).toContain('lokal: toy: INCOMPLETE run: a -t filter (/europe/) kept 3 of 5 items: asia');
    expect(run.failed).toBe(true);
  });

  test('that cut nothing: the run is whole', async () => {
    const { root, out } = project('filter-all');
    const run = await end(root, { filter: '/capital/' });
    expect(readdirSync(out)).toEqual(['toy.json']);
    expect(run.failed).toBe(false);
  });
});

describe('an interrupted run', () => {
  test('the groups the signal cut are missing, the reason names the signal, the items kept are said once', async () => {
    const { root, out } = project('interrupted');
    const cut = benchmark({ groups: [group('europe', EUROPE, 1), group('asia', ASIA.slice(1), 0)], cutGroups: ['asia'], skippedItems: 1 });
    const run = await end(root, { signal: 'SIGINT', thresholds: 'toy.accuracy>=0.5,toy.europe.accuracy>=0.5', run: { benchmarks: [cut], thresholds: undefined, warnings: [] } });
    const results = read(path.join(out, 'toy.incomplete.json'));
    expect(results.incomplete_reason).toBe('the run was interrupted (SIGINT) before these groups finished');
    expect(results.missing_subsets).toEqual(['asia']);
    expect(results.gates.map((g: { gate: string; pass: boolean }) => [g.gate, g.pass])).toEqual([['toy.europe.accuracy>=0.5', true]]);
    expect(results.gates_failed_for_missing_data.map((g: { gate: string }) => g.gate)).toEqual(['toy.accuracy>=0.5']);
    // Europe's 3 and Asia's item 5.
    expect(results.continents.asia.records.map((r: Rec) => r.id)).toEqual([5]);
    expect(run.lines.filter((l) => l.includes('finished and kept in all'))).toEqual([
      "lokal: SIGINT: 4 items finished and kept in all; Vitest's test counts above also count gate and summary tests, and list the tests the interrupt stopped as skipped",
    ]);
    expect(readFileSync(path.join(out, 'toy.json'), 'utf8')).toBe(PREVIOUS);
  });

  test('an eval file the signal stopped before it had groups: named with the signal', async () => {
    const { root } = project('interrupted-lost');
    const file = path.join(root, 'a.eval.ts');
    const run = await end(root, { signal: 'SIGTERM', lost: [file], run: { benchmarks: [], thresholds: undefined, warnings: [] } });
    expect(run.lines).toEqual([`lokal: ${path.relative(process.cwd(), file)} did not finish: the run was interrupted (SIGTERM); its results were not written`]);
  });
});

describe('a run of several models', () => {
  const A = 'replay:answers/a.jsonl';
  const B = 'replay:answers/b.jsonl';

  test('each model in its own folder (its label, else its provider string); one incomplete, one complete; no file at the top', async () => {
    const { root, out } = project('models');
    const run = await end(root, {
      model: `${A},second=${B}`,
      run: { benchmarks: [benchmark({ model: A }), benchmark({ model: B, groups: [group('europe', EUROPE, 1, B)], missing: ['asia'] })], thresholds: undefined, warnings: [] },
    });
    // A: `replay:answers/a.jsonl` with every run of other characters one `-`; B: its label.
    expect(readdirSync(out).sort()).toEqual(['replay-answers-a.jsonl', 'second', 'toy.json']);
    expect(readFileSync(path.join(out, 'toy.json'), 'utf8')).toBe(PREVIOUS);
    expect(readdirSync(path.join(out, 'replay-answers-a.jsonl'))).toEqual(['toy.json']);
    expect(readdirSync(path.join(out, 'second'))).toEqual(['toy.incomplete.json']);
    expect(read(path.join(out, 'replay-answers-a.jsonl', 'toy.json')).continents.asia.records).toEqual(ASIA);
    expect(read(path.join(out, 'second', 'toy.incomplete.json')).missing_subsets).toEqual(['asia']);
    expect([...run.files]).toEqual([
      [`toy ${A}`, path.join(out, 'replay-answers-a.jsonl', 'toy.json')],
      [`toy ${B}`, path.join(out, 'second', 'toy.incomplete.json')],
    ]);
    // Each model's lines are headed by its name: A's the shortest tail no other model ends with, B's its label.
    expect(run.lines.filter((l) => l.includes('lokal: model '))).toEqual([`\nlokal: model a.jsonl (${A})`, `\nlokal: model second (${B})`]);
    // No toy results have a comparison section: the models are not compared, and no compare.html is written.
    expect(run.stdout).toContain('lokal: the models are not compared: 0 of them have complete results (2 to 10 needed)');
    expect('compareFile' in run && run.compareFile === undefined).toBe(true);
    expect(run.exit.line()).toBe('lokal: exit 1: toy: incomplete run');
  });

  test("a benchmark's own model beside the shared one: a folder per model though one model is listed", async () => {
    const { root, out } = project('own-model');
    await end(root, { model: A, run: { benchmarks: [benchmark({ model: A }), benchmark({ model: B })], thresholds: undefined, warnings: [] } });
    expect(readdirSync(out).sort()).toEqual(['replay-answers-a.jsonl', 'replay-answers-b.jsonl', 'toy.json']);
    expect(existsSync(path.join(out, 'replay-answers-b.jsonl', 'toy.json'))).toBe(true);
  });
});

describe('a benchmark whose report throws', () => {
  test('the error is logged and fails the run; the files stay as they were', async () => {
    const { root, out } = project('throws');
    const broken = { ...capitals, report: () => { throw new Error('no figures\nsecond line'); } } as unknown as CollectedBenchmark['definition'];
    const run = await end(root, { registry: [broken], run: { benchmarks: [benchmark({ definition: broken })], thresholds: undefined, warnings: [] } });
    expect(run.lines).toContain('lokal: no figures\nsecond line');
    expect(run.exit.line()).toBe('lokal: exit 1: toy: no figures');
    expect(readdirSync(out)).toEqual(['toy.json']);
  });
});

describe('incompleteness', () => {
  const whole = benchmark();
  test('whole without missing groups; a filter or a signal makes cut groups missing; unfinished groups come first', () => {
    expect(incompleteness(whole, { reason: WORKER })).toBeUndefined();
    expect(incompleteness(benchmark({ cutGroups: ['asia'] }), { reason: WORKER })).toBeUndefined();
    expect(incompleteness(benchmark({ cutGroups: ['asia'], skippedItems: 2 }), { reason: WORKER, filter: '/x/' })).toEqual({ missing: ['asia'], reason: 'a -t filter (/x/) kept 3 of 5 items' });
    // A worker death beside a filter: the worker is the reason, its groups first, the cut ones after without repeats.
    expect(incompleteness(benchmark({ missing: ['asia'], cutGroups: ['europe', 'asia'] }), { reason: WORKER, filter: '/x/' })).toEqual({ missing: ['asia', 'europe'], reason: WORKER });
    expect(incompleteness(benchmark({ cutGroups: ['europe'] }), { reason: WORKER, signal: 'SIGTERM' })).toEqual({ missing: ['europe'], reason: 'the run was interrupted (SIGTERM) before these groups finished' });
  });
});
