// The HTML report: one self-contained file (inline CSS, SVG charts rendered at build time, one small inline script for
// the item search) made from a run's results files, optionally against a baseline run. The shell knows no benchmark:
// each section given (section.ts) makes its own part, in the order given; benchmarks in the groups layout follow.
import { createHash } from 'node:crypto';
import { SCRIPT, STYLE } from './assets.ts';
import { escapeHtml, html, raw, type Html } from './escape.ts';
import { groupsSection, sectionId } from './groupsHtml.ts';
import { sectionGates } from './htmlParts.ts';
import { orList, type HtmlSection, type ReportSection, type SectionGate } from './section.ts';
import type { ReportInput } from './types.ts';
export { COMPRESSED_ROWS_ABOVE } from './drill.ts';

/** Groups an incomplete results file names (`missing_subsets`), or none. */
function missingGroups(results: unknown): string[] {
  const value = results as { complete?: unknown; missing_subsets?: unknown } | undefined;
  if (value?.complete !== false) return [];
  return Array.isArray(value.missing_subsets) ? value.missing_subsets.map(String) : ['(not named)'];
}

/** A section given with the results it shows. */
interface Shown {
  section: ReportSection;
  results: object;
  part: HtmlSection;
}

/**
 * The run's verdict in one line at the top: incomplete (which groups), N gates missed (each linked to its row), all
 * gates met, or no gates set.
 */
function verdictBlock(input: ReportInput, shown: readonly Shown[]): Html {
  const others = input.others ?? [];
  const missing = [...shown.flatMap((s) => missingGroups(s.results).map((g) => `${s.section.title} ${g}`)), ...others.flatMap((r) => missingGroups(r).map((g) => `${r.title} ${g}`))];
  const gates: SectionGate[] = [...shown.flatMap((s) => s.part.gates), ...others.flatMap((r) => sectionGates(r.gates, `${sectionId(r.benchmark)}-gates`))];
  const missed = gates.filter((g) => !g.pass);
  const failedRun = shown.some((s) => s.part.gatesPassed === false) || others.some((r) => r.gates_passed === false);
  if (missing.length > 0) {
    return html`<p class="verdict fail" id="verdict" data-verdict="incomplete">✗ Incomplete: ${missing.join(', ')} did not finish, so the run fails${missed.length ? html` (and ${missed.length} gate${missed.length === 1 ? '' : 's'} missed)` : ''}.</p>`;
  }
  if (missed.length > 0) {
    return html`<p class="verdict fail" id="verdict" data-verdict="missed">✗ ${missed.length} of ${gates.length} gate${gates.length === 1 ? '' : 's'} missed: ${missed.map((g, i) => html`${i ? ', ' : ''}<a href="#${g.id}">${g.figure}</a>`)}.</p>`;
  }
  if (failedRun) return html`<p class="verdict fail" id="verdict" data-verdict="failed">✗ The run failed (it measured nothing, or a gate could not be judged): see the gates below.</p>`;
  if (gates.length === 0) return html`<p class="verdict" id="verdict" data-verdict="none">No gates were set for this run (LOKAL_THRESHOLDS, LOKAL_BASELINE).</p>`;
  return html`<p class="verdict pass" id="verdict" data-verdict="met">✓ All ${gates.length} gate${gates.length === 1 ? '' : 's'} met.</p>`;
}

/** sha256 of the inline script for the page's Content-Security-Policy: only that script may run, nothing may load. */
function scriptHash(script: string): string {
  return `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;
}

/**
 * The report as one HTML string, each section given rendering its benchmark's results (sections: the registry's,
 * src/benchmarks/index.ts reportSections()). Async because vega renders charts asynchronously. Every dataset and model
 * string is escaped; the page loads nothing (its Content-Security-Policy forbids it) and shows its charts without
 * running a script.
 */
export async function renderHtmlReport(input: ReportInput, sections: readonly ReportSection[]): Promise<string> {
  const confidence = input.confidence ?? 0.95;
  const others = input.others ?? [];
  const given = sections.flatMap((section) => {
    const results = input.benchmarks?.[section.name];
    return results === undefined ? [] : [{ section, results }];
  });
  if (given.length === 0 && others.length === 0) throw new Error(`renderHtmlReport: give the results of ${orList([...sections.map((s) => s.title), 'a benchmark in the groups layout'])}`);
  const shown: Shown[] = given.map(({ section, results }) => ({ section, results, part: section.html(results, input.baseline?.benchmarks?.[section.name], { confidence, modelLabel: input.modelLabel }) }));
  // Every section's charts render at once.
  const bodies = new Map(await Promise.all(shown.map(async (s) => [s.section, await s.part.body()] as const)));

  const models = [...new Set([...shown.flatMap((s) => s.part.models), ...others.flatMap((r) => (r.model ? [r.model] : []))])];
  const heading = input.title ?? (input.modelLabel ? `vitest-lokal report · ${input.modelLabel}` : 'vitest-lokal report');
  const title = input.title ?? (input.modelLabel ? heading : `${heading} · ${models.join(', ')}`);
  // Every section given has its line in <main>, empty when the run holds none of its results; the sections' markup is
  // escaped already (section.ts), so it goes in as it is.
  const body = html`<header><h1>${heading}</h1>
<p class="meta">${[...shown.map((s) => s.section.title), ...others.map((r) => r.title)].filter(Boolean).join(' and ')} results${models.length ? html` of ${input.modelLabel ? html`<strong>${input.modelLabel}</strong> (<code>${models.join(', ')}</code>)` : html`<strong>${models.join(', ')}</strong>`}` : ''}${input.generatedAt ? html` · ${input.generatedAt}` : ''}${shown.some((s) => s.part.comparedWithBaseline) ? ' · compared with a baseline run' : ''}</p>
${verdictBlock(input, shown)}
<nav>${shown.map((s) => raw(s.part.nav))}${others.map((r) => html`<a href="#${sectionId(r.benchmark)}">${r.title}</a>`)}<a href="#reading">Reading the intervals</a></nav></header>
<main>
${sections.map((section) => html`${raw(bodies.get(section) ?? '')}\n`)}${others.map(groupsSection)}
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
