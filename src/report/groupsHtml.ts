// A groups-layout benchmark's section of the HTML report: its groups with each declared figure and interval, its
// gates, the baseline gate's paired tests, and every item with its verdict (texts cut as MultiLoKo's, by cellText).
import { cellText } from './cellText.ts';
import { drillRows, filterBar, promptDetails, VERDICT_OPTIONS, type DrillRow } from './drill.ts';
import { escapeHtml, html, type Html } from './escape.ts';
import type { FigureValueJson, GroupItemJson, GroupsResultsJson } from './groupsResults.ts';
import { itemPrompt } from './viewParts.ts';
import { errorCategorySection } from './errorChart.ts';
import { DASH, fixed } from './numberText.ts';
import { ERROR_CATEGORIES, type ErrorCategory } from '../metrics/errorCategory.ts';

const OP: Record<string, string> = { '>=': '≥', '<=': '≤', '>': '>', '<': '<' };
const VERDICT: Record<string, string> = { correct: '✓ correct', wrong: '✗ wrong', missing: '∅ missing' };

/** The section's element ids start with this (a benchmark name may hold characters an id should not). */
export function sectionId(benchmark: string): string {
  return `bench-${benchmark.replace(/[^A-Za-z0-9_-]/gu, '_')}`;
}

function figureCell(key: string, f: FigureValueJson | null | undefined, top: number): Html {
  if (!f) return html`<td class="num" data-key="${key}">${DASH}</td>`;
  const digits = top === 100 ? 2 : 3;
  return html`<td class="num" data-key="${key}" data-value="${String(f.value)}" data-low="${String(f.low)}" data-high="${String(f.high)}">${fixed(f.value, digits)} <span class="ci">[${fixed(f.low, digits)}, ${fixed(f.high, digits)}]</span></td>`;
}

function gates(r: GroupsResultsJson, id: string): Html {
  if (r.gates.length === 0 && r.gates_not_applied.length === 0) return html`<p class="note" id="${id}">No gates were set for this benchmark.</p>`;
  return html`<table class="gates" id="${id}">
<thead><tr><th>Outcome</th><th>Gate</th><th>Figure</th><th class="num">Value</th><th class="num">Bound</th><th>Message</th></tr></thead>
<tbody>${r.gates.map((g, i) => html`<tr id="${id}-${String(i)}" data-pass="${String(g.pass)}"><td class="${g.pass ? 'pass' : 'fail'}">${g.pass ? '✓ met' : '✗ missed'}</td><td><code>${g.gate}</code></td><td>${g.figure}</td><td class="num">${fixed(g.value, 4)}</td><td class="num">${OP[g.op] ?? g.op} ${fixed(g.bound, 4)}</td><td>${g.message}</td></tr>\n`)}</tbody></table>
${r.gates_not_applied.length ? html`<p class="note">Not applied (named nothing in this run): ${r.gates_not_applied.map((c, i) => html`${i ? ', ' : ''}<code>${c}</code>`)}</p>` : ''}
<p class="${r.gates_passed ? 'pass' : 'fail'}">${r.gates_passed ? 'All gates met.' : 'Some gates missed: the run exits 1.'}</p>`;
}

function baselineTests(r: GroupsResultsJson, id: string): Html {
  const tests = r.baseline?.tests ?? [];
  if (tests.length === 0) return html``;
  return html`<h3>Against the baseline</h3><p class="note">${r.baseline!.file}: items paired by id; McNemar's exact test for 0/1 scores, a paired bootstrap otherwise; p adjusted by Holm across the figures.</p>
<table id="${id}-baseline"><thead><tr><th>Figure</th><th class="num">Paired</th><th class="num">Baseline</th><th class="num">This run</th><th class="num">Δ [95% CI]</th><th>Test</th><th class="num">p (Holm)</th><th class="num">MDE</th><th>Verdict</th></tr></thead>
<tbody>${tests.map((t) => html`<tr data-verdict="${t.verdict}" class="${t.pass ? '' : 'fail'}"><td>${t.figure}</td><td class="num">${String(t.n)}</td><td class="num">${fixed(t.baseline, 3)}</td><td class="num">${fixed(t.current, 3)}</td><td class="num">${fixed(t.diff, 3)} <span class="ci">[${fixed(t.low, 3)}, ${fixed(t.high, 3)}]</span></td><td>${t.test}</td><td class="num">${fixed(t.p_adjusted, 4)}</td><td class="num">${fixed(t.mde, 3)}</td><td>${t.verdict}</td></tr>\n`)}</tbody></table>`;
}

/** The item's output cell: the reply as given, the answer as scored when it differs, and the prompt as fed. */
function outputCell(item: GroupItemJson): string {
  const e = escapeHtml;
  if (item.verdict === 'missing') return '<span class="note">(no answer)</span>';
  let out = '';
  if (typeof item.answer === 'string') out += `<span class="label">raw output</span> ${e(cellText(item.answer))}\n`;
  const scored = typeof item.prediction === 'string' ? item.prediction : undefined;
  if (scored !== undefined) out += `<span class="label">normalised</span> ${scored === '' ? '<span class="note">(empty)</span>' : e(cellText(scored))}`;
  const prompt = itemPrompt(item.model_input);
  if (prompt) out += `\n${promptDetails(prompt, undefined)}`;
  return out;
}

/** Every item, searchable and filtered by group and verdict: the drill-down the built-in benchmarks have. */
function items(r: GroupsResultsJson, id: string): Html {
  const records = r.groups.flatMap((g) => g.records.map((item) => ({ g, item })));
  const withQuestion = records.some(({ item }) => typeof item.question === 'string');
  const e = escapeHtml;
  const rows: DrillRow[] = records.map(({ g, item }) => {
    const verdict = VERDICT[item.verdict] ? item.verdict : 'wrong';
    const accepted = Array.isArray(item.accepted) ? item.accepted : undefined;
    const targets = `${accepted ? e(cellText(accepted.join('\n'))) : ''}${item.targets?.length ? `${accepted ? '\n' : ''}<span class="label">normalised</span> ${e(cellText(item.targets.join(' | ')))}` : ''}`;
    const scores = r.figures.map((f) => `${f.label} ${fixed(item.scores[f.name], f.top === 100 ? 1 : 2)}`).join(' · ');
    const error = typeof item.error === 'string' && (ERROR_CATEGORIES as readonly string[]).includes(item.error) ? item.error : undefined;
    const html = `<tr data-subset="${e(g.key)}" data-verdict="${e(verdict)}"><td>${e(g.name)}</td><td class="id">${e(String(item.id))}</td>${withQuestion ? `<td>${e(cellText(typeof item.question === 'string' ? item.question : ''))}</td>` : ''}<td>${targets}</td><td>${outputCell(item)}</td><td class="scores">${e(scores)}</td><td class="verdict">${e(VERDICT[item.verdict] ?? item.verdict)}${error && error !== 'correct' ? `\n<span class="note">${e(error)}</span>` : ''}</td></tr>`;
    return { filters: { subset: g.key, verdict, ...(error ? { error } : {}) }, html };
  });
  const withError = records.some(({ item }) => typeof item.error === 'string');
  const filters = [
    { name: 'subset', all: 'all groups', options: r.groups.map((g): [string, string] => [g.key, `${g.name} (${g.records.length})`]) },
    { name: 'verdict', all: 'any verdict', options: VERDICT_OPTIONS },
    ...(withError ? [{ name: 'error', all: 'any error category', options: ERROR_CATEGORIES.map((c): [string, string] => [c, `${c} (${records.filter(({ item }) => item.error === c).length})`]) }] : []),
  ];
  return html`<section class="drill" data-drill id="${id}-items"><h3>Items</h3>
${filterBar('id, question, targets, answer…', filters)}
<table class="items"><thead><tr><th>Group</th><th>ID</th>${withQuestion ? html`<th>Question</th>` : ''}<th>Accepted answers</th><th>Output</th><th>Scores</th><th>Verdict</th></tr></thead>
<tbody></tbody></table>${drillRows(rows)}</section>`;
}

export function groupsSection(r: GroupsResultsJson): Html {
  const id = sectionId(r.benchmark);
  const label = (f: GroupsResultsJson['figures'][number]) => `${f.label} [${Math.round(r.confidence * 100)}% ${f.kind === 'proportion' ? 'Wilson' : 'quasi-Wilson'}]`;
  const row = (name: string, key: string, g: GroupsResultsJson['overall']) =>
    html`<tr><td>${name}</td><td class="num">${String(g.scored)}${g.missing ? html` <span class="ci">(${String(g.missing)} missing)</span>` : ''}</td>${r.figures.map((f) => figureCell(`${r.benchmark}.${key}.${f.name}`, g.figures[f.name], f.top))}</tr>\n`;
  return html`<section id="${id}" data-benchmark="${r.benchmark}"><h2>${r.title}</h2>
<p class="meta">${r.model ? html`Model <strong>${r.model}</strong> · ` : ''}${String(r.overall.scored)} of ${String(r.overall.total)} items</p>
<table id="${id}-groups"><thead><tr><th>Group</th><th class="num">Items</th>${r.figures.map((f) => html`<th class="num">${label(f)}</th>`)}</tr></thead>
<tbody>${r.groups.map((g) => row(g.key, g.key, g))}${r.groups.length > 1 ? row('all', 'all', r.overall) : ''}</tbody></table>
${errorCategorySection(r.groups.map((g) => ({ language: g.key, key: g.key, ...(g.errors ? { errors: g.errors as Record<ErrorCategory, number> } : {}) })), { id, rowLabel: 'Group', items: "Each group's items" })}
<h3>Gates</h3>${gates(r, `${id}-gates`)}
${baselineTests(r, id)}
${items(r, id)}
</section>`;
}
