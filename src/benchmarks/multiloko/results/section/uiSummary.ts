// MultiLoKo's Vitest UI summary: the leaderboard line, EM per language with its Wilson interval, F1 beside F1 words,
// the error categories, local vs English and the gates, with the EM chart per language.
import { emChart, emChartData } from './reportCharts.ts';
import { multilokoView, type MultiLoKoView } from './reportView.ts';
import { fixed, intervalText } from '../../../../report/numberText.ts';
import { gatesLine, svgAttachment, type UiSummary } from '../../../../report/summary.ts';
import { ERROR_CATEGORIES } from '../../../../metrics/errorCategory.ts';
import type { LocalVsEnglish } from '../localVsEnglish.ts';
import { formatMcNemarP, localVsEnglishRows, questionsLabel } from '../localVsEnglishTable.ts';
import type { MultiLoKoResultsJson } from '../../resultsSchema.ts';
import { flakyByLanguage } from '../flakyTable.ts';
import { trialFiguresText } from '../trialTable.ts';

/** `vsEnglish`: the results' summary.local_vs_english, one row per language as the terminal shows it. */
export function multilokoSummaryText(view: MultiLoKoView, vsEnglish?: LocalVsEnglish): string {
  const h = view.headline;
  const lines = [`MultiLoKo · ${view.model}`];
  lines.push(
    h
      ? `Leaderboard (EM × 100 over ${h.languages} local language${h.languages === 1 ? '' : 's'}): average EM ${fixed(h.em, 2, 100)} ± ${fixed(h.em2se, 1, 100)} · gap ${fixed(h.gap, 2, 100)} · MTE ${fixed(h.mte, 2, 100)} ± ${fixed(h.mte2se, 1, 100)} · min ${fixed(h.min, 2, 100)} (${h.minLanguage}) · max ${fixed(h.max, 2, 100)} (${h.maxLanguage}).`
      : 'Leaderboard: no local subset was scored.',
  );
  if (h?.trials) lines.push(`Over trials (× 100, average over ${h.trials.languages} local language${h.trials.languages === 1 ? '' : 's'}, 95% intervals): ${trialFiguresText(h.trials)}.`);
  const flaky = flakyByLanguage(view.languages.map((r) => ({ name: r.subset.name, language: r.language, items: r.subset.items })));
  // The items themselves carry `flaky` in their annotations, so the UI's search lists them.
  if (flaky.length) lines.push(`Flaky items (trials disagree; search "flaky"): ${flaky.map((f) => `${f.language} ${f.rows.length} of ${f.items}`).join(' · ')}.`);
  const languages = view.languages.filter((r) => r.subset.em);
  if (languages.length) lines.push(`EM × 100 per language [95% Wilson]: ${languages.map((r) => `${r.language} ${intervalText(r.subset.em!, 2, 100)}`).join(' · ')}.`);
  // F1 words beside F1 only when the file's items carry f1_words (older runs do not).
  const withWords = view.languages.filter((r) => r.subset.f1Words);
  if (withWords.length) lines.push(`F1 / F1 words × 100 per language: ${withWords.map((r) => `${r.language} ${fixed(r.subset.f1?.value, 2, 100)} / ${fixed(r.subset.f1Words!.value, 2, 100)}`).join(' · ')}.`);
  const withErrors = view.languages.filter((r) => r.subset.errors);
  if (withErrors.length) lines.push(`Error categories (items: ${ERROR_CATEGORIES.join('/')}): ${withErrors.map((r) => `${r.language} ${ERROR_CATEGORIES.map((c) => r.subset.errors![c]).join('/')}`).join(' · ')}.`);
  const pairs = localVsEnglishRows(vsEnglish);
  if (pairs.length) {
    const row = (r: (typeof pairs)[number]) => `${r.language} (${questionsLabel(r)}) ${[r.pair.both_right, r.pair.english_only, r.pair.local_only, r.pair.both_wrong].join('/')}, p ${formatMcNemarP(r.pair.mcnemar_p)}`;
    lines.push(`Local vs English (EM, questions paired by id: right in both / only English / only local / neither, McNemar p): ${pairs.map(row).join(' · ')}.`);
  }
  lines.push(gatesLine(view.gates));
  return lines.join('\n');
}

/** MultiLoKo's summary text and EM chart from its results (the file's shape, parsed or still in memory). */
export async function multilokoSummary(results: MultiLoKoResultsJson, confidence = 0.95): Promise<UiSummary> {
  const view = multilokoView(results, confidence);
  const attachment = svgAttachment(await emChart(emChartData(view, undefined)));
  const vsEnglish = results.summary?.local_vs_english as LocalVsEnglish | undefined;
  return { text: multilokoSummaryText(view, vsEnglish), ...(attachment ? { attachment } : {}) };
}
