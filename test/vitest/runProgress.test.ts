// RunProgress counts a collected module's item tests just after Vitest's hook returns (the worker waits for that hook),
// yet a start or result that comes first still finds them counted.
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestModule } from 'vitest/node';
import { describe, expect, test } from 'vitest';
import { RunProgress } from '../../src/vitest/runProgress.ts';

interface FakeTest {
  id: string;
  options: { mode: 'run' | 'skip' | 'todo' };
  meta(): Record<string, unknown>;
}

/** A module with one group suite: its gate test and `items` item tests (the last `skipped` of them skipped). */
function fakeModule(items: number, skipped = 0): { module: TestModule; tests: FakeTest[] } {
  const gate: FakeTest = { id: 'gate', options: { mode: 'run' }, meta: () => ({ lokalGroup: { benchmark: 'multiloko', key: 'italian' } }) };
  const tests: FakeTest[] = Array.from({ length: items }, (_, i) => ({ id: `item-${i}`, options: { mode: i >= items - skipped ? 'skip' : 'run' }, meta: () => ({}) }));
  const suite = { children: { tests: () => [gate, ...tests][Symbol.iterator](), allTests: () => [gate, ...tests][Symbol.iterator]() } };
  const module = { children: { allSuites: () => [suite][Symbol.iterator]() } };
  return { module: module as unknown as TestModule, tests };
}

/** Until the first progress line is printed (at most 5 s: a loaded machine may run the timer late). */
async function firstLine(lines: readonly string[]): Promise<void> {
  for (let waited = 0; lines.length === 0 && waited < 5000; waited += 10) await sleep(10);
}

/** A RunProgress printing a line every few milliseconds, and the lines it printed. */
function progress(): { run: RunProgress; lines: string[] } {
  const lines: string[] = [];
  const run = new RunProgress((line) => lines.push(line));
  run.start({ progressInterval: 0.005 }, process.cwd(), false);
  return { run, lines };
}

describe('RunProgress', () => {
  test('a result that arrives before the deferred count is counted against the whole module', async () => {
    const { run, lines } = progress();
    const { module, tests } = fakeModule(4, 1);
    run.collected(module);
    // Before the count's turn: the first result must count the module first (3 items will run, 1 is skipped).
    run.result(tests[0] as never);
    await firstLine(lines);
    run.stop();
    expect(lines.length).toBeGreaterThan(0);
    expect(lines[0]).toMatch(/^lokal: multiloko 1\/3 items \(33%\)/u);
  });

  test('counted on its own turn when no test has started yet', async () => {
    const { run, lines } = progress();
    const { module, tests } = fakeModule(2);
    run.collected(module);
    await sleep(0);
    run.ready(tests[0] as never);
    run.result(tests[0] as never);
    run.result(tests[0] as never);
    await firstLine(lines);
    run.stop();
    expect(lines[0]).toMatch(/^lokal: multiloko 1\/2 items \(50%\)/u);
  });

  test('a module collected after stop() is not counted into the next run', async () => {
    const { run, lines } = progress();
    run.collected(fakeModule(5).module);
    run.stop();
    run.start({ progressInterval: 0.005 }, process.cwd(), false);
    const { module, tests } = fakeModule(2);
    run.collected(module);
    run.result(tests[1] as never);
    await firstLine(lines);
    run.stop();
    expect(lines[0]).toMatch(/^lokal: multiloko 1\/2 items/u);
  });
});
