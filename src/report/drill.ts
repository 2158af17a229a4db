// The drill-down every benchmark's report section shares: a search box and select filters over rows held as JSON
// (the page's script lists those matching), the verdict marks, and the prompt as fed one click away.
import { gzipSync } from 'node:zlib';
import { cleanText, escapeHtml, html, raw, type Html } from './escape.ts';
import { cellText } from './cellText.ts';
import type { ItemPrompt, Verdict } from './viewParts.ts';

export const VERDICT_MARK: Record<Verdict, string> = { correct: '✓ correct', wrong: '✗ wrong', missing: '∅ missing' };

export const VERDICT_OPTIONS: Array<[string, string]> = [
  ['correct', 'correct'],
  ['wrong', 'wrong'],
  ['missing', 'missing'],
];

export function filterBar(label: string, filters: ReadonlyArray<{ name: string; all: string; options: ReadonlyArray<[string, string]> }>): Html {
  return html`<div class="filters"><input type="search" placeholder="Search ${label}" aria-label="Search ${label}" autocomplete="off">
${filters.map((f) => html`<select data-filter="${f.name}" aria-label="${f.all}"><option value="">${f.all}</option>${f.options.map(([value, text]) => html`<option value="${value}">${text}</option>`)}</select>\n`)}
<span class="count" aria-live="polite"></span></div>`;
}

/** A subset's shared prompt start (a base prompt's demonstrations), written once and put back when a prompt is opened. */
export interface SharedStart {
  index: number;
  text: string;
}

/** The prompt as fed, one click away (its text in a <details>), or its SHA-256 where only that was recorded. */
export function promptDetails(prompt: ItemPrompt, shared: SharedStart | undefined): string {
  if ('sha256' in prompt) return `<span class="label">prompt sha256</span> <code>${escapeHtml(prompt.sha256)}</code>`;
  const summary = `<summary>prompt as fed (${prompt.text.length.toLocaleString('en-US')} characters)</summary>`;
  if (shared && prompt.text.startsWith(shared.text)) {
    // The shared start is filled in by the page's script when the prompt is opened.
    return `<details class="prompt">${summary}<div class="prompt-text"><span class="prompt-start" data-start="${shared.index}"></span>${escapeHtml(cellText(prompt.text.slice(shared.text.length)))}</div></details>`;
  }
  return `<details class="prompt">${summary}<div class="prompt-text">${escapeHtml(cellText(prompt.text))}</div></details>`;
}

/** Rows' JSON longer than this is written gzip-compressed (base64): a full run's 42 MB page read and parsed 7 s of 9. */
export const COMPRESSED_ROWS_ABOVE = 4 * 2 ** 20;

/** Filter values as the page's options hold them once parsed (escapeHtml less its entities), so the two still match. */
function shownFilters(filters: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  // Subset keys, verdicts and categories are printable ASCII, which cleanText leaves as it is.
  for (const name of Object.keys(filters)) out[name] = PRINTABLE_ASCII.test(filters[name]!) ? filters[name]! : cleanText(filters[name]!);
  return out;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/u;

/**
 * One row as the data block holds it: `[filters, markup]`. Filter values are data strings: every `<` as \u003c. The
 * markup is escaped already (its `<` open our own tags): `</` and `<!--` escaped there, so nothing can end the block.
 */
function rowJson(row: DrillRow): string {
  const filters = JSON.stringify(shownFilters(row.filters));
  const markup = JSON.stringify(row.html).replaceAll('</', '<\\/').replaceAll('<!--', '<\\u0021--');
  return `[${filters.includes('<') ? filters.replaceAll('<', '\\u003c') : filters},${markup}]`;
}

/**
 * `[row,\nrow,\n…]` as UTF-8, written row by row into one buffer: the joined text of a full run (23 M characters) is
 * never made. The buffer is sized by the most UTF-8 a UTF-16 code unit takes (3 bytes), so the rows are walked once
 * (no byteLength pass); only the bytes written are touched and returned.
 */
function rowsUtf8(pieces: readonly string[], length: number): Buffer {
  const out = Buffer.allocUnsafe(3 * length);
  let at = out.write('[', 0, 'latin1');
  for (let i = 0; i < pieces.length; i++) {
    if (i > 0) at += out.write(',\n', at, 'latin1');
    at += out.write(pieces[i]!, at, 'utf8');
  }
  at += out.write(']', at, 'latin1');
  return out.subarray(0, at);
}

/**
 * A drill-down's rows as data (JSON) until the page's script lists those matching the search and filters, a few thousand
 * at a time: a browser parses and lays out 37,750 rows of markup in half a minute, their JSON in about a second. Past
 * COMPRESSED_ROWS_ABOVE characters the JSON is gzip in base64, which the page inflates with DecompressionStream.
 */
export function drillRows(rows: readonly DrillRow[]): Html {
  const pieces = rows.map(rowJson);
  // The JSON's length in characters: 2 for the brackets, 2 per separator.
  let length = 2 + 2 * Math.max(0, pieces.length - 1);
  for (const piece of pieces) length += piece.length;
  const more = raw('<p class="more-rows" hidden><button type="button">List more</button></p>');
  if (length <= COMPRESSED_ROWS_ABOVE) return html`<script type="application/json" class="drill-rows">${raw(`[${pieces.join(',\n')}]`)}</script>${more}`;
  const packed = gzipSync(rowsUtf8(pieces, length), { level: 6 }).toString('base64');
  return html`<script type="application/octet-stream" class="drill-rows" data-encoding="gzip-base64">${raw(packed)}</script>${more}`;
}

/** One drill-down row: the values its select filters match (`subset`, `verdict`, …) and its markup (escaped already). */
export interface DrillRow {
  filters: Record<string, string>;
  html: string;
}

