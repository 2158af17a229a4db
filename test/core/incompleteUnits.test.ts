// The parts of an incomplete run's handling that need no child run: why, which gates still stand, and the file.
import { describe, expect, test } from 'vitest';
import { parseClause } from '../../src/core/gates.ts';
import { gatesOfIncompleteRun, incompleteResultsFile, incompleteResultsText, judgeableOnFinished } from '../../src/core/incomplete.ts';
import { incompleteReason } from '../../src/vitest/completeness.ts';

const clause = (text: string) => parseClause(text, ['multiloko', 'kalahi'], 'em>=0.3');
const asErrors = (...messages: Array<{ message: string; cause?: { message: string } }>) => messages as never;

describe('why a run is incomplete', () => {
  test("the pool's wrapper error with the worker exit as its cause", () => {
    expect(incompleteReason(asErrors({ message: '[vitest-pool]: Worker forks emitted error.', cause: { message: 'Worker exited unexpectedly' } }), 'passed')).toMatch(
      /^a Vitest worker exited unexpectedly \(killed, e\.g\. by SIGKILL or the out-of-memory killer\)/,
    );
  });

  test('an interrupted run, another error, or nothing to go by', () => {
    expect(incompleteReason([], 'interrupted')).toBe('the run was interrupted before these groups finished');
    expect(incompleteReason(asErrors({ message: 'boom\nstack' }), 'failed')).toBe('an error stopped the run before these groups finished: boom');
    expect(incompleteReason([], 'passed')).toBe('these groups did not finish (their tests never reported a result)');
  });
});

describe('gates of an incomplete run', () => {
  test('only a clause scoped to a finished group is judged', () => {
    const finished = new Set(['italian', 'full']);
    expect(judgeableOnFinished(clause('italian.em>=0.3'), finished)).toBe(true);
    expect(judgeableOnFinished(clause('ITALIAN.em>=0.3'), finished)).toBe(true);
    expect(judgeableOnFinished(clause('kalahi.full.ethics.mc1>=0.3'), finished)).toBe(true);
    for (const text of ['em>=0.3', 'gap<=0.4', 'local.em>=0.3', '*.em>=0.3', 'french.em>=0.3', 'kalahi.ethics.mc1>=0.3', 'kalahi.mc1>=0.3']) {
      expect(judgeableOnFinished(clause(text), finished), text).toBe(false);
    }
    const { judged, failed } = gatesOfIncompleteRun('multiloko', [clause('italian.em>=0.3'), clause('em>=0.3')], ['italian'], { missing: ['french'], reason: 'r' });
    expect(judged.map((c) => c.clause)).toEqual(['italian.em>=0.3']);
    expect(failed.map((o) => [o.gate, o.pass, o.message])).toEqual([
      ['em>=0.3', false, 'multiloko em: depends on groups that did not finish (french), so the gate fails (gate em>=0.3)'],
    ]);
  });
});

describe('the incomplete results file', () => {
  test('its name, beside the complete one', () => {
    expect(incompleteResultsFile('multiloko.json')).toBe('multiloko.incomplete.json');
    expect(incompleteResultsFile('toy')).toBe('toy.incomplete');
  });

  test('the marker first, the own results kept, gates_passed false at the top and in summary, the indent kept', () => {
    const own = `${JSON.stringify({ italian: { em: 1 }, summary: { gates_passed: true } }, null, 4)}\n`;
    const text = incompleteResultsText('multiloko', own, { missing: ['french'], reason: 'why' }, []);
    const parsed = JSON.parse(text);
    expect(Object.keys(parsed)).toEqual(['complete', 'incomplete_reason', 'missing_subsets', 'gates_failed_for_missing_data', 'italian', 'summary', 'gates_passed']);
    expect(parsed).toMatchObject({ complete: false, incomplete_reason: 'why', missing_subsets: ['french'], italian: { em: 1 }, summary: { gates_passed: false }, gates_passed: false });
    expect(text.split('\n')[1]).toBe('    "complete": false,');
    expect(JSON.parse(incompleteResultsText('toy', undefined, { missing: ['asia'], reason: 'r' }, []))).toMatchObject({ benchmark: 'toy', complete: false });
  });
});
