// The error categories (src/metrics/errorCategory.ts) of a section's rows — MultiLoKo's languages, a groups-layout
// benchmark's groups — as one stacked bar each (inline SVG: shares of the row's items), with the counts in a table
// beside the chart for readers and tests.
import { ERROR_CATEGORIES, type ErrorCategory } from '../metrics/errorCategory.ts';
import { escapeHtml, html, raw, type Html } from './escape.ts';

/** One colour per category: green for correct, then from near-misses (blues) to plain wrong answers (reds). */
const ERROR_COLORS: Record<ErrorCategory, string> = {
  correct: '#3a8d4f',
  empty: '#9e9e9e',
  verbose: '#3b6ea8',
  truncated: '#8fb1d9',
  near: '#d0b13c',
  wrong_script: '#8e5ba8',
  wrong: '#c2453d',
};

const LABEL_WIDTH = 170;
const BAR_WIDTH = 460;
const ROW = 20;
const LEGEND = 26;

/** Where the section sits: its element ids' stem, what a row is, and whose items the rows count. */
export interface ErrorSectionPlace {
  id: string;
  rowLabel: string;
  items: string;
}

/** The chart and the table of counts; nothing when no row has categories. */
export function errorCategorySection(rows: ReadonlyArray<{ language: string; key: string; errors?: Record<ErrorCategory, number> }>, place: ErrorSectionPlace): Html {
  const shown = rows.filter((r): r is { language: string; key: string; errors: Record<ErrorCategory, number> } => r.errors !== undefined);
  if (shown.length === 0) return html``;
  const height = LEGEND + shown.length * ROW + 4;
  const width = LABEL_WIDTH + BAR_WIDTH + 10;
  let svg = `<svg viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="Stacked bars of error categories per ${place.rowLabel.toLowerCase()}" font-family="sans-serif" font-size="12">`;
  let x = 0;
  for (const c of ERROR_CATEGORIES) {
    svg += `<rect x="${x}" y="4" width="10" height="10" fill="${ERROR_COLORS[c]}"/><text x="${x + 14}" y="13">${c}</text>`;
    x += 24 + c.length * 7;
  }
  shown.forEach((r, i) => {
    const y = LEGEND + i * ROW;
    const total = ERROR_CATEGORIES.reduce((n, c) => n + r.errors[c], 0);
    svg += `<text x="${LABEL_WIDTH - 6}" y="${y + 13}" text-anchor="end">${escapeHtml(r.language)}</text>`;
    let left = LABEL_WIDTH;
    for (const c of ERROR_CATEGORIES) {
      const n = r.errors[c];
      if (n === 0 || total === 0) continue;
      const w = (BAR_WIDTH * n) / total;
      svg += `<rect x="${left.toFixed(2)}" y="${y + 2}" width="${w.toFixed(2)}" height="${ROW - 6}" fill="${ERROR_COLORS[c]}" data-category="${c}" data-count="${n}"><title>${escapeHtml(r.language)}: ${c} ${n} of ${total} (${((100 * n) / total).toFixed(1)}%)</title></rect>`;
      left += w;
    }
  });
  svg += '</svg>';
  const table = html`<table id="${place.id}-errors"><thead><tr><th>${place.rowLabel}</th><th class="num">Items</th>${ERROR_CATEGORIES.map((c) => html`<th class="num">${c}</th>`)}</tr></thead>
<tbody>${shown.map((r) => html`<tr><td>${r.language}</td><td class="num">${String(ERROR_CATEGORIES.reduce((n, c) => n + r.errors[c], 0))}</td>${ERROR_CATEGORIES.map((c) => html`<td class="num" data-key="errors.${r.key}.${c}">${String(r.errors[c])}</td>`)}</tr>\n`)}</tbody></table>`;
  return html`<h3>Error categories per ${place.rowLabel.toLowerCase()}</h3>
<figure class="chart" id="chart-${place.id}-errors">${raw(svg)}<figcaption>${place.items} by the first rule that holds: correct (EM 1), empty, verbose (a target inside the answer), truncated (the answer inside a target), near (edit similarity ≥ 0.7), wrong_script (mostly letters of another Unicode script than the first target's), wrong.</figcaption></figure>
${table}`;
}
