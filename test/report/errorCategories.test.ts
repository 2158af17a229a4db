// The report's error categories: per language the stacked bar and the counts (equal to a count over the item records
// of the file), and the drill-down's error filter holding each item's category.
import { describe, expect, test } from 'vitest';
import { renderHtmlReport } from '../../src/report/index.ts';
import { stepSummaryMarkdown } from '../../src/report/markdown.ts';
import { multilokoSummary } from '../../src/benchmarks/multiloko/results/section/uiSummary.ts';
import { judgeRun, officialLayout, summariseGroups, summariseRun } from '../../src/benchmarks/multiloko/results/rollup.ts';
import type { MultiLoKoResultsJson } from '../../src/benchmarks/multiloko/resultsSchema.ts';
import { rolled } from '../support/scoredSubset.ts';
import { drillRowsOf } from './drillRows.ts';
import { SECTIONS } from './sections.ts';

const subsets = [
  rolled('italian', 0, [['Roma', ['Roma']], ['', ['Milano']], ['Giuseppe', ['Giuseppe Garibaldi']], ['Parigi', ['Londra']]]),
  rolled('french', 1, [['Paris', ['Paris']], ['東京', ['Tokyo']]]),
];
const groups = summariseGroups(subsets);
const summary = summariseRun(subsets, groups, judgeRun(subsets, groups, { gates: [], baselineTolerance: 0.02 }), { intervals: false });
const results = JSON.parse(JSON.stringify({ ...officialLayout(subsets), summary })) as MultiLoKoResultsJson;

describe('error categories in the report', () => {
  test('one stacked bar per language, and counts equal to the records', async () => {
    const page = await renderHtmlReport({ benchmarks: { multiloko: results } }, SECTIONS);
    const chart = /<figure class="chart" id="chart-multiloko-errors">([\s\S]*?)<\/figure>/u.exec(page)![1]!;
    for (const key of ['italian', 'french']) {
      const records = Object.values(results[key] as Record<string, { error?: string } | number>).filter((r): r is { error: string } => typeof r === 'object');
      for (const c of ['correct', 'empty', 'verbose', 'truncated', 'near', 'wrong_script', 'wrong']) {
        const n = records.filter((r) => r.error === c).length;
        expect(page, `${key}.${c}`).toContain(`data-key="errors.${key}.${c}">${n}</td>`);
        // A segment per category present, none for an absent one.
        expect(chart.includes(`<title>${key}: ${c} ${n} of ${records.length}`), `${key}.${c}`).toBe(n > 0);
      }
    }
    expect(chart).toContain('data-category="truncated" data-count="1"');
  });

  test('the drill-down filters by category', async () => {
    const page = await renderHtmlReport({ benchmarks: { multiloko: results } }, SECTIONS);
    expect(page).toContain('<select data-filter="error" aria-label="any error category"><option value="">any error category</option><option value="correct">correct (2)</option><option value="empty">empty (1)</option>');
    expect(drillRowsOf(page, 'multiloko-items').map((r) => [r.filters.subset, r.filters.error])).toEqual([
      ['italian', 'correct'], ['italian', 'empty'], ['italian', 'truncated'], ['italian', 'wrong'], ['french', 'correct'], ['french', 'wrong_script'],
    ]);
  });

  test('the step summary has a table of counts per language', () => {
    const markdown = stepSummaryMarkdown({ benchmarks: { multiloko: results } }, SECTIONS);
    expect(markdown).toContain(
      [
        '**Error categories** (items)',
        '',
        '| Language | Items | correct | empty | verbose | truncated | near | wrong_script | wrong |',
        '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
        '| italian | 4 | 1 | 1 | 0 | 1 | 0 | 0 | 1 |',
        '| french | 2 | 1 | 0 | 0 | 0 | 0 | 1 | 0 |',
        '',
        '**Gates**',
      ].join('\n'),
    );
  });

  test('Vitest UI\'s summary has a line of counts per language', async () => {
    const { text } = await multilokoSummary(results);
    expect(text).toContain('Error categories (items: correct/empty/verbose/truncated/near/wrong_script/wrong): italian 1/1/0/1/0/0/1 · french 1/0/0/0/0/1/0.');
  });

  test('a file without categories (lokal score from before them) shows neither', async () => {
    const old = JSON.parse(JSON.stringify(results), (key, value) => (key === 'error' || key === 'errors' ? undefined : value)) as MultiLoKoResultsJson;
    const page = await renderHtmlReport({ benchmarks: { multiloko: old } }, SECTIONS);
    expect(page).not.toContain('chart-multiloko-errors');
    expect(page).not.toContain('data-filter="error"');
    expect(stepSummaryMarkdown({ benchmarks: { multiloko: old } }, SECTIONS)).not.toContain('Error categories');
  });
});
