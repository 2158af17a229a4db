// Flaky items (trials that disagree) and their per-language table: which items are flaky, their right/trials,
// consistency and answers given, worked out by hand from docs/trials.md's per-item definitions; the table's cap.
import { describe, expect, test } from 'vitest';
import { answersText, flakyItem } from '../../src/core/flakyItems.ts';
import { FLAKY_TERMINAL_ROWS, flakyByLanguage, flakyCells, flakyTableLines, type FlakySubset } from '../../src/benchmarks/multiloko/results/flakyTable.ts';

const trials = (...pairs: Array<[number, string]>) => pairs.map(([em, prediction]) => ({ em, prediction }));

describe('flakyItem', () => {
  test('some right and some wrong: right/trials, the majority answer\'s share, the answers in the order given', () => {
    const right = (answer: string) => ({ answer, correct: answer === 'roma' });
    expect(flakyItem('q0', ['roma', 'milano', 'roma', 'roma'].map(right))).toEqual({ id: 'q0', right: 3, trials: 4, consistency: 0.75, answers: [{ answer: 'roma', count: 3 }, { answer: 'milano', count: 1 }] });
    // The majority is the wrong "b" (2 of 4), so the consistency is 1/2 while one trial is right.
    expect(flakyItem('q2', ['a', 'b', 'roma', 'b'].map(right))).toMatchObject({ right: 1, trials: 4, consistency: 0.5 });
    expect(flakyItem('q1', ['roma', 'roma'].map(right))).toBeUndefined();
    expect(flakyItem('q3', ['x', 'y'].map(right))).toBeUndefined();
    expect(flakyItem('q4', [right('roma')])).toBeUndefined();
  });

  test('answers: most frequent first (ties in the order given), three shown, each shortened', () => {
    expect(answersText([{ answer: 'a', count: 1 }, { answer: 'b', count: 2 }, { answer: 'roma', count: 1 }])).toBe('"b" ×2, "a" ×1, "roma" ×1');
    const five = ['v', 'w', 'x', 'y', 'z'].map((answer) => ({ answer, count: 1 }));
    expect(answersText(five)).toBe('"v" ×1, "w" ×1, "x" ×1 (+2 more)');
    const long = answersText([{ answer: 'a'.repeat(40), count: 1 }, { answer: '', count: 1 }]);
    expect(long).toBe(`"${'a'.repeat(23)}…" ×1, "" ×1`);
  });
});

describe('the table per language', () => {
  const subsets: FlakySubset[] = [
    { name: 'italian · local', language: 'italian', items: [{ id: 'q0', trials: trials([1, 'roma'], [0, 'milano'], [1, 'roma'], [1, 'roma']) }, { id: 'q1', trials: trials([1, 'roma'], [1, 'roma']) }] },
    { name: 'french · local', language: 'french', items: [{ id: 'f0', trials: trials([0, 'x'], [0, 'y']) }] },
    { name: 'italian → english · human', language: 'italian', items: [{ id: 'q0', trials: trials([1, 'rome'], [0, 'milan']) }] },
    { name: 'german · local', language: 'german', items: [{ id: 'g0' }] },
  ];

  test('each language with trials, its flaky items subset by subset; a language without trials has no table', () => {
    const languages = flakyByLanguage(subsets);
    expect(languages.map((l) => [l.language, l.items, l.rows.map((r) => `${r.subset}/${r.id}`)])).toEqual([
      ['italian', 3, ['italian · local/q0', 'italian → english · human/q0']],
      ['french', 1, []],
    ]);
    expect(flakyCells(languages[0]!.rows[1]!)).toEqual(['italian → english · human', 'q0', '"rome" ×1, "milan" ×1', '1/2', '0.50']);
  });

  test('the terminal lines: a count per language, then its rows', () => {
    const lines = flakyTableLines(subsets);
    expect(lines[0]).toMatch(/^MultiLoKo flaky items per language/u);
    expect(lines[1]).toBe('  italian · 2 flaky of 3 items');
    expect(lines[2]).toMatch(/^ {4}\| Subset +\| Item \| Answers given +\| Right \| Consistency \|$/u);
    expect(lines[4]).toMatch(/^ {4}\| italian · local +\| q0 +\| "roma" ×3, "milano" ×1 \| +3\/4 \| +0\.75 \|$/u);
    expect(lines).toContain('  french · 0 flaky of 1 item');
    expect(flakyTableLines([subsets[3]!])).toEqual([]);
  });

  test(`past ${FLAKY_TERMINAL_ROWS} flaky items a language's table says how many more there are`, () => {
    const many = Array.from({ length: FLAKY_TERMINAL_ROWS + 7 }, (_, i) => ({ id: `q${i}`, trials: trials([1, 'a'], [0, 'b']) }));
    const lines = flakyTableLines([{ name: 'italian · local', language: 'italian', items: many }]);
    expect(lines.filter((l) => / q\d+ /u.test(l))).toHaveLength(FLAKY_TERMINAL_ROWS);
    expect(lines).toContain('    … and 7 more (every trial is in multiloko.json\'s item records; report.html\'s flaky filter lists them all)');
  });
});
