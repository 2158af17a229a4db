// MultiLoKo's section of the HTML report: leaderboard, EM per language with MTE and LE, local vs English, error
// categories, every subset, gates, fingerprint, the comparison with a baseline and every item (reportSection.ts hands
// it to the report shell).
import { errorCategorySection, type ErrorSectionPlace } from '../../../../report/errorChart.ts';
import { cellText } from '../../../../report/cellText.ts';
import { DrillRowsBlock, filterBar, promptDetails, VERDICT_MARK, VERDICT_OPTIONS, type SharedStart } from '../../../../report/drill.ts';
import { escapeHtml, html, raw, type Html } from '../../../../report/escape.ts';
import { fingerprintBlock } from '../../../../report/fingerprintHtml.ts';
import { change, CHANGE_OPTIONS, comparisonTable, figureCell, flipLists, gatesTable, sectionGates, unpairedNote } from '../../../../report/htmlParts.ts';
import { DASH, fixed } from '../../../../report/numberText.ts';
import type { HtmlSection, SectionOptions } from '../../../../report/section.ts';
import { ERROR_CATEGORIES } from '../../../../metrics/errorCategory.ts';
import { localVsEnglishSection } from './localVsEnglishHtml.ts';
import { localVsEnglishView } from './localVsEnglishView.ts';
import { effectsChart, effectsChartData, emChart, emChartData } from './reportCharts.ts';
import { compareMultiLoKo, type MultiLoKoComparison } from './reportCompare.ts';
import { multilokoView, type Effect, type MultiLoKoItemView, type MultiLoKoView } from './reportView.ts';
import type { MultiLoKoResultsJson } from '../../resultsSchema.ts';
import { baselineMde, baselineMdeNote, mdeText, type BaselineMde } from '../baselineMde.ts';
import { headlineTrialsLine } from '../headlineTrials.ts';

/** The error categories' chart and table: a row per language (its local items). */
const ERROR_PLACE: ErrorSectionPlace = { id: 'multiloko', rowLabel: 'Language', items: "Each language's local items" };

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

/** An item's trials as the verdict cell shows them (`✓✗✓✓ 3/4 · flaky`) and the value of the drill's trials filter. */
function trialsOf(trials: ReadonlyArray<{ em: number }>): { marks: string; kind: 'flaky' | 'agree' } {
  const right = trials.filter((t) => t.em === 1).length;
  const flaky = right > 0 && right < trials.length;
  return { marks: `${trials.map((t) => (t.em === 1 ? '✓' : '✗')).join('')} ${right}/${trials.length}${flaky ? ' · flaky' : ''}`, kind: flaky ? 'flaky' : 'agree' };
}

/** The trials filter: flaky items (trials disagree) and those whose trials agree, with their counts. */
function trialOptions(items: readonly MultiLoKoItemView[]): Array<[string, string]> {
  const kinds = items.flatMap((i) => (i.trials ? [trialsOf(i.trials).kind] : []));
  const flaky = kinds.filter((k) => k === 'flaky').length;
  return [
    ['flaky', `flaky: trials disagree (${flaky})`],
    ['agree', `trials agree (${kinds.length - flaky})`],
  ];
}

function multilokoDrill(view: MultiLoKoView, baseline: MultiLoKoView | undefined): Html {
  const items = view.subsets.flatMap((s) => s.items);
  const withQuestion = items.some((i) => i.question !== undefined);
  const withError = items.some((i) => i.error !== undefined);
  const withTrials = items.some((i) => i.trials !== undefined);
  const base = new Map<string, MultiLoKoItemView>();
  for (const s of baseline?.subsets ?? []) for (const i of s.items) base.set(`${s.key}\u0000${i.id}`, i);
  const names = new Map(view.subsets.map((s) => [s.key, s.name]));
  const filters = [
    { name: 'subset', all: 'all subsets', options: view.subsets.map((s): [string, string] => [s.key, `${s.name} (${s.items.length})`]) },
    { name: 'verdict', all: 'any verdict', options: VERDICT_OPTIONS },
    ...(withError ? [{ name: 'error', all: 'any error category', options: ERROR_CATEGORIES.map((c): [string, string] => [c, `${c} (${items.filter((i) => i.error === c).length})`]) }] : []),
    ...(baseline ? [{ name: 'change', all: 'any change vs baseline', options: CHANGE_OPTIONS }] : []),
    ...(withTrials ? [{ name: 'trials', all: 'any trials', options: trialOptions(items) }] : []),
  ];
  const e = escapeHtml;
  const prefixes = sharedPromptStarts(view);
  // Each row is made JSON as it is added, so its markup does not outlive it (37,750 rows in a full run).
  const rows = new DrillRowsBlock();
  for (const i of items) {
    const b = base.get(`${i.subset}\u0000${i.id}`);
    const changed = baseline ? change(i.verdict, b?.verdict) : undefined;
    const trials = i.trials ? trialsOf(i.trials) : undefined;
    let row = `<tr data-subset="${e(i.subset)}" data-verdict="${e(i.verdict)}"${changed ? ` data-change="${changed}"` : ''}><td>${e(names.get(i.subset))}</td><td class="id">${e(i.id)}</td>`;
    if (withQuestion) row += `<td>${e(i.question ?? '')}</td>`;
    row += `<td>${e(i.targets.join('\n'))}</td><td>${multilokoOutput(i, prefixes.get(i.subset))}</td><td class="scores">${e(multilokoScores(i.scores))}</td><td class="verdict">${e(VERDICT_MARK[i.verdict])}${i.error && i.error !== 'correct' ? `\n<span class="note">${e(i.error)}</span>` : ''}${trials ? `\n<span class="note">${e(trials.marks)}</span>` : ''}</td>`;
    if (baseline) row += `<td>${b ? `${e(VERDICT_MARK[b.verdict])}\n${e(b.missing ? '(no answer)' : cellText(b.raw ?? b.prediction))}` : '<span class="note">not in baseline</span>'}</td>`;
    rows.add({ filters: { subset: i.subset, verdict: i.verdict, ...(i.error ? { error: i.error } : {}), ...(changed ? { change: changed } : {}), ...(trials ? { trials: trials.kind } : {}) }, html: `${row}</tr>` });
  }
  return html`<section class="drill" data-drill id="multiloko-items"><h3>Items</h3>
${withQuestion ? '' : html`<p class="note">The results file holds no question texts: items are listed by id. Targets and the scored answer are eval.py's normalised strings.</p>`}
${filterBar('id, question, targets, answer…', filters)}
<table class="items"><thead><tr><th>Subset</th><th>ID</th>${withQuestion ? html`<th>Question</th>` : ''}<th>Targets</th><th>Output</th><th>Metrics</th><th>Verdict</th>${baseline ? html`<th>Baseline</th>` : ''}</tr></thead>
<tbody></tbody></table>${rows.block()}${promptPrefixes(prefixes)}</section>`;
}

function effectCell(key: string, e: Effect | undefined): Html {
  return figureCell(key, e, 100, 2);
}

/** The baseline gate's MDE for the trials used: the sentence, then a row per figure the gate tested. */
function mdeBlock(mde: BaselineMde): Html {
  return html`<section id="multiloko-mde"><h4>Minimum detectable effect</h4><p class="note">${baselineMdeNote(mde)}</p>
<table id="multiloko-mde-table"><thead><tr><th>Figure</th><th class="num">Paired items</th><th>Test</th><th class="num">MDE</th></tr></thead>
<tbody>${mde.tests.map((t) => html`<tr><td>${t.figure}</td><td class="num">${String(t.n)}</td><td>${t.test}</td><td class="num">${mdeText(t.mde)}</td></tr>\n`)}</tbody></table></section>`;
}

function multilokoSection(view: MultiLoKoView, baseline: MultiLoKoView | undefined, comparison: MultiLoKoComparison | undefined, charts: { em?: string; effects?: string }, fingerprint: Html, modelLabel: string | undefined, mde?: BaselineMde): Html {
  const h = view.headline;
  const local = view.languages;
  const anyEffect = local.some((r) => r.mte.human || r.mte.machine || r.le.human || r.le.machine);
  const leaderboard = h
    ? html`<table class="leaderboard" id="multiloko-leaderboard"><thead><tr><th>Model</th><th class="num">Average EM (↑)</th><th class="num">Gap (↓)</th><th class="num">MTE (↓)</th><th class="num">Min EM (↑)</th><th class="num">Max EM (↑)</th></tr></thead>
<tbody><tr><td>${modelLabel ?? view.model}</td><td class="num" data-key="headline.em" data-value="${String(h.em)}">${fixed(h.em, 2, 100)} ± ${h.em2se === null ? DASH : fixed(h.em2se, 1, 100)}</td><td class="num" data-key="headline.gap" data-value="${String(h.gap)}">${fixed(h.gap, 2, 100)}</td><td class="num" data-key="headline.mte">${fixed(h.mte, 2, 100)} ± ${h.mte2se === null ? DASH : fixed(h.mte2se, 1, 100)}</td><td class="num" data-key="headline.min">${fixed(h.min, 2, 100)} <span class="ci">${h.minLanguage}</span></td><td class="num" data-key="headline.max">${fixed(h.max, 2, 100)} <span class="ci">${h.maxLanguage}</span></td></tr></tbody></table>
<p class="note">EM × 100 over ${h.languages} local language${h.languages === 1 ? '' : 's'}; ± is 2 standard errors across languages (the official leaderboard's); MTE from human translations.${h.fromSummary ? '' : ' (Computed from the item records: the file has no summary.)'}</p>${h.trials ? html`\n<p class="note" id="multiloko-headline-trials">${headlineTrialsLine(h.trials).replace(/^MultiLoKo headline/u, 'Headline')}</p>` : ''}`
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
${errorCategorySection(local.map((r) => ({ language: r.language, key: r.subset.key, ...(r.subset.errors ? { errors: r.subset.errors } : {}) })), ERROR_PLACE)}
<h3>Every subset</h3>${subsetTable}
<h3>Gates</h3>${gatesTable(view.gates, view.gatesNotApplied, view.gatesPassed, 'multiloko-gates')}
${mde ? mdeBlock(mde) : ''}
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
${unpairedNote(c.onlyCurrent, c.onlyBaseline)}
<h4>Flipped items</h4>${flipLists(c.subsets.map((r) => ({ name: names.get(r.key) ?? r.key, worse: r.worse, better: r.better })))}</section>`;
}

/** A MultiLoKo results file's fingerprint: a run's in its summary, `lokal score`'s in its `lokal` section. */
function multilokoFingerprint(results: MultiLoKoResultsJson): unknown {
  const own = results.lokal as { fingerprint?: unknown } | undefined;
  return results.summary?.fingerprint ?? own?.fingerprint;
}

/** The section of the report for a run's results, against the baseline's when given. */
export function multilokoHtml(results: MultiLoKoResultsJson, baseline: MultiLoKoResultsJson | undefined, { confidence, modelLabel }: SectionOptions): HtmlSection {
  const view = multilokoView(results, confidence);
  const base = baseline ? multilokoView(baseline, confidence) : undefined;
  return {
    models: [view.model],
    gates: sectionGates(view.gates, 'multiloko-gates'),
    ...(view.gatesPassed === undefined ? {} : { gatesPassed: view.gatesPassed }),
    comparedWithBaseline: base !== undefined,
    nav: '<a href="#multiloko">MultiLoKo</a><a href="#multiloko-items">MultiLoKo items</a>',
    async body() {
      const comparison = base ? compareMultiLoKo(view.subsets, base.subsets, confidence) : undefined;
      const [em, effects] = await Promise.all([emChart(emChartData(view, base)), effectsChart(effectsChartData(view))]);
      const fingerprint = fingerprintBlock(multilokoFingerprint(results), baseline ? (multilokoFingerprint(baseline) ?? null) : undefined, 'multiloko-fingerprint');
      return multilokoSection(view, base, comparison, { em, effects }, fingerprint, modelLabel, baselineMde(results)).value;
    },
  };
}
