// MultiLoKo's part of the step summary (GITHUB_STEP_SUMMARY): the leaderboard, EM per language, error categories,
// local vs English, the gates and, against a baseline, the changes its paired tests call significant.
import { changeLines, gateLines, table, withInterval } from '../../../../report/markdownParts.ts';
import { fixed } from '../../../../report/numberText.ts';
import { markdownCell } from '../../../../report/markdownCell.ts';
import type { SectionOptions } from '../../../../report/section.ts';
import { ERROR_CATEGORIES, type ErrorCategory } from '../../../../metrics/errorCategory.ts';
import type { LocalVsEnglish } from '../localVsEnglish.ts';
import { formatMcNemarP, localVsEnglishRows, questionsLabel } from '../localVsEnglishTable.ts';
import { compareMultiLoKo } from './reportCompare.ts';
import { multilokoView, type MultiLoKoView } from './reportView.ts';
import type { MultiLoKoResultsJson } from '../../resultsSchema.ts';
import { baselineMde, baselineMdeNote, mdeText, type BaselineMde } from '../baselineMde.ts';
import { FLAKY_HEADER, FLAKY_SUMMARY_ROWS, flakyByLanguage, flakyCells } from '../flakyTable.ts';
import { trialFiguresText, trialsRange } from '../trialTable.ts';

/** Items per error category for each local language (first rule that holds); nothing for a file without categories. */
function errorCategoryLines(view: MultiLoKoView): string[] {
  const rows = view.languages.filter((r) => r.subset.errors);
  if (rows.length === 0) return [];
  const count = (errors: Record<ErrorCategory, number>) => ERROR_CATEGORIES.reduce((n, c) => n + errors[c], 0);
  return [
    '**Error categories** (items)',
    '',
    ...table(
      ['Language', 'Items', ...ERROR_CATEGORIES],
      rows.map((r) => [markdownCell(r.language), String(count(r.subset.errors!)), ...ERROR_CATEGORIES.map((c) => String(r.subset.errors![c]))]),
      new Set(ERROR_CATEGORIES.map((_, i) => i + 1).concat(ERROR_CATEGORIES.length + 1)),
    ),
    '',
  ];
}

/** The terminal's local-vs-English rows (summary.local_vs_english, one pair per language); nothing without a pair. */
function localVsEnglishLines(block: LocalVsEnglish | undefined): string[] {
  const rows = localVsEnglishRows(block);
  if (rows.length === 0) return [];
  return [
    '**Local vs English** (questions paired by id, EM: right in both, in English only, in the language only, in neither; English only ≫ local only: knows it but cannot say it; every pair in summary.local\\_vs\\_english)',
    '',
    ...table(
      ['Language', 'Questions', 'Paired', 'Both', 'English only', 'Local only', 'Neither', 'McNemar p'],
      rows.map((r) => [markdownCell(r.language), questionsLabel(r), ...[r.pair.paired, r.pair.both_right, r.pair.english_only, r.pair.local_only, r.pair.both_wrong].map(String), formatMcNemarP(r.pair.mcnemar_p)]),
      new Set([2, 3, 4, 5, 6, 7]),
    ),
    '',
  ];
}

/** The flaky items per language (trials that disagree), the terminal's tables; nothing for a run without trials. */
function flakyLines(view: MultiLoKoView): string[] {
  const languages = flakyByLanguage(view.subsets.map((s) => ({ name: s.name, language: s.language, items: s.items })));
  if (languages.length === 0) return [];
  const lines = ['**Flaky items** (trials that disagree: the answers given, normalised; right/trials; consistency, the majority answer\'s share)', ''];
  for (const { language, items, rows } of languages) {
    lines.push(`${markdownCell(language)}: ${rows.length} flaky of ${items} item${items === 1 ? '' : 's'}`, '');
    if (rows.length === 0) continue;
    lines.push(...table(FLAKY_HEADER, rows.slice(0, FLAKY_SUMMARY_ROWS).map((row) => flakyCells(row).map((cell, c) => (c < 3 ? markdownCell(cell) : cell))), new Set([3, 4])), '');
    if (rows.length > FLAKY_SUMMARY_ROWS) lines.push(`… and ${rows.length - FLAKY_SUMMARY_ROWS} more (every trial is in multiloko.json; report.html's flaky filter lists them all)`, '');
  }
  return lines;
}

/** The baseline gate's MDE for the trials used, per figure tested; nothing without trials or a paired baseline. */
function mdeLines(mde: BaselineMde | undefined): string[] {
  if (!mde) return [];
  return ['', baselineMdeNote(mde), '', ...table(['Figure', 'Paired items', 'Test', 'MDE'], mde.tests.map((t) => [markdownCell(t.figure), String(t.n), t.test, mdeText(t.mde)]), new Set([1, 3]))];
}

function multilokoMarkdown(view: MultiLoKoView, baseline: MultiLoKoView | undefined, confidence: number, alpha: number, modelLabel: string | undefined, vsEnglish: LocalVsEnglish | undefined, mde?: BaselineMde): string[] {
  const h = view.headline;
  const lines = [`### MultiLoKo · ${markdownCell(modelLabel ?? view.model)}`, ''];
  if (h) {
    lines.push(
      ...table(
        ['Model', 'Average EM (↑)', 'Gap (↓)', 'MTE (↓)', 'Min EM (↑)', 'Max EM (↑)'],
        [
          [
            markdownCell(modelLabel ?? view.model),
            `${fixed(h.em, 2, 100)} ± ${fixed(h.em2se, 1, 100)}`,
            fixed(h.gap, 2, 100),
            `${fixed(h.mte, 2, 100)} ± ${fixed(h.mte2se, 1, 100)}`,
            `${fixed(h.min, 2, 100)} (${markdownCell(h.minLanguage)})`,
            `${fixed(h.max, 2, 100)} (${markdownCell(h.maxLanguage)})`,
          ],
        ],
        new Set([1, 2, 3, 4, 5]),
      ),
      '',
    );
    if (h.trials) lines.push(`Over ${trialsRange(h.trials.fewest_trials, h.trials.most_trials)} trials per item (× 100, average over ${h.trials.languages} local language${h.trials.languages === 1 ? '' : 's'}, 95% intervals): ${trialFiguresText(h.trials)}`, '');
  }
  // The F1-over-words mean per language, a column only when the file's items carry f1_words (older runs do not).
  const words = view.languages.some((r) => r.subset.f1Words);
  lines.push(
    ...table(
      ['Language', 'Items', `EM × 100 [${Math.round(confidence * 100)}% Wilson]`, ...(words ? ['F1 words × 100'] : [])],
      view.languages.map((r) => [markdownCell(r.language), String(r.subset.items.length), withInterval(r.subset.em, 2, 100), ...(words ? [fixed(r.subset.f1Words?.value, 2, 100)] : [])]),
      new Set([1, 2, 3]),
    ),
    '',
    ...errorCategoryLines(view),
    ...localVsEnglishLines(vsEnglish),
    ...flakyLines(view),
    '**Gates**',
    '',
    ...gateLines(view.gates, view.gatesNotApplied),
  );
  if (baseline) {
    const c = compareMultiLoKo(view.subsets, baseline.subsets, confidence);
    lines.push('', `**Against the baseline** (${markdownCell(baseline.model)}, items paired by id; EM × 100)`, '', ...changeLines(c.subsets, c.pooled, 100, 2, alpha));
    if (c.onlyCurrent.length || c.onlyBaseline.length) lines.push('', `Subsets in one run only: ${[...c.onlyCurrent, ...c.onlyBaseline].map(markdownCell).join(', ')}`);
  }
  lines.push(...mdeLines(mde));
  return lines;
}

/** The part of a run's results, against the baseline's when given. */
export function multilokoStepSummary(results: MultiLoKoResultsJson, baseline: MultiLoKoResultsJson | undefined, { confidence, alpha, modelLabel }: SectionOptions & { alpha: number }): string[] {
  const base = baseline ? multilokoView(baseline, confidence) : undefined;
  const vsEnglish = results.summary?.local_vs_english as LocalVsEnglish | undefined;
  return multilokoMarkdown(multilokoView(results, confidence), base, confidence, alpha, modelLabel, vsEnglish, baselineMde(results));
}
