// A drill-down cell shows at most CELL_TEXT_LIMIT characters of a reply, prompt or answer: two 10 MB replies made a
// 21 MB report that a browser took 42 s and 4.8 GB to open. The cut says the full length; the results file keeps it all.

/** Characters (UTF-16 code units) of one text shown in a report cell. */
export const CELL_TEXT_LIMIT = 20_000;

/** The text, or its first CELL_TEXT_LIMIT characters (never half a surrogate pair) and a note of the full length. */
export function cellText(text: string, limit = CELL_TEXT_LIMIT): string {
  if (text.length <= limit) return text;
  const code = text.charCodeAt(limit - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit;
  return `${text.slice(0, end)} … [cut: ${text.length.toLocaleString('en-US')} characters in all; the full text is in the results file]`;
}
