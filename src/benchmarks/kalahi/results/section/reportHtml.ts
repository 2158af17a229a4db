// Kalahi's section of the HTML report: per variant the MC and generation tables with their intervals, the gates,
// the fingerprint, the comparison with a baseline and every prompt (reportSection.ts hands it to the report shell).
import { cellText } from '../../../../report/cellText.ts';
import { drillRows, filterBar, VERDICT_MARK, VERDICT_OPTIONS } from '../../../../report/drill.ts';
import { html, raw, type Html } from '../../../../report/escape.ts';
import { fingerprintBlock } from '../../../../report/fingerprintHtml.ts';
import { change, CHANGE_OPTIONS, comparisonTable, figureCell, flipLists, gatesTable, sectionGates, unpairedNote } from '../../../../report/htmlParts.ts';
import { fixed, intervalText } from '../../../../report/numberText.ts';
import type { HtmlSection, SectionOptions } from '../../../../report/section.ts';
import { kalahiChart, kalahiChartData } from './reportCharts.ts';
import { compareKalahi, type KalahiComparison } from './reportCompare.ts';
import { KALAHI_METRICS, kalahiView, type KalahiChoice, type KalahiFigures, type KalahiPrompt, type KalahiVariantView, type KalahiView } from './reportView.ts';
import type { KalahiResultsJson } from '../../resultsSchema.ts';
import { positionLine } from '../trialFigures.ts';

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

/** With trials: how many per prompt, MC1 over the lettered trials with pass@k, and MC1 by the best answer's position. */
function kalahiTrialsNote(v: KalahiVariantView): Html {
  const t = v.trials;
  if (!t) return html``;
  const mc = t.mc;
  const passes = mc ? [...Object.entries(mc.pass_at ?? {}).map(([k, f]) => `pass@${k} ${f.value.toFixed(4)}`), ...Object.entries(mc.pass_hat ?? {}).filter(([k]) => k !== '1').map(([k, f]) => `pass^${k} ${f.value.toFixed(4)}`)] : [];
  const within = typeof mc?.within_share === 'number' ? ` · variance within prompts ${(100 * mc.within_share).toFixed(0)}%` : '';
  const summary = mc?.mc1 ? ` · MC1 over trials ${intervalText(mc.mc1, 4, 1)} (bootstrap over prompts) · ${passes.join(' · ')}${within} · ${mc.flaky ?? 0} flaky` : '';
  return html`<p class="note" id="kalahi-${v.key}-trials">${t.asked ?? '?'} trials per prompt${summary}; the figures per category in kalahi.json (trials).</p>
${mc?.by_position ? html`<p class="note" id="kalahi-${v.key}-positions">${positionLine(mc.by_position)} (the trials that showed it at that letter).</p>` : ''}`;
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
${kalahiMcTable(v)}${kalahiGenerationTable(v)}${kalahiTrialsNote(v)}`,
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
${unpairedNote(c.onlyCurrent, c.onlyBaseline)}
<h4>Flipped prompts</h4>${flipLists(c.flips.map((f) => ({ name: f.variant, worse: f.worse, better: f.better })))}</section>`;
}

/** The section of the report for a run's results, against the baseline's when given. */
export function kalahiHtml(results: KalahiResultsJson, baseline: KalahiResultsJson | undefined, { confidence }: SectionOptions): HtmlSection {
  const view = kalahiView(results, confidence);
  const base = baseline ? kalahiView(baseline, confidence) : undefined;
  return {
    models: view.variants.map((v) => v.model),
    gates: sectionGates(view.gates, 'kalahi-gates'),
    ...(view.gatesPassed === undefined ? {} : { gatesPassed: view.gatesPassed }),
    comparedWithBaseline: base !== undefined,
    nav: '<a href="#kalahi">Kalahi</a><a href="#kalahi-items">Kalahi prompts</a>',
    async body() {
      const comparison = base ? compareKalahi(view.variants, base.variants, confidence) : undefined;
      const chart = await kalahiChart(kalahiChartData(view));
      const fingerprint = fingerprintBlock(results.fingerprint, baseline ? (baseline.fingerprint ?? null) : undefined, 'kalahi-fingerprint');
      return kalahiSection(view, base, comparison, chart, fingerprint).value;
    },
  };
}
