// `lokal compare` as one self-contained HTML file: the runs, the side-by-side table, the EM chart with a bar per run,
// and each later run's paired tests against the first. No script at all (the page's policy forbids any).
import { barChartSpec, renderChart } from './charts.ts';
import { runsEmChartData } from './chartData.ts';
import { differenceText, type RunsComparison } from './compareRuns.ts';
import type { FigureRow, LabelledRun } from './labelledRun.ts';
import { escapeHtml, html, raw, type Html } from './escape.ts';
import { comparisonTable, htmlDocument } from './html.ts';

const DASH = '–';
const fixed = (v: number | null | undefined, digits: number, scale: number) => (v === null || v === undefined || !Number.isFinite(v) ? DASH : (v * scale).toFixed(digits));

function sideBySide(rows: readonly FigureRow[], labels: readonly string[], digits: number, scale: number, id: string, footer?: Html): Html {
  // In a box that scrolls sideways: ten runs' columns are wider than the page.
  return html`<div class="wide"><table id="${id}"><thead><tr><th></th><th class="num">${labels[0]!}</th>${labels.slice(1).map((l) => html`<th class="num">${l}</th><th class="num">Δ vs #1 (p)</th>`)}</tr></thead>
<tbody>${rows.map(
    (r) =>
      html`<tr data-row="${r.name}"><td>${r.name}</td>${r.values.map((v, i) => {
        const cell = html`<td class="num" data-run="${String(i + 1)}"${raw(v ? ` data-value="${v.value}"` : '')}>${fixed(v?.value, digits, scale)}${v ? html` <span class="ci">[${fixed(v.low, digits - 1, scale)}, ${fixed(v.high, digits - 1, scale)}]</span>` : ''}</td>`;
        if (i === 0) return cell;
        const c = r.versusFirst[i];
        const significant = c !== undefined && (c.pAdjusted ?? c.p) < 0.05;
        return html`${cell}<td class="num ${significant ? (c!.diff < 0 ? 'significant' : 'improved') : ''}">${differenceText(c, digits, scale)}</td>`;
      })}</tr>\n`,
  )}${footer ?? ''}</tbody></table></div>`;
}

export async function renderCompareHtml(runs: readonly LabelledRun[], c: RunsComparison, title = 'vitest-lokal · comparing runs'): Promise<string> {
  const m = c.multiloko;
  const views = m?.views.flatMap((v, i) => (v ? [{ label: c.labels[i]!, view: v }] : [])) ?? [];
  const data = runsEmChartData(views);
  const chart = data.length
    ? await renderChart(
        barChartSpec(data, { title: 'MultiLoKo EM per language (local questions)', axis: 'EM × 100', domain: [0, 100], description: `Bar chart of exact match per language for ${views.length} runs with 95% Wilson intervals` }),
      )
    : undefined;
  const averageRow = m
    ? html`<tr><td><em>average over languages</em></td><td class="num">${fixed(m.views[0]?.headline?.em, 2, 100)}</td>${m.views.slice(1).map(
        (v, j) => html`<td class="num">${fixed(v?.headline?.em, 2, 100)}</td><td class="num">${differenceText(m.pooled[j + 1], 2, 100)}${m.pooled[j + 1] ? ' pooled' : ''}</td>`,
      )}</tr>`
    : undefined;
  const body = html`<header><h1>${title}</h1><p class="meta">${runs.length} runs; every later run is compared with #1 on the items both hold.</p></header>
<main>
<h2>Runs</h2>
<table id="runs"><thead><tr><th>Run</th><th>Read from</th></tr></thead><tbody>${runs.map((r, i) => html`<tr><td>${c.labels[i]!}</td><td><code>${r.source}</code></td></tr>`)}</tbody></table>
${c.leftOut.length ? html`<ul class="note" id="left-out">${c.leftOut.map((line) => html`<li>${line}</li>`)}</ul>` : ''}
${m ? html`<section id="multiloko"><h2>MultiLoKo</h2>
${chart ? html`<figure class="chart" id="chart-compare-em">${raw(chart)}<figcaption>EM × 100 per language, one bar per run; the black rule is the 95% Wilson interval.</figcaption></figure>` : ''}
<h3>EM × 100 per language</h3>
${sideBySide(m.languages, c.labels, 2, 100, 'compare-languages', averageRow)}
<p class="note">Δ: this run − #1 on the items both hold; p of McNemar's exact test, Holm-adjusted across the subsets compared (the pooled average's p is not adjusted). Red: a significant drop, green: a significant gain.</p>
${m.tests.map((t, i) => (t ? html`<h3>${c.labels[i]!} against ${c.labels[0]!}</h3>${comparisonTable(t.subsets, t.pooled, { scale: 100, digits: 2, unit: 'EM × 100' }, `compare-multiloko-${i + 1}`)}` : ''))}
</section>` : ''}
${c.kalahi ? html`<section id="kalahi"><h2>Kalahi</h2>
${sideBySide(c.kalahi.figures, c.labels, 3, 1, 'compare-kalahi')}
${c.kalahi.tests.map((t, i) => (t ? html`<h3>${c.labels[i]!} against ${c.labels[0]!}</h3>${comparisonTable(t.rows, undefined, { scale: 1, digits: 3, unit: '' }, `compare-kalahi-${i + 1}`)}` : ''))}
</section>` : ''}
${(c.groups ?? []).map((g) => html`<section id="compare-${g.benchmark}" data-benchmark="${g.benchmark}"><h2>${g.title}</h2>
${sideBySide(g.rows, c.labels, 3, 1, `compare-${g.benchmark}-groups`)}
<p class="note">Δ on the first figure: this run − #1 on the items both hold, by the baseline gate's paired tests, Holm-adjusted across the groups and their pool.</p>
</section>`)}
</main>
<footer><p>Made by vitest-lokal (<code>lokal compare</code>); chart by Vega-Lite, rendered to SVG when this file was written. This file loads and runs nothing.</p></footer>`;
  const csp = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";
  return htmlDocument({ title, csp, body });
}
