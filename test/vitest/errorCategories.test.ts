// Error categories in the roll-up: the counts in the results equal a count over the item records of the same file,
// the terminal table, and gates on category shares (Wilson intervals worked out here from the formula).
import { describe, expect, test } from 'vitest';
import { errorTableLines } from '../../src/benchmarks/multiloko/results/errorTable.ts';
import { parseGate, parseThresholds, ThresholdError } from '../../src/benchmarks/multiloko/run/gates.ts';
import { judgeRun, officialLayout, summariseGroups, summariseRun } from '../../src/benchmarks/multiloko/results/rollup.ts';
import { rolled } from '../support/scoredSubset.ts';
import { verdictLine } from '../../src/benchmarks/multiloko/run/item.ts';

// By hand, after normalisation (lower case, punctuation and articles removed):
const italian = rolled('italian', 0, [
  ['Roma', ['Roma']], // correct
  ['', ['Milano']], // empty
  ['La città di Torino', ['Torino']], // "torino" is inside "città di torino": verbose
  ['Giuseppe', ['Giuseppe Garibaldi']], // truncated
  ['Garibaldy', ['Garibaldi']], // 8 of 9 letters shared in order: similarity 2·8/18 = 0.889, near
  ['Moskva', ['Москва']], // Latin against Cyrillic: wrong_script
  ['Parigi', ['Londra']], // wrong
  ['Napoli', ['Napoli']], // correct
]);
const french = rolled('french', 1, [
  ['Paris', ['Paris']], // correct
  ['Lyon', ['Marseille']], // wrong
  ['', ['Nice']], // empty
  ['東京', ['Tokyo']], // wrong_script
]);
const translated = rolled('italian_translated_human_english', 2, [
  ['Rome', ['Rome']], // correct
  ['', ['Milan']], // empty
], true);
const subsets = [italian, french, translated];

function rollUp(thresholds: string) {
  const groups = summariseGroups(subsets);
  const judged = judgeRun(subsets, groups, { gates: parseThresholds(thresholds), baselineTolerance: 0.02 });
  return { judged, summary: summariseRun(subsets, groups, judged, { intervals: false }) };
}

/** Wilson's score interval, from its formula. */
function wilson(k: number, n: number): [number, number] {
  const z = 1.959963984540054;
  const p = k / n;
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

describe('counts', () => {
  test('the hand-worked categories', () => {
    expect(italian.records.map((r) => r.error)).toEqual(['correct', 'empty', 'verbose', 'truncated', 'near', 'wrong_script', 'wrong', 'correct']);
    expect(french.records.map((r) => r.error)).toEqual(['correct', 'wrong', 'empty', 'wrong_script']);
  });

  test('summary.subsets[].errors equal a count over the item records of the results file', () => {
    const { summary } = rollUp('');
    const results = JSON.parse(JSON.stringify({ ...officialLayout(subsets), summary })) as Record<string, Record<string, unknown>>;
    const subsetSummaries = (results.summary as unknown as { subsets: Array<{ key: string; errors: Record<string, number> }> }).subsets;
    expect(subsetSummaries.map((s) => s.key)).toEqual(['italian', 'french', 'italian_translated_human_english']);
    for (const s of subsetSummaries) {
      const counts: Record<string, number> = { correct: 0, empty: 0, verbose: 0, truncated: 0, near: 0, wrong_script: 0, wrong: 0 };
      for (const value of Object.values(results[s.key]!)) if (typeof value === 'object' && value !== null) counts[(value as { error: string }).error]!++;
      expect(s.errors, s.key).toEqual(counts);
    }
    expect(subsetSummaries[0]!.errors).toEqual({ correct: 2, empty: 1, verbose: 1, truncated: 1, near: 1, wrong_script: 1, wrong: 1 });
  });

  test('the item record keeps eval.py\'s keys first, then edit_distance_first, then error', () => {
    const record = officialLayout(subsets)!.italian!['italian-4'] as unknown as Record<string, unknown>;
    expect(Object.keys(record).slice(0, 10)).toEqual(['em', 'f1', 'bleu', 'chrf', 'edit_distance', 'edit_similarity', 'targets', 'prediction', 'edit_distance_first', 'error']);
    expect(record.error).toBe('near');
  });

  test('the terminal table: one row per local language, the translated subsets summed', () => {
    const { summary } = rollUp('');
    expect(errorTableLines(summary.subsets)).toEqual([
      'MultiLoKo · error categories (items)',
      '  language               items  correct  empty  verbose  truncated  near  wrong_script  wrong',
      '  italian                    8        2      1        1          1     1             1      1',
      '  french                     4        1      1        0          0     0             1      1',
      '  translated (1 subset)      2        1      1        0          0     0             0      0',
      '',
    ]);
  });
});

describe('gates on category shares', () => {
  test('parsed per subset, per local subset and averaged', () => {
    expect(parseGate('italian.error.empty<=0.05')).toEqual({ clause: 'italian.error.empty<=0.05', scope: { kind: 'subset', key: 'italian' }, metric: 'em', error: 'empty', op: '<=', bound: 0.05 });
    expect(parseGate('error.wrong_script<=0.02')).toMatchObject({ scope: { kind: 'cross', figure: 'average' }, error: 'wrong_script' });
    expect(parseGate('local.error.near<0.5')).toMatchObject({ scope: { kind: 'each', which: 'local' }, error: 'near' });
    expect(parseGate('multiloko.*.error.WRONG<0.5')).toMatchObject({ scope: { kind: 'each', which: 'all' }, error: 'wrong' });
  });

  test('an unknown category is one error naming the seven', () => {
    expect(() => parseGate('italian.error.typo<=0.1')).toThrow(ThresholdError);
    expect(() => parseGate('italian.error.typo<=0.1')).toThrow(
      'LOKAL_THRESHOLDS clause "italian.error.typo<=0.1": unknown error category "typo"; categories: correct, empty, verbose, truncated, near, wrong_script, wrong',
    );
    expect(() => parseGate('error.empty<=5')).toThrow(/0–1 scale, 5 is out of range/);
  });

  test('a share above its bound fails, naming the share and its Wilson interval; below it passes', () => {
    const { judged, summary } = rollUp('italian.error.empty<=0.05,italian.error.empty<=0.2');
    const [fails, passes] = judged.outcomes;
    // 1 empty answer of 8 items: 0.125.
    const [low, high] = wilson(1, 8);
    expect(fails).toMatchObject({ gate: 'italian.error.empty<=0.05', value: 0.125, pass: false });
    expect(fails!.interval!.low).toBeCloseTo(low, 12);
    expect(fails!.interval!.high).toBeCloseTo(high, 12);
    expect(fails!.message).toBe(`italian · local share of empty items (of 8) = 0.1250 (95% CI ${low.toFixed(4)}–${high.toFixed(4)}), must be ≤ 0.0500 (gate italian.error.empty<=0.05)`);
    expect(passes).toMatchObject({ gate: 'italian.error.empty<=0.2', value: 0.125, pass: true });
    expect(summary.gates_passed).toBe(false);
  });

  test('without a subset: the average share over the local languages', () => {
    // wrong_script: italian 1/8, french 1/4; the translated subset is not local.
    const { judged } = rollUp('error.wrong_script<=0.2,local.error.wrong_script<=0.2');
    expect(judged.outcomes.map((o) => [o.gate, o.figure, o.value, o.pass])).toEqual([
      ['local.error.wrong_script<=0.2', 'italian · local share of wrong_script items (of 8)', 0.125, true],
      ['local.error.wrong_script<=0.2', 'french · local share of wrong_script items (of 4)', 0.25, false],
      ['error.wrong_script<=0.2', 'average share of wrong_script items (2 local languages)', (1 / 8 + 1 / 4) / 2, true],
    ]);
  });
});

describe('Vitest UI', () => {
  test('a wrong answer\'s verdict line (its annotation) ends with its category; a right or missing one has none', () => {
    const [right, empty, verbose, , near] = italian.records;
    expect(verdictLine(near!)).toMatch(/^✗ EM 0 · F1 0 · chrF [\d.]+ · said "Garibaldy" · targets "garibaldi" · error near$/u);
    expect(verdictLine(verbose!)).toMatch(/ · error verbose$/u);
    expect(verdictLine(right!)).toBe('✓ EM 1 · F1 1 · chrF 100.0 · said "Roma" · targets "roma"');
    expect(verdictLine(empty!)).toBe('∅ EM 0 · F1 0 · chrF 0.0 · no prediction (scored as empty) · targets "milano"');
  });
});
