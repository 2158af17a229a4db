// Escaping for the HTML report: every dataset and model string passes through here before it reaches the page.
import { bidiEscaped } from '../data/terminalText.ts';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

/**
 * Control characters made visible (C0 as the Control Pictures block, DEL as ␡, C1 and noncharacters as U+FFFD), so a
 * model's stray escape bytes neither vanish nor reach the parser; tab and newline stay as they are. Bidirectional
 * controls are written as escapes (`\u202e`), as on the terminal: a raw one reorders what the reader sees
 * ("Trojan Source", CVE-2021-42574).
 */
function visibleControls(text: string): string {
  return bidiEscaped(text).replace(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F\uFFFE\uFFFF]/gu, (c) => {
    const code = c.charCodeAt(0);
    if (code <= 0x1f) return String.fromCharCode(0x2400 + code);
    if (code === 0x7f) return '\u2421';
    return '\uFFFD';
  });
}

/** Lone surrogates (invalid UTF-16, e.g. a reply cut mid-character) become U+FFFD, as a UTF-8 encoder would make them anyway. */
function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/gu, '\uFFFD');
}

/** A string with controls made visible and lone surrogates replaced, not entity-escaped: for text another renderer escapes (chart labels). */
export function cleanText(value: string): string {
  return visibleControls(wellFormed(value));
}

// Anything escapeHtml changes: markup characters, controls (bidirectional ones too), noncharacters and surrogates
// (paired ones are kept).
const NEEDS_ESCAPING = /[&<>"'`\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\uD800-\uDFFF\uFFFE\uFFFF]/u;

/** Text for element content and quoted attribute values alike (quotes are escaped too). */
export function escapeHtml(value: unknown): string {
  const text = typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value);
  // Most dataset and model strings have nothing to escape: one scan instead of three replaces.
  if (!NEEDS_ESCAPING.test(text)) return text;
  return visibleControls(wellFormed(text)).replace(/[&<>"'`]/gu, (c) => ENTITIES[c]!);
}

/** A template tag that escapes every interpolated value unless it is already `Html`. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** Marks trusted markup (built by this module from escaped parts) so `html` does not escape it again. */
export function raw(markup: string): Html {
  return new Html(markup);
}

type Part = Html | string | number | null | undefined | false | readonly Part[];

function part(value: Part): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(part).join('');
  return escapeHtml(value);
}

/** `html\`<td>${text}</td>\``: interpolations are escaped (arrays joined, Html kept, null/undefined/false dropped). */
export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0]!;
  values.forEach((value, i) => (out += part(value) + strings[i + 1]!));
  return new Html(out);
}
