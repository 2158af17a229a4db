// `lokal compare` as one self-contained HTML file: the runs, each benchmark's section (its side-by-side table, a chart
// where it has one, and each later run's paired tests against the first). No script at all (the page's policy forbids any).
import { differenceText, type RunsComparison } from './compareRuns.ts';
import type { FigureRow, LabelledRun } from './labelledRun.ts';
import { html, raw, type Html } from './escape.ts';
import { htmlDocument } from './html.ts';
import { fixed } from './numberText.ts';


/** Each figure's value in every run and each later run's difference to the first, in a box that scrolls sideways. */
export function sideBySide(rows: readonly FigureRow[], labels: readonly string[], digits: number, scale: number, id: string, footer?: Html): Html {
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
  // Each section given has its line in <main> (empty where no run holds its results), its markup escaped already.
  const sections = await Promise.all(c.sections.map((s) => s.shown?.html()));
  const body = html`<header><h1>${title}</h1><p class="meta">${runs.length} runs; every later run is compared with #1 on the items both hold.</p></header>
<main>
<h2>Runs</h2>
<table id="runs"><thead><tr><th>Run</th><th>Read from</th></tr></thead><tbody>${runs.map((r, i) => html`<tr><td>${c.labels[i]!}</td><td><code>${r.source}</code></td></tr>`)}</tbody></table>
${c.leftOut.length ? html`<ul class="note" id="left-out">${c.leftOut.map((line) => html`<li>${line}</li>`)}</ul>` : ''}
${sections.map((section) => html`${raw(section ?? '')}\n`)}${(c.groups ?? []).map((g) => html`<section id="compare-${g.benchmark}" data-benchmark="${g.benchmark}"><h2>${g.title}</h2>
${sideBySide(g.rows, c.labels, 3, 1, `compare-${g.benchmark}-groups`)}
<p class="note">Δ on the first figure: this run − #1 on the items both hold, by the baseline gate's paired tests, Holm-adjusted across the groups and their pool.</p>
</section>`)}
</main>
<footer><p>Made by vitest-lokal (<code>lokal compare</code>); chart by Vega-Lite, rendered to SVG when this file was written. This file loads and runs nothing.</p></footer>`;
  const csp = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";
  return htmlDocument({ title, csp, body });
}
