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

/** A UTF-8 chunk's size: a full run's 24 MB of rows is written into chunks of this size (or one row's most, if more). */
const CHUNK_BYTES = 4 * 2 ** 20;

/**
 * A drill-down's rows as data (JSON) until the page's script lists those matching the search and filters, a few thousand
 * at a time: a browser parses and lays out 37,750 rows of markup in half a minute, their JSON in about a second. Past
 * COMPRESSED_ROWS_ABOVE characters the JSON is gzip in base64, which the page inflates with DecompressionStream.
 *
 * Rows are added one at a time and each is made JSON at once, so a row's markup is garbage as soon as it is added; past
 * the threshold each row's JSON goes straight into UTF-8 chunks too (the joined 23 M characters of a full run are never
 * made, nor kept as 37,750 strings until the end).
 */
export class DrillRowsBlock {
  /** Rows' JSON while the whole is short enough to be written as it is. */
  private pieces: string[] | undefined = [];
  /** Past the threshold: `[row,\nrow,\n…` as UTF-8, in chunks, the last one being filled. */
  private readonly chunks: Buffer[] = [];
  private chunk: Buffer | undefined;
  private at = 0;
  private rows = 0;
  /** The JSON's length in characters so far: the brackets and a 2-character separator before every row but the first. */
  private length = 2;

  add(row: DrillRow): void {
    const piece = rowJson(row);
    this.length += piece.length + (this.rows > 0 ? 2 : 0);
    this.rows++;
    if (this.pieces) {
      this.pieces.push(piece);
      if (this.length <= COMPRESSED_ROWS_ABOVE) return;
      // Past the threshold: what was kept goes into UTF-8, and so does every row from now on.
      const kept = this.pieces;
      this.pieces = undefined;
      this.write('[', 'latin1');
      for (let i = 0; i < kept.length; i++) {
        if (i > 0) this.write(',\n', 'latin1');
        this.write(kept[i]!, 'utf8');
      }
      return;
    }
    this.write(',\n', 'latin1');
    this.write(piece, 'utf8');
  }

  /** `text` into the chunk being filled, which is room enough when it has 3 bytes per UTF-16 code unit (UTF-8's most). */
  private write(text: string, encoding: 'utf8' | 'latin1'): void {
    const most = 3 * text.length;
    if (!this.chunk || this.chunk.length - this.at < most) {
      if (this.chunk) this.chunks.push(this.chunk.subarray(0, this.at));
      this.chunk = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, most));
      this.at = 0;
    }
    this.at += this.chunk.write(text, this.at, encoding);
  }

  /** The data block of every row added: plain JSON, or past COMPRESSED_ROWS_ABOVE characters gzip in base64. */
  block(): Html {
    const more = raw('<p class="more-rows" hidden><button type="button">List more</button></p>');
    if (this.pieces) return html`<script type="application/json" class="drill-rows">${raw(`[${this.pieces.join(',\n')}]`)}</script>${more}`;
    this.write(']', 'latin1');
    const bytes = Buffer.concat([...this.chunks, this.chunk!.subarray(0, this.at)]);
    const packed = gzipSync(bytes, { level: 6 }).toString('base64');
    return html`<script type="application/octet-stream" class="drill-rows" data-encoding="gzip-base64">${raw(packed)}</script>${more}`;
  }
}

/** The data block of `rows` (DrillRowsBlock's, the rows given at once). */
export function drillRows(rows: readonly DrillRow[]): Html {
  const block = new DrillRowsBlock();
  for (const row of rows) block.add(row);
  return block.block();
}

/** One drill-down row: the values its select filters match (`subset`, `verdict`, …) and its markup (escaped already). */
export interface DrillRow {
  filters: Record<string, string>;
  html: string;
}

