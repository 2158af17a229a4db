// V8's concurrent marking is turned off only when onnxruntime's threads take every CPU of the process, never against a
// marking flag node was started with, and a load records what it did.
import { describe, expect, test } from 'vitest';
import { chosenAtStart, keepMarkingOffModelCores, markingDecision } from '../../src/models/concurrentMarking.ts';

describe('concurrent marking beside onnxruntime threads', () => {
  test('stopped when the threads take every CPU; kept with a CPU to spare or an unknown thread count', () => {
    expect(markingDecision(2, 2, false)).toBe('stopped');
    expect(markingDecision(4, 2, false)).toBe('stopped');
    expect(markingDecision(1, 2, false)).toBe('kept: cores to spare');
    expect(markingDecision(8, 16, false)).toBe('kept: cores to spare');
    expect(markingDecision(undefined, 2, false)).toBe('kept: thread count unknown');
    expect(markingDecision(2, 2, true)).toBe('kept: chosen at start');
  });

  test('a marking flag node was started with, either way round and with underscores, counts as chosen', () => {
    expect(chosenAtStart(['--concurrent-marking'])).toBe(true);
    expect(chosenAtStart(['--max-old-space-size=4096', '--no-concurrent_marking'])).toBe(true);
    expect(chosenAtStart(['--no-concurrent-marking'])).toBe(true);
    expect(chosenAtStart(['--concurrent-marking-threads=2', '--cpu-prof', '--concurrent-sweeping'])).toBe(false);
    expect(chosenAtStart([])).toBe(false);
  });

  test('the flag is set only when stopped', () => {
    const set: string[] = [];
    const where = (execArgv: string[]) => ({ execArgv, cpus: 2, setFlags: (f: string) => void set.push(f) });
    expect(keepMarkingOffModelCores(2, where([]))).toBe('stopped');
    expect(keepMarkingOffModelCores(1, where([]))).toBe('kept: cores to spare');
    expect(keepMarkingOffModelCores(2, where(['--concurrent-marking']))).toBe('kept: chosen at start');
    expect(set).toEqual(['--no-concurrent-marking']);
  });
});
