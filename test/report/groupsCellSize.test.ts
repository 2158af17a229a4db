// A dataset benchmark's item rows in the HTML report are cut as MultiLoKo's are: a 10 MiB reply or accepted answer
// shows its first CELL_TEXT_LIMIT characters and its full length, and the page stays small.
import { expect, test } from 'vitest';
import { CELL_TEXT_LIMIT } from '../../src/report/cellText.ts';
import { GROUPS_LAYOUT, type GroupsResultsJson } from '../../src/report/groupsResults.ts';
import { renderHtmlReport } from '../../src/report/index.ts';
import { SECTIONS } from './sections.ts';

const TEN_MIB = 10 * 1024 * 1024;

function results(answer: string, target: string): GroupsResultsJson {
  const none = { selected: 1, total: 1, scored: 1, missing: 0, failed: 0, figures: { em: null } };
  return {
    layout: GROUPS_LAYOUT,
    benchmark: 'capitals',
    title: 'Capitals',
    confidence: 0.95,
    figures: [{ name: 'em', label: 'EM', top: 1, kind: 'proportion' }],
    overall: none,
    groups: [{ key: 'all', name: 'capitals', ...none, records: [{ id: 'q1', verdict: 'wrong', scores: { em: 0 }, answer, prediction: 'x', targets: [target] }] }],
    gates: [],
    gates_not_applied: [],
    gates_passed: true,
  } as GroupsResultsJson;
}

test('a 10 MiB reply and a 10 MiB accepted answer are cut in their cells, with the full length stated', async () => {
  const reply = `reply ${'z'.repeat(TEN_MIB)}`;
  const target = `target ${'y'.repeat(TEN_MIB)}`;
  const page = await renderHtmlReport({ others: [results(reply, target)] }, SECTIONS);
  expect(page.length).toBeLessThan(1_000_000);
  const cut = (text: string) => `${text.slice(0, CELL_TEXT_LIMIT)} … [cut: ${text.length.toLocaleString('en-US')} characters in all; the full text is in the results file]`;
  expect(page).toContain(cut(reply));
  expect(page).toContain(cut(target));
});

test('a short reply is shown whole', async () => {
  const page = await renderHtmlReport({ others: [results('Rome', 'Roma')] }, SECTIONS);
  // Rows travel as JSON in the drill-down's data block: quotes as \" and every </ as <\/.
  expect(page).toContain('<td><span class=\\"label\\">normalised<\\/span> Roma<\\/td><td><span class=\\"label\\">raw output<\\/span> Rome\\n');
});
