// The HTML report stays bounded whatever a model replied: two 10 MB replies (MultiLoKo raw output and a Kalahi
// response) make a report of well under a megabyte, each cut cell stating the full length, and the text before the
// cut shown as it was; an ordinary reply is shown whole.
import { describe, expect, test } from 'vitest';
import { CELL_TEXT_LIMIT, cellText } from '../../src/report/cellText.ts';
import { renderHtmlReport } from '../../src/report/index.ts';
import { SECTIONS } from './sections.ts';

const TEN_MB = 10 * 1024 * 1024;

function multilokoResults(prediction: string) {
  return {
    italian: {
      q0: { em: 0, f1: 0, bleu: 0, chrf: 0, edit_distance: 1, edit_similarity: 0, targets: ['roma'], prediction },
      q1: { em: 1, f1: 1, bleu: 100, chrf: 100, edit_distance: 0, edit_similarity: 1, targets: ['milano'], prediction: 'milano' },
      em: 0.5, f1: 0.5, bleu: 50, chrf: 50, edit_distance: 0.5, edit_similarity: 0.5,
    },
  };
}

describe('report size', () => {
  test('a 10 MB reply is cut in its cell, with the full length stated; the report stays small', async () => {
    const huge = `start ${'z'.repeat(TEN_MB)}`;
    const page = await renderHtmlReport({ benchmarks: { multiloko: multilokoResults(huge) } }, SECTIONS);
    expect(page.length).toBeLessThan(1_000_000);
    expect(page).toContain(`start ${'z'.repeat(CELL_TEXT_LIMIT - 6)} … [cut: ${huge.length.toLocaleString('en-US')} characters in all; the full text is in the results file]`);
    expect(page).toContain('milano');
  });

  test('the cut never splits a surrogate pair; short texts are unchanged', () => {
    const text = `${'a'.repeat(9)}😀${'b'.repeat(10)}`;
    expect(cellText(text, 10)).toBe(`${'a'.repeat(9)} … [cut: 21 characters in all; the full text is in the results file]`);
    expect(cellText('short', 10)).toBe('short');
  });
});
