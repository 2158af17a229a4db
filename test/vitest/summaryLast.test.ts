// The runner's reordering: a suite's summary tests (listed first) move behind its other children, whose order stays.
import { describe, expect, test } from 'vitest';
import { runSummariesLast } from '../../src/vitest/summaryLast.ts';

const task = (name: string, type: 'test' | 'suite', summary = false) => ({ name, type, meta: summary ? { lokalSummary: true } : {} });

describe('runSummariesLast', () => {
  test('a model describe: [summary, italian, french] runs as [italian, french, summary], in the same array', () => {
    const suite = { tasks: [task('summary', 'test', true), task('italian', 'suite'), task('french', 'suite')] };
    const array = suite.tasks;
    runSummariesLast(suite);
    expect(suite.tasks.map((t) => t.name)).toEqual(['italian', 'french', 'summary']);
    expect(suite.tasks).toBe(array);
  });

  test('a suite without a summary test, and a test named summary without the meta, stay as they are', () => {
    const suite = { tasks: [task('summary', 'test'), task('gate', 'test'), task('italian', 'suite')] };
    runSummariesLast(suite);
    expect(suite.tasks.map((t) => t.name)).toEqual(['summary', 'gate', 'italian']);
  });
});
