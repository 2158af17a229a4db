// MultiLoKo against a baseline run and several runs side by side (`lokal compare`): EM per subset paired by id with
// the baseline gate's tests (report/compare.ts), the items that flipped, and the runs' table, text and HTML section.
import { subsetFamily, pairedFigure, type ItemScore } from '../../../../core/baseline/index.ts';
import { figureTable, differenceText } from '../../../../report/compareRuns.ts';
import { familyRows, flipsOf, pairById, type Comparison } from '../../../../report/compare.ts';
import { sideBySide } from '../../../../report/compareHtml.ts';
import { barChartSpec, renderChart } from '../../../../report/charts.ts';
import { html, raw } from '../../../../report/escape.ts';
import { comparisonTable } from '../../../../report/htmlParts.ts';
import type { FigureRow } from '../../../../report/labelledRun.ts';
import { fixed } from '../../../../report/numberText.ts';
import type { SectionRuns } from '../../../../report/section.ts';
import { runsEmChartData } from './reportCharts.ts';
import { multilokoView, type MultiLoKoItemView, type MultiLoKoSubset, type MultiLoKoView } from './reportView.ts';
import type { MultiLoKoResultsJson } from '../../resultsSchema.ts';

export interface MultiLoKoComparison {
  /** Per subset present in both runs (and, with translations, every subset pooled), Holm-adjusted with the pooled row. */
  subsets: Comparison[];
  /** Every local subset's items pooled (the headline's items), with several local subsets; in the Holm family. */
  pooled?: Comparison;
  onlyCurrent: string[];
  onlyBaseline: string[];
}

const itemShown = (i: MultiLoKoItemView) => (i.missing ? '(no answer)' : i.raw ?? i.prediction);

/** A question and its translations share the id; the source language tells questions of different languages apart. */
const sourceOf = (s: MultiLoKoSubset) => (s.direction === 'from-english' ? 'english' : s.language);

export function compareMultiLoKo(current: readonly MultiLoKoSubset[], baseline: readonly MultiLoKoSubset[], confidence = 0.95): MultiLoKoComparison {
  const base = new Map(baseline.map((s) => [s.key, s]));
  const compared = current.filter((s) => base.has(s.key) && s.items.length > 0);
  const family = subsetFamily(
    compared.map((s) => {
      const scores: ItemScore[] = s.items.map((i) => ({ id: i.id, cluster: `${sourceOf(s)}/${i.id}`, score: i.em }));
      return { figure: pairedFigure(s.key, `${s.name} EM`, scores, new Map(base.get(s.key)!.items.map((i) => [i.id, i.em]))), translated: s.translated };
    }),
    'EM',
  );
  const rows = familyRows(family, confidence).map((row) => {
    const s = compared.find((c) => c.key === row.key);
    return s ? { ...row, ...flipsOf(pairById(s.items, base.get(s.key)!.items).pairs, (i) => i.verdict, itemShown, (i) => i.subset) } : row;
  });
  const keys = new Set(current.map((s) => s.key));
  const pooled = rows.find((r) => r.key === 'pooled:local');
  return {
    subsets: rows.filter((r) => r !== pooled),
    ...(pooled ? { pooled } : {}),
    onlyCurrent: current.filter((s) => !base.has(s.key)).map((s) => s.key),
    onlyBaseline: baseline.filter((s) => !keys.has(s.key)).map((s) => s.key),
  };
}


/** compare.html's MultiLoKo section: the EM chart with a bar per run, the side-by-side table, each later run's tests. */
async function runsHtml(views: ReadonlyArray<MultiLoKoView | undefined>, rows: readonly FigureRow[], pooled: ReadonlyArray<Comparison | undefined>, tests: ReadonlyArray<MultiLoKoComparison | undefined>, labels: readonly string[]): Promise<string> {
  const labelled = views.flatMap((v, i) => (v ? [{ label: labels[i]!, view: v }] : []));
  const data = runsEmChartData(labelled);
  const chart = data.length
    ? await renderChart(
        barChartSpec(data, { title: 'MultiLoKo EM per language (local questions)', axis: 'EM × 100', domain: [0, 100], description: `Bar chart of exact match per language for ${labelled.length} runs with 95% Wilson intervals` }),
      )
    : undefined;
  const averageRow = html`<tr><td><em>average over languages</em></td><td class="num">${fixed(views[0]?.headline?.em, 2, 100)}</td>${views.slice(1).map(
    (v, j) => html`<td class="num">${fixed(v?.headline?.em, 2, 100)}</td><td class="num">${differenceText(pooled[j + 1], 2, 100)}${pooled[j + 1] ? ' pooled' : ''}</td>`,
  )}</tr>`;
  return html`<section id="multiloko"><h2>MultiLoKo</h2>
${chart ? html`<figure class="chart" id="chart-compare-em">${raw(chart)}<figcaption>EM × 100 per language, one bar per run; the black rule is the 95% Wilson interval.</figcaption></figure>` : ''}
<h3>EM × 100 per language</h3>
${sideBySide(rows, labels, 2, 100, 'compare-languages', averageRow)}
<p class="note">Δ: this run − #1 on the items both hold; p of McNemar's exact test, Holm-adjusted across the subsets compared (the pooled average's p is not adjusted). Red: a significant drop, green: a significant gain.</p>
${tests.map((t, i) => (t ? html`<h3>${labels[i]!} against ${labels[0]!}</h3>${comparisonTable(t.subsets, t.pooled, { scale: 100, digits: 2, unit: 'EM × 100' }, `compare-multiloko-${i + 1}`)}` : ''))}
</section>`.value;
}

/** `lokal compare`'s MultiLoKo part: EM per language of every run, each later run against the first (items paired by id). */
export function compareMultiLoKoRuns(results: ReadonlyArray<MultiLoKoResultsJson | undefined>, labels: readonly string[], confidence: number): SectionRuns {
  const views = results.map((r) => (r ? multilokoView(r, confidence) : undefined));
  const first = views[0];
  const tests = views.map((v, i) => (i > 0 && v && first ? compareMultiLoKo(v.subsets, first.subsets, confidence) : undefined));
  const pooled = tests.map((t) => t?.pooled);
  const languages = [...new Set(views.flatMap((v) => v?.languages.map((l) => l.language) ?? []))];
  const rows: FigureRow[] = languages.map((language) => {
    const subsets = views.map((v) => v?.languages.find((l) => l.language === language)?.subset);
    return {
      name: language,
      values: subsets.map((s) => s?.em),
      versusFirst: tests.map((t, i) => (subsets[i] ? t?.subsets.find((c) => c.key === subsets[i]!.key) : undefined)),
    };
  });
  const average = ['average', fixed(views[0]?.headline?.em, 2, 100), ...views.slice(1).flatMap((v, j) => [fixed(v?.headline?.em, 2, 100), differenceText(pooled[j + 1], 2, 100).replace(/^(.+)$/u, '$1 pooled')])];
  const text = [
    '',
    'MultiLoKo · EM × 100 per language (local questions) · Δ vs #1 on the items both runs hold, p of McNemar’s exact test, Holm-adjusted across subsets and the pooled figures as the baseline gate does (* p < 0.05)',
    ...figureTable(rows, labels, 2, 100, [average]),
  ];
  return { leftOut: [], shown: { rows, text, html: () => runsHtml(views, rows, pooled, tests, labels) } };
}
