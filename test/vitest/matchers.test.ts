// Expected scores are the reference-verified vectors of test/fixtures/vectors.ts (computed with eval.py / sacrebleu / difflib).
import { describe, expect, test } from 'vitest';
import '../../src/vitest/matchers.ts';

/** The message a failing assertion throws (undefined if it passes). */
function failure(run: () => void): string | undefined {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  return undefined;
}

describe('lokal matchers', () => {
  test('toExactMatch compares normalised strings and says so', ({ expect, task }) => {
    expect('the Beatles!').toExactMatch(['The Beatles', 'Beatles']);
    expect(task.meta.lokalScores).toEqual({ em: 1 });
    const message = failure(() => expect('In 1969.').toExactMatch('1969'));
    expect(message).toBe(
      'expected answer to exact-match a target (EM 0)\n' +
        '  answer:  "In 1969." → normalised "in 1969"\n' +
        '  targets: "1969" → normalised "1969"',
    );
    expect(task.meta.lokalScores).toEqual({ em: 0 });
    expect(failure(() => expect('Beatles').not.toExactMatch(['the beatles']))).toMatch(/^expected answer not to exact-match a target \(EM 1\)/);
  });

  test('score matchers record the reference values of "In 1969." vs ["1969"]', ({ expect, task }) => {
    expect('In 1969.').toHaveF1(['1969'], { atLeast: 0.6 });
    expect('In 1969.').toHaveChrF(['1969'], { atLeast: 80 });
    expect('In 1969.').toHaveBleu(['1969'], { atLeast: 49 });
    expect('In 1969.').toHaveEditSimilarity(['1969'], { atLeast: 0.7 });
    expect('In 1969.').toBeWithinEditDistance(['1969'], 3);
    expect(task.meta.lokalScores).toEqual({
      f1: 0.6666666666666666,
      chrf: 84.67741935483872,
      bleu: 49.99999999999999,
      edit_similarity: 0.7272727272727273,
      edit_distance: 3,
    });
  });

  test('failures give the bound, the score and the normalised strings', ({ expect }) => {
    expect(failure(() => expect('In 1969.').toHaveF1(['1969']))).toBe(
      'expected answer to have token F1 ≥ 1, got 0.666667\n' +
        '  answer:  "In 1969." → normalised "in 1969"\n' +
        '  targets: "1969" → normalised "1969"',
    );
    expect(failure(() => expect('kitten').toBeWithinEditDistance(['sitting'], 2))).toMatch(
      /^expected answer to be within edit distance 2 of a target, nearest is 3\n/,
    );
    // Code points, not UTF-16 units: '😀a' is one deletion away from 'a'.
    expect('😀a').toBeWithinEditDistance(['a'], 1);
    expect(failure(() => expect('東京').toHaveEditSimilarity(['東京都'], { atLeast: 0.9 }))).toMatch(/edit similarity ≥ 0\.9, got 0\.8\n/);
    expect(failure(() => expect('xyz').not.toHaveChrF(['abc'], { atLeast: 0 }))).toMatch(/^expected answer not to have chrF ≥ 0, got 0\n/);
  });

  test('bad inputs are reported, not scored', ({ expect }) => {
    expect(() => expect(42).toExactMatch(['42'])).toThrow('toExactMatch: the answer must be a string, got number');
    expect(() => expect('a').toExactMatch([])).toThrow('toExactMatch: targets must be a string or a non-empty array of strings');
    expect(() => expect('a').toHaveF1(['a'], { atLeast: Number.NaN })).toThrow('toHaveF1: atLeast must be a number');
    expect(() => expect('a').toBeWithinEditDistance(['a'], -1)).toThrow(/maxDistance must be a number ≥ 0/);
  });
});

describe('concurrent tests record into their own meta', () => {
  let releaseFirst!: () => void;
  const secondRan = new Promise<void>((resolve) => (releaseFirst = resolve));

  test.concurrent('first', async ({ expect, task }) => {
    await secondRan;
    expect('Roma').toExactMatch(['Roma']);
    expect(task.meta.lokalScores).toEqual({ em: 1 });
  });

  test.concurrent('second', async ({ expect, task }) => {
    expect('Milano').not.toExactMatch(['Roma']);
    releaseFirst();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(task.meta.lokalScores).toEqual({ em: 0 });
  });
});

test('the global expect works too (outside concurrency)', ({ task }) => {
  // Normalisation (lower-casing, article removal) makes these identical: chrF 100.
  expect('The São Paulo').toHaveChrF(['são paulo']);
  expect(task.meta.lokalScores).toEqual({ chrf: 100 });
});
