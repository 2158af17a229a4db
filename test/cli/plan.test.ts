// `lokal plan`: each benchmark's items in the project, cut into the parts init's part files run, and each shard's time
// at an assumed speed, without a model; counts worked out by hand on the fixtures; bad options are one line each.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { duration, planBenchmarks, planCommand } from '../../src/cli/plan.ts';
import { main } from '../../src/cli/index.ts';
import { REPO_ROOT } from '../vitest/helpers.ts';
import { captureCliOutput } from '../support/cliOutput.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'lokal-plan-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A project whose config names the MultiLoKo fixtures (21 dev items) and a Kalahi file of 3 prompts. */
function project(): string {
  const root = mkdtempSync(path.join(dir, 'p-'));
  mkdirSync(path.join(root, 'kalahi'));
  const header = 'prompt_variation_id,prompt_id,category,topic,prompt,best_answer,relevant_answers,irrelevant_answers';
  writeFileSync(path.join(root, 'kalahi', 'filipino.csv'), `${header}\n1,1,e,t,P,A,A,C\n2,1,e,t,Q,A,A,C\n3,2,e,t,R,A,A,C\n`);
  writeFileSync(
    path.join(root, 'lokal.config.json'),
    JSON.stringify({ model: 'replay:none.jsonl', multiloko: { data: path.join(REPO_ROOT, 'data/fixtures/multiloko') }, kalahi: { data: path.join(root, 'kalahi') } }),
  );
  return root;
}

const cli = captureCliOutput();

describe('lokal plan', () => {
  test('items per benchmark and part, by hand: 21 in 4 parts are 5, 5, 6, 5; 3 are 1, 0, 1, 1', async () => {
    // rank r goes to part ⌊(r + ½) × 4 / 21⌋: parts start at ranks ⌈p × 21 / 4 − ½⌉ = 0, 5, 10, 16 (and 21)
    expect(await planBenchmarks(project(), 4, {})).toEqual([
      { name: 'multiloko', parts: [5, 5, 6, 5] },
      { name: 'kalahi', parts: [1, 0, 1, 1] },
    ]);
    expect(await planBenchmarks(project(), 1, {})).toEqual([
      { name: 'multiloko', parts: [21] },
      { name: 'kalahi', parts: [3] },
    ]);
  });

  test('the printed plan: per benchmark, then each shard\'s items and time at the given speed; tokens said to be not counted', async () => {
    expect(await planCommand(['--shards', '4', '--items-per-second', '0.01'], project())).toBe(0);
    // at 0.01 items/s: 6 items 600 s → 10 min; 5: 500 s → 8.3 → 9 min; 7: 700 s → 11.7 → 12 min
    expect(cli.out).toBe(
      [
        'multiloko: 21 items in 4 parts: 5, 5, 6, 5',
        'kalahi: 3 items in 4 parts: 1, 0, 1, 1',
        'at 0.01 items/s (--items-per-second; the workflow adds 15 min of setup to each shard):',
        '  shard 1/4 (evals/part-01-of-04.eval.ts): 6 items, 10 min',
        '  shard 2/4 (evals/part-02-of-04.eval.ts): 5 items, 9 min',
        '  shard 3/4 (evals/part-03-of-04.eval.ts): 7 items, 12 min',
        '  shard 4/4 (evals/part-04-of-04.eval.ts): 6 items, 10 min',
        "prompt tokens: not counted (no tokenizer at hand: lokal plan renders no prompt; a run records each item's prompt_tokens)",
        '',
      ].join('\n'),
    );
  });

  test('absent data at the default folders: the benchmark is named as a run skips it', async () => {
    const root = mkdtempSync(path.join(dir, 'empty-'));
    expect(await planCommand([], root)).toBe(0);
    expect(cli.out).toMatch(/^multiloko: no data \(a run skips it\): /mu);
    expect(cli.out).toMatch(/^kalahi: no data \(a run skips it\): /mu);
    expect(cli.out).toContain('  shard 1/1: 0 items, 0 min');
  });

  test('durations by hand: rounded up to the minute', () => {
    expect(duration(0)).toBe('0 min');
    expect(duration(61)).toBe('2 min');
    expect(duration(151_000)).toBe('41 h 57 min');
  });

  test('--shards out of range and a bad speed: one line naming the option, exit 2', async () => {
    for (const [args, message] of [
      [['--shards', '0'], '--shards must be an integer from 1 to 64 (got "0")'],
      [['--shards', '65'], '--shards must be an integer from 1 to 64 (got "65")'],
      [['--shards', '2.5'], '--shards must be an integer from 1 to 64 (got "2.5")'],
      [['--items-per-second', '0'], '--items-per-second must be a number above 0 (got "0")'],
    ] as const) {
      cli.err = '';
      expect(await main(['plan', ...args])).toBe(2);
      expect(cli.err.split('\n')[0]).toBe(`lokal plan: ${message}`);
    }
  });
});
