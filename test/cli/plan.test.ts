// `lokal plan`: each benchmark's items in the project, cut into the parts init's part files run, and each shard's time
// at an assumed speed, without a model; counts worked out from the rule's definition on the fixtures; bad options are
// one line each (prompt tokens: planTokens.test.ts).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { duration, planBenchmarks, planCommand } from '../../src/cli/plan.ts';
import { main } from '../../src/cli/index.ts';
import { REPO_ROOT } from '../vitest/helpers.ts';
import { captureCliOutput } from '../support/cliOutput.ts';
import { multilokoFixturePartSizes as partSizesByDefinition } from '../support/multilokoFixtureParts.ts';

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
  test('items per benchmark and part: MultiLoKo cut by base prompt length, as worked out here; 3 Kalahi prompts by count are 1, 0, 1, 1', async () => {
    const multiloko = await partSizesByDefinition(4);
    expect(multiloko.reduce((a, b) => a + b, 0)).toBe(21);
    // Kalahi's prompts are cut by count: rank r goes to part ⌊(r + ½) × 4 / 3⌋ = 0, 2, 3
    expect(await planBenchmarks(project(), 4, {})).toEqual([
      { name: 'multiloko', parts: multiloko },
      { name: 'kalahi', parts: [1, 0, 1, 1] },
    ]);
    expect(await planBenchmarks(project(), 1, {})).toEqual([
      { name: 'multiloko', parts: [21] },
      { name: 'kalahi', parts: [3] },
    ]);
  });

  test('the printed plan: per benchmark, then each shard\'s items and time at the given speed; tokens said to be not counted', async () => {
    const multiloko = await partSizesByDefinition(4);
    const kalahi = [1, 0, 1, 1];
    expect(await planCommand(['--shards', '4', '--items-per-second', '0.01'], project())).toBe(0);
    // at 0.01 items/s an item takes 100 s, rounded up to the minute per shard
    const shards = multiloko.map((items, i) => items + kalahi[i]!);
    expect(cli.out).toBe(
      [
        `multiloko: 21 items in 4 parts: ${multiloko.join(', ')}`,
        'kalahi: 3 items in 4 parts: 1, 0, 1, 1',
        'at 0.01 items/s (--items-per-second; the workflow adds 15 min of setup to each shard):',
        ...shards.map((items, i) => `  shard ${i + 1}/4 (evals/part-0${i + 1}-of-04.eval.ts): ${items} items, ${Math.ceil((items * 100) / 60)} min`),
        'prompt tokens: not counted (replay:none.jsonl answers from a file and is sent no prompt): --tokenizer <folder with tokenizer.json> counts them',
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
