// The HTML report: one self-contained file (inline CSS, SVG charts rendered at build time, one small inline script for
// the item search) made from a run's results files, optionally against a baseline run.
import { localVsEnglishSection } from './localVsEnglishHtml.ts';
import { localVsEnglishView } from './localVsEnglishView.ts';
import { createHash } from 'node:crypto';
import type { Interval } from '../core/statistics/index.ts';
import { SCRIPT, STYLE } from './assets.ts';
import { effectsChart, effectsChartData, emChart, emChartData, kalahiChart, kalahiChartData } from './chartData.ts';
import { compareKalahi, compareMultiLoKo, type Comparison, type Flip, type KalahiComparison, type MultiLoKoComparison } from './compare.ts';
import { cleanText, escapeHtml, html, raw, type Html } from './escape.ts';
import { fingerprintBlock } from './fingerprintHtml.ts';
import { KALAHI_METRICS, kalahiView, type KalahiChoice, type KalahiFigures, type KalahiPrompt, type KalahiVariantView, type KalahiView } from './kalahi.ts';
import { multilokoView, type Effect, type GateRow, type MultiLoKoItemView, type MultiLoKoView, type Verdict } from './multiloko.ts';
import type { ReportInput } from './types.ts';
import { cellText } from './cellText.ts';
export { COMPRESSED_ROWS_ABOVE } from './drill.ts';
import { errorCategorySection } from './errorChart.ts';
import { ERROR_CATEGORIES } from '../metrics/errorCategory.ts';
import { drillRows, filterBar, promptDetails, VERDICT_MARK, VERDICT_OPTIONS, type DrillRow, type SharedStart } from './drill.ts';
import { groupsSection, sectionId } from './groupsHtml.ts';

const DASH = '–';

/** `v` × scale with fixed digits, or a dash. */
function fixed(v: number | null | undefined, digits: number, scale = 1): string {
  return v === null || v === undefined || !Number.isFinite(v) ? DASH : (v * scale).toFixed(digits);
}

function signed(v: number | null | undefined, digits: number, scale = 1): string {
  const s = fixed(v, digits, scale);
  return v !== null && v !== undefined && v > 0 ? `+${s}` : s;
}

function pValue(p: number | null): string {
  if (p === null) return DASH;
  return p < 0.001 ? '< 0.001' : p.toFixed(3);
}

/** A figure cell: the value, its interval in small type, and the exact numbers as data attributes (tests read them). */
function figureCell(key: string, interval: Interval | Effect | undefined, scale: number, digits: number): Html {
  if (!interval) return html`<td class="num" data-key="${key}">${DASH}</td>`;
  return html`<td class="num" data-key="${key}" data-value="${String(interval.value)}" data-low="${String(interval.low)}" data-high="${String(interval.high)}">${fixed(interval.value, digits, scale)} <span class="ci">[${fixed(interval.low, digits - 1, scale)}, ${fixed(interval.high, digits - 1, scale)}]</span></td>`;
}


const OP_SYMBOL: Record<string, string> = { '>=': '≥', '<=': '≤', '>': '>', '<': '<' };

function gatesTable(gates: readonly GateRow[], notApplied: readonly string[], passed: boolean | undefined, id: string): Html {
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

export interface ComparisonFormat {
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

function flipLists(groups: ReadonlyArray<{ name: string; worse: readonly Flip[]; better: readonly Flip[] }>): Html {
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

const CHANGE_OPTIONS: Array<[string, string]> = [
  ['worse', 'right → wrong'],
  ['better', 'wrong → right'],
  ['same', 'unchanged'],
  ['new', 'not in baseline'],
];

function change(current: Verdict, baseline: Verdict | undefined): string {
  if (baseline === undefined) return 'new';
  if (baseline === 'correct' && current !== 'correct') return 'worse';
  if (baseline !== 'correct' && current === 'correct') return 'better';
  return 'same';
}

function multilokoScores(s: Record<string, number>): string {
  const parts: string[] = [];
  if (s.em !== undefined) parts.push(`EM ${s.em}`);
  if (s.f1 !== undefined) parts.push(`F1 ${s.f1.toFixed(2)}`);
  if (s.f1_words !== undefined) parts.push(`F1 words ${s.f1_words.toFixed(2)}`);
  if (s.chrf !== undefined) parts.push(`chrF ${s.chrf.toFixed(1)}`);
  if (s.bleu !== undefined) parts.push(`BLEU ${s.bleu.toFixed(1)}`);
  if (s.edit_similarity !== undefined) parts.push(`edit sim ${s.edit_similarity.toFixed(2)}`);
  if (s.edit_distance !== undefined) parts.push(`edit dist ${s.edit_distance}`);
  return parts.join(' · ');
}

// The drill-down has a row per item (tens of thousands in a full run): its cells are built as plain strings with
// escapeHtml on every dataset and model value, rather than through the html tag.
function multilokoOutput(i: MultiLoKoItemView, shared: SharedStart | undefined): string {
  if (i.missing) return '<span class="note">(no answer)</span>';
  let out = '';
  // Each text capped (cellText): the report stays bounded whatever a model replied.
  if (i.raw !== undefined) out += `<span class="label">raw output</span> ${escapeHtml(cellText(i.raw))}\n`;
  if (i.answer !== undefined && i.answer !== i.raw) out += `<span class="label">extracted</span> ${escapeHtml(cellText(i.answer))}\n`;
  out += `<span class="label">normalised</span> ${i.prediction === '' ? '<span class="note">(empty)</span>' : escapeHtml(cellText(i.prediction))}`;
  if (i.prompt !== undefined) out += `\n${promptDetails(i.prompt, shared)}`;
  return out;
}

/** Below this many characters a shared start is left in each prompt: the reference would cost more than it saves. */
const SHARED_START_MIN = 200;

/**
 * Per subset, the start every recorded prompt text shares (the few-shot demonstrations of a base prompt, the chat
 * template's head): 37,750 prompts of 1,400 characters would make the report 70 MB; each is written once instead.
 */
function sharedPromptStarts(view: MultiLoKoView): Map<string, SharedStart> {
  const out = new Map<string, SharedStart>();
  for (const s of view.subsets) {
    const texts = s.items.flatMap((i) => (i.prompt && 'text' in i.prompt ? [i.prompt.text] : []));
    if (texts.length < 2) continue;
    let length = texts[0]!.length;
    for (const t of texts) {
      let k = 0;
      while (k < length && k < t.length && t.charCodeAt(k) === texts[0]!.charCodeAt(k)) k++;
      length = k;
      if (length < SHARED_START_MIN) break;
    }
    // Never half a surrogate pair.
    const code = texts[0]!.charCodeAt(length - 1);
    if (code >= 0xd800 && code <= 0xdbff) length--;
    if (length >= SHARED_START_MIN) out.set(s.key, { index: out.size, text: texts[0]!.slice(0, length) });
  }
  return out;
}

function promptPrefixes(prefixes: ReadonlyMap<string, SharedStart>): Html {
  return raw([...prefixes.values()].map((p) => `<template class="prompt-start" data-start="${p.index}">${escapeHtml(cellText(p.text))}</template>`).join(''));
}

function multilokoDrill(view: MultiLoKoView, baseline: MultiLoKoView | undefined): Html {
  const items = view.subsets.flatMap((s) => s.items);
  const withQuestion = items.some((i) => i.question !== undefined);
  const withError = items.some((i) => i.error !== undefined);
  const base = new Map<string, MultiLoKoItemView>();
  for (const s of baseline?.subsets ?? []) for (const i of s.items) base.set(`${s.key}\u0000${i.id}`, i);
  const names = new Map(view.subsets.map((s) => [s.key, s.name]));
  const filters = [
    { name: 'subset', all: 'all subsets', options: view.subsets.map((s): [string, string] => [s.key, `${s.name} (${s.items.length})`]) },
    { name: 'verdict', all: 'any verdict', options: VERDICT_OPTIONS },
    ...(withError ? [{ name: 'error', all: 'any error category', options: ERROR_CATEGORIES.map((c): [string, string] => [c, `${c} (${items.filter((i) => i.error === c).length})`]) }] : []),
    ...(baseline ? [{ name: 'change', all: 'any change vs baseline', options: CHANGE_OPTIONS }] : []),
  ];
  const e = escapeHtml;
  const prefixes = sharedPromptStarts(view);
  const rows: DrillRow[] = [];
  for (const i of items) {
    const b = base.get(`${i.subset}\u0000${i.id}`);
    const changed = baseline ? change(i.verdict, b?.verdict) : undefined;
    let row = `<tr data-subset="${e(i.subset)}" data-verdict="${e(i.verdict)}"${changed ? ` data-change="${changed}"` : ''}><td>${e(names.get(i.subset))}</td><td class="id">${e(i.id)}</td>`;
    if (withQuestion) row += `<td>${e(i.question ?? '')}</td>`;
    row += `<td>${e(i.targets.join('\n'))}</td><td>${multilokoOutput(i, prefixes.get(i.subset))}</td><td class="scores">${e(multilokoScores(i.scores))}</td><td class="verdict">${e(VERDICT_MARK[i.verdict])}${i.error && i.error !== 'correct' ? `\n<span class="note">${e(i.error)}</span>` : ''}</td>`;
    if (baseline) row += `<td>${b ? `${e(VERDICT_MARK[b.verdict])}\n${e(b.missing ? '(no answer)' : cellText(b.raw ?? b.prediction))}` : '<span class="note">not in baseline</span>'}</td>`;
    rows.push({ filters: { subset: i.subset, verdict: i.verdict, ...(i.error ? { error: i.error } : {}), ...(changed ? { change: changed } : {}) }, html: `${row}</tr>` });
  }
  return html`<section class="drill" data-drill id="multiloko-items"><h3>Items</h3>
${withQuestion ? '' : html`<p class="note">The results file holds no question texts: items are listed by id. Targets and the scored answer are eval.py's normalised strings.</p>`}
${filterBar('id, question, targets, answer…', filters)}
<table class="items"><thead><tr><th>Subset</th><th>ID</th>${withQuestion ? html`<th>Question</th>` : ''}<th>Targets</th><th>Output</th><th>Metrics</th><th>Verdict</th>${baseline ? html`<th>Baseline</th>` : ''}</tr></thead>
<tbody></tbody></table>${drillRows(rows)}${promptPrefixes(prefixes)}</section>`;
}

function effectCell(key: string, e: Effect | undefined): Html {
  return figureCell(key, e, 100, 2);
}

function multilokoSection(view: MultiLoKoView, baseline: MultiLoKoView | undefined, comparison: MultiLoKoComparison | undefined, charts: { em?: string; effects?: string }, fingerprint: Html, modelLabel: string | undefined): Html {
  const h = view.headline;
  const local = view.languages;
  const anyEffect = local.some((r) => r.mte.human || r.mte.machine || r.le.human || r.le.machine);
  const leaderboard = h
    ? html`<table class="leaderboard" id="multiloko-leaderboard"><thead><tr><th>Model</th><th class="num">Average EM (↑)</th><th class="num">Gap (↓)</th><th class="num">MTE (↓)</th><th class="num">Min EM (↑)</th><th class="num">Max EM (↑)</th></tr></thead>
<tbody><tr><td>${modelLabel ?? view.model}</td><td class="num" data-key="headline.em" data-value="${String(h.em)}">${fixed(h.em, 2, 100)} ± ${h.em2se === null ? DASH : fixed(h.em2se, 1, 100)}</td><td class="num" data-key="headline.gap" data-value="${String(h.gap)}">${fixed(h.gap, 2, 100)}</td><td class="num" data-key="headline.mte">${fixed(h.mte, 2, 100)} ± ${h.mte2se === null ? DASH : fixed(h.mte2se, 1, 100)}</td><td class="num" data-key="headline.min">${fixed(h.min, 2, 100)} <span class="ci">${h.minLanguage}</span></td><td class="num" data-key="headline.max">${fixed(h.max, 2, 100)} <span class="ci">${h.maxLanguage}</span></td></tr></tbody></table>
<p class="note">EM × 100 over ${h.languages} local language${h.languages === 1 ? '' : 's'}; ± is 2 standard errors across languages (the official leaderboard's); MTE from human translations.${h.fromSummary ? '' : ' (Computed from the item records: the file has no summary.)'}</p>`
    : html`<p class="note">No local subset was scored: no leaderboard row.</p>`;
  const languageTable = html`<table id="multiloko-languages"><thead><tr><th>Language</th><th class="num">Items</th><th class="num">EM [95% Wilson]</th><th class="num">MTE human</th><th class="num">MTE machine</th><th class="num">LE human</th><th class="num">LE machine</th></tr></thead>
<tbody>${local.map(
    (r) =>
      html`<tr><td>${r.language}</td><td class="num">${r.subset.items.length}${r.subset.missing ? html` <span class="ci">(${r.subset.missing} ∅)</span>` : ''}</td>${figureCell(`em.${r.subset.key}`, r.subset.em, 100, 2)}${effectCell(`mte.human.${r.language}`, r.mte.human)}${effectCell(`mte.machine.${r.language}`, r.mte.machine)}${effectCell(`le.human.${r.language}`, r.le.human)}${effectCell(`le.machine.${r.language}`, r.le.machine)}</tr>\n`,
  )}</tbody></table>
<p class="note">× 100. MTE (mother tongue effect) = EM on the local questions − EM on the same questions translated into English; LE (locality effect) = EM on the local questions − EM on English-sourced questions translated into the language. Their intervals: the paired differences' normal interval when both files hold the same ids, else two independent proportions.</p>`;
  // F1 over word segments beside eval.py's F1, where the file's items carry it.
  const words = view.subsets.some((s) => s.f1Words);
  const subsetTable = html`<table id="multiloko-subsets"><thead><tr><th>Subset</th><th class="num">Items</th><th class="num">Missing</th><th class="num">EM [95% Wilson]</th><th class="num">F1 [95% quasi-Wilson]</th>${words ? html`<th class="num">F1 words [95% quasi-Wilson]</th>` : ''}<th class="num">chrF [95% quasi-Wilson]</th></tr></thead>
<tbody>${view.subsets.map(
    (s) =>
      html`<tr><td>${s.name}</td><td class="num">${s.items.length}</td><td class="num">${s.missing}</td>${figureCell(`subset.em.${s.key}`, s.em, 100, 2)}${figureCell(`subset.f1.${s.key}`, s.f1, 100, 2)}${words ? figureCell(`subset.f1_words.${s.key}`, s.f1Words, 100, 2) : ''}${figureCell(`subset.chrf.${s.key}`, s.chrf, 1, 2)}</tr>\n`,
  )}</tbody></table>
${words ? html`<p class="note">F1 words: eval.py's token F1 over the words ICU finds in the text's language (Intl.Segmenter), not over whitespace tokens; not an official figure. It differs from F1 in scripts written without spaces.</p>` : ''}`;
  return html`<section id="multiloko"><h2>MultiLoKo</h2>
<p class="meta">Model <strong>${view.model}</strong>${view.split ? html` · split <code>${view.split}</code>` : ''} · ${view.subsets.length} subsets · ${view.subsets.reduce((n, s) => n + s.items.length, 0)} items${baseline ? html` · baseline <strong>${baseline.model}</strong>` : ''}</p>
<h3>Leaderboard</h3>${leaderboard}
<h3>EM per language</h3>
${charts.em ? html`<figure class="chart" id="chart-multiloko-em">${raw(charts.em)}<figcaption>EM × 100 of each language's local questions; the black rule is the 95% Wilson interval from the per-item EMs${baseline ? '; grey: the baseline' : ''}.</figcaption></figure>` : ''}
${languageTable}
${charts.effects && anyEffect ? html`<figure class="chart" id="chart-multiloko-effects">${raw(charts.effects)}<figcaption>MTE and LE × 100 per language with 95% intervals (lower is better: a positive effect means the model does worse on the other side).</figcaption></figure>` : ''}
${localVsEnglishSection(localVsEnglishView(view.subsets))}
${errorCategorySection(local.map((r) => ({ language: r.language, key: r.subset.key, ...(r.subset.errors ? { errors: r.subset.errors } : {}) })))}
<h3>Every subset</h3>${subsetTable}
<h3>Gates</h3>${gatesTable(view.gates, view.gatesNotApplied, view.gatesPassed, 'multiloko-gates')}
${fingerprint}
${comparison ? multilokoComparisonBlock(comparison, view) : ''}
${multilokoDrill(view, baseline)}
</section>`;
}

function multilokoComparisonBlock(c: MultiLoKoComparison, view: MultiLoKoView): Html {
  const names = new Map(view.subsets.map((s) => [s.key, s.name]));
  return html`<section id="multiloko-comparison"><h3>Against the baseline</h3>
<p class="note">Items paired by id within each subset: the baseline gate's own tests. Δ = this run − baseline (EM × 100) with its 95% interval; McNemar's exact test on the items that changed (a paired cluster bootstrap where a question and its translations are pooled); p (Holm) adjusts across the subsets and pooled figures compared, as the gate does. MDE: the smallest true change this many items detect with 80% power at α/family — a difference smaller than it is "too few items to tell". Red rows: a significant drop; green: a significant gain.</p>
${comparisonTable(c.subsets, c.pooled, { scale: 100, digits: 2, unit: '× 100' }, 'multiloko-comparison-table')}
${c.onlyCurrent.length || c.onlyBaseline.length ? html`<p class="note">Only in this run: ${c.onlyCurrent.join(', ') || DASH}. Only in the baseline: ${c.onlyBaseline.join(', ') || DASH}.</p>` : ''}
<h4>Flipped items</h4>${flipLists(c.subsets.map((r) => ({ name: names.get(r.key) ?? r.key, worse: r.worse, better: r.better })))}</section>`;
}

function kalahiMcTable(v: KalahiVariantView): Html {
  const row = (name: string, f: KalahiFigures, key: string) =>
    f.mc
      ? html`<tr><td>${name}</td><td class="num">${f.mc.n}</td>${figureCell(`kalahi.${key}.mc1`, f.mc.mc1, 1, 4)}${figureCell(`kalahi.${key}.mc2`, f.mc.mc2, 1, 4)}${figureCell(`kalahi.${key}.mc2_normalised`, f.mc.mc2_normalised, 1, 4)}${figureCell(`kalahi.${key}.mc3`, f.mc.mc3, 1, 4)}</tr>\n`
      : '';
  if (!v.overall.mc) return html`<p class="note">Multiple choice was not run${v.tasks.length ? html` (tasks: ${v.tasks.join(', ')})` : ''}.</p>`;
  return html`<table class="kalahi-mc" id="kalahi-${v.key}-mc"><thead><tr><th>Multiple choice</th><th class="num">Prompts</th><th class="num">MC1 [95% Wilson]</th><th class="num">MC2 [95% quasi-Wilson]</th><th class="num">MC2 (normalised) [95% quasi-Wilson]</th><th class="num">MC3 [95% quasi-Wilson]</th></tr></thead>
<tbody>${row('all', v.overall, `${v.key}.all`)}${v.categories.map((c) => row(c.name, c.figures, `${v.key}.${c.name}`))}</tbody></table>`;
}

function kalahiGenerationTable(v: KalahiVariantView): Html {
  if (!v.overall.generation) return html`<p class="note">Generation was not run.</p>`;
  const label = (metric: string, text: string) => (metric === 'chrf' && v.chrfLabel && v.chrfLabel !== 'chrF' ? `${text} (${v.chrfLabel})` : text);
  const row = (name: string, f: KalahiFigures, key: string) =>
    f.generation
      ? html`<tr><td>${name}</td><td class="num">${f.generation.scored}${f.generation.skipped || f.generation.failed ? html` <span class="ci">(${f.generation.skipped} skipped, ${f.generation.failed} failed)</span>` : ''}</td>${KALAHI_METRICS.map(([m]) => figureCell(`kalahi.${key}.${m}`, f.generation!.acc[m], 1, 4))}</tr>\n`
      : '';
  return html`<table class="kalahi-generation" id="kalahi-${v.key}-generation"><thead><tr><th>Generation (acc) [95% Wilson]</th><th class="num">Replies</th>${KALAHI_METRICS.map(([m, text]) => html`<th class="num">${label(m, text)}</th>`)}</tr></thead>
<tbody>${row('all', v.overall, `${v.key}.all`)}${v.categories.map((c) => row(c.name, c.figures, `${v.key}.${c.name}`))}</tbody></table>
${v.notComputed.length ? html`<p class="note">Not computed: ${v.notComputed.map((n, i) => html`${i ? '; ' : ''}${n.metric} (${n.reason})`)}.</p>` : ''}`;
}

function kalahiScores(p: KalahiPrompt): Html {
  const mc = p.mc ? `MC1 ${fixed(p.mc.mc1, 0)} · MC2 ${fixed(p.mc.mc2, 4)} · MC2n ${fixed(p.mc.mc2_normalised, 3)} · MC3 ${fixed(p.mc.mc3, 3)}` : '';
  const gen = KALAHI_METRICS.filter(([m]) => p.acc[m] !== undefined)
    .map(([m, label]) => `${label} ${p.acc[m]}`)
    .join(' · ');
  return html`${mc}${mc && gen ? '\n' : ''}${gen ? `acc: ${gen}` : ''}`;
}

/** Every answer scored as the reply, one click away: log-probability, byte-normalised score, its normalised probability. */
function kalahiChoicesTable(choices: readonly KalahiChoice[]): Html {
  if (choices.length === 0) return html``;
  return html`<details class="choices"><summary>${choices.length} answers scored</summary><table class="choices"><thead><tr><th>Answer</th><th></th><th class="num">log p</th><th class="num">score</th><th class="num">probability</th></tr></thead><tbody>${choices.map(
    (c) =>
      html`<tr data-kind="${c.kind}"${raw(c.chosen ? ' data-chosen="true"' : '')}${raw(c.best ? ' data-best="true"' : '')}><td>${cellText(c.text)}</td><td><span class="label">${c.kind}${c.best ? ' · best' : ''}${c.chosen ? ' · chosen' : ''}</span></td><td class="num">${fixed(c.logprob, 3)}</td><td class="num">${fixed(c.score, 4)}</td><td class="num" data-probability="${String(c.probability)}">${fixed(c.probability, 3)}</td></tr>`,
  )}</tbody></table></details>`;
}

function kalahiDrill(view: KalahiView, baseline: KalahiView | undefined): Html {
  const prompts = view.variants.flatMap((v) => v.prompts);
  const withPrompt = prompts.some((p) => p.prompt !== undefined);
  const base = new Map<string, KalahiPrompt>();
  for (const v of baseline?.variants ?? []) for (const p of v.prompts) base.set(`${v.key}\u0000${p.id}`, p);
  const categories = [...new Set(prompts.map((p) => p.category))];
  const filters = [
    { name: 'subset', all: 'all variants', options: view.variants.map((v): [string, string] => [v.key, `${v.key} (${v.prompts.length})`]) },
    { name: 'category', all: 'all categories', options: categories.map((c): [string, string] => [c, c]) },
    { name: 'verdict', all: 'any verdict', options: VERDICT_OPTIONS },
    ...(baseline ? [{ name: 'change', all: 'any change vs baseline', options: CHANGE_OPTIONS }] : []),
  ];
  const rows = prompts.map((p) => {
    const b = base.get(`${p.variant}\u0000${p.id}`);
    const changed = baseline ? change(p.verdict, b?.verdict) : undefined;
    const reply = p.response === undefined ? '' : p.response === '' ? html`<span class="note">(empty reply${p.generationReason ? `: ${p.generationReason}` : ''})</span>` : cellText(p.response);
    const preferred = p.preferred ? html`\n<span class="label">prefers ${p.preferred.kind}${p.preferred.best ? ' (best)' : ''}</span> ${p.preferred.text}` : '';
    const best = p.choices.find((c) => c.best);
    const bestLine = best && !p.preferred?.best ? html`\n<span class="label">best answer</span> ${best.text}` : '';
    const letter = p.letter ? html`\n<span class="label">letter reply</span> ${cellText(p.letter.response)}\n<span class="label">chose</span> ${p.letter.chosen ?? '(no letter)'} <span class="label">best</span> ${p.letter.answer}` : '';
    const filters = { subset: p.variant, category: p.category, verdict: p.verdict, ...(changed ? { change: changed } : {}) };
    const row = html`<tr data-subset="${p.variant}" data-category="${p.category}" data-verdict="${p.verdict}"${raw(changed ? ` data-change="${changed}"` : '')}><td>${p.variant}</td><td class="id">${p.id}</td><td>${p.category} · ${p.topic}</td>${
      withPrompt ? html`<td>${cellText(p.prompt ?? '')}</td>` : ''
    }<td>${reply}${preferred}${bestLine}${letter}${kalahiChoicesTable(p.choices)}</td><td class="scores">${kalahiScores(p)}</td><td class="verdict" title="${p.verdictBasis}">${VERDICT_MARK[p.verdict]} <span class="ci">${p.verdictBasis}</span></td>${
      baseline ? html`<td>${b ? html`${VERDICT_MARK[b.verdict]}\n${cellText(b.response ?? '')}` : html`<span class="note">not in baseline</span>`}</td>` : ''
    }</tr>`;
    return { filters, row };
  });
  return html`<section class="drill" data-drill id="kalahi-items"><h3>Prompts</h3>
<p class="note">A prompt is right or wrong by MC1 (its best answer scored highest); a run without multiple choice (replay) is judged by the first generation metric computed.</p>
${filterBar('id, category, reply…', filters)}
<table class="items"><thead><tr><th>Variant</th><th>ID</th><th>Category · topic</th>${withPrompt ? html`<th>Prompt</th>` : ''}<th>Reply / preferred answer</th><th>Metrics</th><th>Verdict</th>${baseline ? html`<th>Baseline</th>` : ''}</tr></thead>
<tbody></tbody></table>${drillRows(rows.map((r) => ({ filters: r.filters, html: r.row.value })))}</section>`;
}

function kalahiSection(view: KalahiView, baseline: KalahiView | undefined, comparison: KalahiComparison | undefined, chart: string | undefined, fingerprint: Html): Html {
  return html`<section id="kalahi"><h2>Kalahi</h2>
${chart ? html`<figure class="chart" id="chart-kalahi">${raw(chart)}<figcaption>Per variant: MC1 and each generation metric's acc (95% Wilson), MC2 (normalised) (95% quasi-Wilson interval over prompts).</figcaption></figure>` : ''}
${view.variants.map(
  (v) => html`<h3 id="kalahi-${v.key}">${v.key}</h3>
<p class="meta">Model <strong>${v.model}</strong> · ${v.prompts.length}${v.total !== undefined ? ` of ${v.total}` : ''} prompts${v.tasks.length ? ` · tasks ${v.tasks.join(', ')}` : ''}</p>
${kalahiMcTable(v)}${kalahiGenerationTable(v)}`,
)}
<p class="note">MC2 is the reference code's (exp of already exponentiated scores, ≈ 0.5 for every model); MC2 (normalised) is Σ relevant / Σ all scores, the paper's definition.</p>
<h3>Gates</h3>${gatesTable(view.gates, view.gatesNotApplied, view.gatesPassed, 'kalahi-gates')}
${fingerprint}
${comparison ? kalahiComparisonBlock(comparison) : ''}
${kalahiDrill(view, baseline)}
</section>`;
}

function kalahiComparisonBlock(c: KalahiComparison): Html {
  return html`<section id="kalahi-comparison"><h3>Against the baseline</h3>
<p class="note">Prompts paired by prompt variation id, the variations of one prompt one cluster: the baseline gate's own tests. McNemar's exact test for MC1 and the acc columns where prompts are independent, a paired cluster bootstrap otherwise (MC2 always); p (Holm) adjusts MC1 and MC2 together, as the gate does, and the acc columns among themselves. MDE: the smallest true change these prompts detect with 80% power at α/family.</p>
${comparisonTable(c.rows, undefined, { scale: 1, digits: 4, unit: '' }, 'kalahi-comparison-table')}
${c.onlyCurrent.length || c.onlyBaseline.length ? html`<p class="note">Only in this run: ${c.onlyCurrent.join(', ') || DASH}. Only in the baseline: ${c.onlyBaseline.join(', ') || DASH}.</p>` : ''}
<h4>Flipped prompts</h4>${flipLists(c.flips.map((f) => ({ name: f.variant, worse: f.worse, better: f.better })))}</section>`;
}

/** Groups an incomplete results file names (`missing_subsets`), or none. */
function missingGroups(results: unknown): string[] {
  const value = results as { complete?: unknown; missing_subsets?: unknown } | undefined;
  if (value?.complete !== false) return [];
  return Array.isArray(value.missing_subsets) ? value.missing_subsets.map(String) : ['(not named)'];
}

/**
 * The run's verdict in one line at the top: incomplete (which groups), N gates missed (each linked to its row), all
 * gates met, or no gates set.
 */
function verdictBlock(input: ReportInput, ml: MultiLoKoView | undefined, ka: KalahiView | undefined): Html {
  const others = input.others ?? [];
  const missing = [...missingGroups(input.multiloko).map((g) => `MultiLoKo ${g}`), ...missingGroups(input.kalahi).map((g) => `Kalahi ${g}`), ...others.flatMap((r) => missingGroups(r).map((g) => `${r.title} ${g}`))];
  const gates = [
    ...(ml?.gates ?? []).map((g, i) => ({ g, id: `multiloko-gates-${i}` })),
    ...(ka?.gates ?? []).map((g, i) => ({ g, id: `kalahi-gates-${i}` })),
    ...others.flatMap((r) => r.gates.map((g, i) => ({ g, id: `${sectionId(r.benchmark)}-gates-${i}` }))),
  ];
  const missed = gates.filter((x) => !x.g.pass);
  const failedRun = ml?.gatesPassed === false || ka?.gatesPassed === false || others.some((r) => r.gates_passed === false);
  if (missing.length > 0) {
    return html`<p class="verdict fail" id="verdict" data-verdict="incomplete">✗ Incomplete: ${missing.join(', ')} did not finish, so the run fails${missed.length ? html` (and ${missed.length} gate${missed.length === 1 ? '' : 's'} missed)` : ''}.</p>`;
  }
  if (missed.length > 0) {
    return html`<p class="verdict fail" id="verdict" data-verdict="missed">✗ ${missed.length} of ${gates.length} gate${gates.length === 1 ? '' : 's'} missed: ${missed.map((x, i) => html`${i ? ', ' : ''}<a href="#${x.id}">${x.g.figure}</a>`)}.</p>`;
  }
  if (failedRun) return html`<p class="verdict fail" id="verdict" data-verdict="failed">✗ The run failed (it measured nothing, or a gate could not be judged): see the gates below.</p>`;
  if (gates.length === 0) return html`<p class="verdict" id="verdict" data-verdict="none">No gates were set for this run (LOKAL_THRESHOLDS, LOKAL_BASELINE).</p>`;
  return html`<p class="verdict pass" id="verdict" data-verdict="met">✓ All ${gates.length} gate${gates.length === 1 ? '' : 's'} met.</p>`;
}

/** A MultiLoKo results file's fingerprint: a run's in its summary, `lokal score`'s in its `lokal` section. */
function multilokoFingerprint(results: ReportInput['multiloko']): unknown {
  const own = results?.lokal as { fingerprint?: unknown } | undefined;
  return results?.summary?.fingerprint ?? own?.fingerprint;
}

/** sha256 of the inline script for the page's Content-Security-Policy: only that script may run, nothing may load. */
function scriptHash(script: string): string {
  return `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;
}

/**
 * The report as one HTML string. Async because vega renders charts asynchronously. Every dataset and model string is
 * escaped; the page loads nothing (its Content-Security-Policy forbids it) and shows its charts without running a script.
 */
export async function renderHtmlReport(input: ReportInput): Promise<string> {
  const confidence = input.confidence ?? 0.95;
  const others = input.others ?? [];
  if (!input.multiloko && !input.kalahi && others.length === 0) throw new Error('renderHtmlReport: give the results of MultiLoKo, Kalahi or a benchmark in the groups layout');
  const ml = input.multiloko ? multilokoView(input.multiloko, confidence) : undefined;
  const mlBase = input.baseline?.multiloko ? multilokoView(input.baseline.multiloko, confidence) : undefined;
  const ka = input.kalahi ? kalahiView(input.kalahi, confidence) : undefined;
  const kaBase = input.baseline?.kalahi ? kalahiView(input.baseline.kalahi, confidence) : undefined;
  const mlComparison = ml && mlBase ? compareMultiLoKo(ml.subsets, mlBase.subsets, confidence) : undefined;
  const kaComparison = ka && kaBase ? compareKalahi(ka.variants, kaBase.variants, confidence) : undefined;

  const emData = ml ? emChartData(ml, mlBase) : [];
  const effectsData = ml ? effectsChartData(ml) : [];
  const kalahiData = ka ? kalahiChartData(ka) : [];
  const [emSvg, effectsSvg, kalahiSvg] = await Promise.all([emChart(emData), effectsChart(effectsData), kalahiChart(kalahiData)]);

  const models = [...new Set([...(ml ? [ml.model] : []), ...(ka ? ka.variants.map((v) => v.model) : []), ...others.flatMap((r) => (r.model ? [r.model] : []))])];
  const heading = input.title ?? (input.modelLabel ? `vitest-lokal report · ${input.modelLabel}` : 'vitest-lokal report');
  const title = input.title ?? (input.modelLabel ? heading : `${heading} · ${models.join(', ')}`);
  const body = html`<header><h1>${heading}</h1>
<p class="meta">${[ml ? 'MultiLoKo' : '', ka ? 'Kalahi' : '', ...others.map((r) => r.title)].filter(Boolean).join(' and ')} results${models.length ? html` of ${input.modelLabel ? html`<strong>${input.modelLabel}</strong> (<code>${models.join(', ')}</code>)` : html`<strong>${models.join(', ')}</strong>`}` : ''}${input.generatedAt ? html` · ${input.generatedAt}` : ''}${mlBase || kaBase ? ' · compared with a baseline run' : ''}</p>
${verdictBlock(input, ml, ka)}
<nav>${ml ? html`<a href="#multiloko">MultiLoKo</a><a href="#multiloko-items">MultiLoKo items</a>` : ''}${ka ? html`<a href="#kalahi">Kalahi</a><a href="#kalahi-items">Kalahi prompts</a>` : ''}${others.map((r) => html`<a href="#${sectionId(r.benchmark)}">${r.title}</a>`)}<a href="#reading">Reading the intervals</a></nav></header>
<main>
${ml ? multilokoSection(ml, mlBase, mlComparison, { em: emSvg, effects: effectsSvg }, fingerprintBlock(multilokoFingerprint(input.multiloko), input.baseline?.multiloko ? (multilokoFingerprint(input.baseline.multiloko) ?? null) : undefined, 'multiloko-fingerprint'), input.modelLabel) : ''}
${ka ? kalahiSection(ka, kaBase, kaComparison, kalahiSvg, fingerprintBlock((input.kalahi as { fingerprint?: unknown }).fingerprint, input.baseline?.kalahi ? ((input.baseline.kalahi as { fingerprint?: unknown }).fingerprint ?? null) : undefined, 'kalahi-fingerprint')) : ''}
${others.map(groupsSection)}
</main>
<footer id="reading"><h3>Reading the intervals</h3>
<p>Every interval is ${Math.round(confidence * 100)}%. Proportions (EM, MC1, a metric's acc) use Wilson's score interval, which stays inside [0, 1] and behaves at 0% and 100%; means of per-item scores (F1, chrF, MC2, MC3) use the t-interval of the mean. Two runs differ beyond noise only where their paired test says so: overlapping intervals of two separate runs are not such a test.</p>
<p>Made by vitest-lokal; charts by Vega-Lite, rendered to SVG when the report was written. This file loads nothing from the network.</p></footer>`;
  const csp = `default-src 'none'; style-src 'unsafe-inline'; script-src ${scriptHash(SCRIPT)}; base-uri 'none'; form-action 'none'`;
  return htmlDocument({ title, csp, body, script: SCRIPT });
}

/** The page around a report's body: one file, its Content-Security-Policy in a meta tag (no server sends headers). */
export function htmlDocument({ title, csp, body, script }: { title: string; csp: string; body: Html; script?: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body.value}
${script === undefined ? '' : `<script>${script}</script>\n`}</body>
</html>
`;
}
