// What every benchmark's section of the HTML report is built of: numbers and figures with their intervals, the gates
// table, the comparison with a baseline (its table and the items that flipped) and the drill-down's change filter.
import type { Interval } from '../core/statistics/index.ts';
import { cellText } from './cellText.ts';
import type { Comparison, Flip } from './compare.ts';
import { html, raw, type Html } from './escape.ts';
import type { SectionGate } from './section.ts';
import { DASH, fixed, signed } from './numberText.ts';
import type { GateRow, Verdict } from './viewParts.ts';

function pValue(p: number | null): string {
  if (p === null) return DASH;
  return p < 0.001 ? '< 0.001' : p.toFixed(3);
}

/** A figure cell: the value, its interval in small type, and the exact numbers as data attributes (tests read them). */
export function figureCell(key: string, interval: Pick<Interval, 'value' | 'low' | 'high'> | undefined, scale: number, digits: number): Html {
  if (!interval) return html`<td class="num" data-key="${key}">${DASH}</td>`;
  return html`<td class="num" data-key="${key}" data-value="${String(interval.value)}" data-low="${String(interval.low)}" data-high="${String(interval.high)}">${fixed(interval.value, digits, scale)} <span class="ci">[${fixed(interval.low, digits - 1, scale)}, ${fixed(interval.high, digits - 1, scale)}]</span></td>`;
}

const OP_SYMBOL: Record<string, string> = { '>=': '≥', '<=': '≤', '>': '>', '<': '<' };

/** A section's gates: a row each (its id `<id>-<i>`, which the verdict line links to), the clauses not applied, the outcome. */
export function gatesTable(gates: readonly GateRow[], notApplied: readonly string[], passed: boolean | undefined, id: string): Html {
  if (gates.length === 0 && notApplied.length === 0) return html`<p class="note" id="${id}">No gates were set for this run (LOKAL_THRESHOLDS, LOKAL_BASELINE).</p>`;
  return html`<table class="gates" id="${id}">
<thead><tr><th>Outcome</th><th>Gate</th><th>Figure</th><th class="num">Value</th><th class="num">Bound</th><th>Message</th></tr></thead>
<tbody>${gates.map(
    (g, i) =>
      html`<tr id="${id}-${String(i)}" data-pass="${String(g.pass)}"><td class="${g.pass ? 'pass' : 'fail'}">${g.pass ? '✓ met' : '✗ missed'}</td><td><code>${g.gate}</code></td><td>${g.figure}</td><td class="num">${fixed(g.value, 4)}</td><td class="num">${OP_SYMBOL[g.op] ?? g.op} ${fixed(g.bound, 4)}</td><td>${g.message}</td></tr>\n`,
  )}</tbody></table>
${notApplied.length ? html`<p class="note">Not applied (named nothing in this run): ${notApplied.map((c, i) => html`${i ? ', ' : ''}<code>${c}</code>`)}</p>` : ''}
${passed === undefined ? '' : html`<p class="${passed ? 'pass' : 'fail'}">${passed ? 'All gates met.' : 'Some gates missed: the run exits 1.'}</p>`}`;
}

/** The gates as HtmlSection lists them for the verdict line, each with the id of its row in `gatesTable(…, id)`. */
export function sectionGates(gates: ReadonlyArray<Pick<GateRow, 'figure' | 'pass'>>, id: string): SectionGate[] {
  return gates.map((g, i) => ({ figure: g.figure, pass: g.pass, id: `${id}-${i}` }));
}

interface ComparisonFormat {
  scale: number;
  digits: number;
  unit: string;
}

export function comparisonTable(rows: readonly Comparison[], pooled: Comparison | undefined, format: ComparisonFormat, id: string): Html {
  const row = (c: Comparison, pooledRow: boolean) => {
    const significant = c.pAdjusted !== null ? c.pAdjusted < 0.05 : c.p < 0.05;
    const cls = significant ? (c.diff < 0 ? 'significant' : 'improved') : '';
    return html`<tr class="${cls}" data-key="${c.key}" data-diff="${String(c.diff)}" data-p="${String(c.p)}"${raw(c.pAdjusted === null ? '' : ` data-p-adjusted="${c.pAdjusted}"`)}>
<td>${pooledRow ? html`<em>${c.label}</em>` : c.label}</td><td class="num">${c.n}${c.onlyCurrent || c.onlyBaseline ? html` <span class="ci">(+${c.onlyCurrent} / −${c.onlyBaseline} unpaired)</span>` : ''}</td>
<td class="num">${fixed(c.baseline, format.digits, format.scale)}</td><td class="num">${fixed(c.current, format.digits, format.scale)}</td>
<td class="num">${signed(c.diff, format.digits, format.scale)} <span class="ci">[${fixed(c.low, format.digits - 1, format.scale)}, ${fixed(c.high, format.digits - 1, format.scale)}]</span></td>
<td>${c.test}</td><td class="num">${pValue(c.p)}</td><td class="num">${pooledRow ? DASH : pValue(c.pAdjusted)}</td><td class="num">${fixed(c.mde, format.digits, format.scale)}</td>
<td class="num">${c.discordant ? c.discordant.worse : DASH}</td><td class="num">${c.discordant ? c.discordant.better : DASH}</td></tr>\n`;
  };
  return html`<table class="comparison" id="${id}"><thead><tr><th>Figure</th><th class="num">Paired items</th><th class="num">Baseline</th><th class="num">This run</th><th class="num">Δ ${format.unit} [95% CI]</th><th>Test</th><th class="num">p</th><th class="num">p (Holm)</th><th class="num">MDE</th><th class="num">right → wrong</th><th class="num">wrong → right</th></tr></thead>
<tbody>${rows.map((r) => row(r, false))}${pooled ? row(pooled, true) : ''}</tbody></table>`;
}

/** The subsets (variants) only one side of a comparison has, as a note; nothing when both have the same. */
export function unpairedNote(onlyCurrent: readonly string[], onlyBaseline: readonly string[]): Html | '' {
  if (onlyCurrent.length === 0 && onlyBaseline.length === 0) return '';
  return html`<p class="note">Only in this run: ${onlyCurrent.join(', ') || DASH}. Only in the baseline: ${onlyBaseline.join(', ') || DASH}.</p>`;
}

/** The items that changed between right and wrong against the baseline, per group, each list one click away. */
export function flipLists(groups: ReadonlyArray<{ name: string; worse: readonly Flip[]; better: readonly Flip[] }>): Html {
  const list = (flips: readonly Flip[], title: string) =>
    flips.length === 0
      ? ''
      : html`<h4>${title} (${flips.length})</h4><table class="flips"><thead><tr><th>ID</th><th>Baseline</th><th>This run</th></tr></thead><tbody>${flips.map(
          (f) => html`<tr><td class="id">${f.id}</td><td>${cellText(f.baseline)}</td><td>${cellText(f.current)}</td></tr>`,
        )}</tbody></table>`;
  const shown = groups.filter((g) => g.worse.length || g.better.length);
  if (shown.length === 0) return html`<p class="note">No item changed between right and wrong.</p>`;
  return html`${shown.map(
    (g) =>
      html`<details class="flipped" data-subset="${g.name}"><summary>${g.name}: ${g.worse.length} right → wrong, ${g.better.length} wrong → right</summary>${list(g.worse, 'Right → wrong')}${list(g.better, 'Wrong → right')}</details>\n`,
  )}`;
}

/** The drill-down's filter by change against the baseline. */
export const CHANGE_OPTIONS: Array<[string, string]> = [
  ['worse', 'right → wrong'],
  ['better', 'wrong → right'],
  ['same', 'unchanged'],
  ['new', 'not in baseline'],
];

/** An item's change against the baseline: `worse`, `better`, `same`, or `new` (not in the baseline). */
export function change(current: Verdict, baseline: Verdict | undefined): string {
  if (baseline === undefined) return 'new';
  if (baseline === 'correct' && current !== 'correct') return 'worse';
  if (baseline !== 'correct' && current === 'correct') return 'better';
  return 'same';
}
