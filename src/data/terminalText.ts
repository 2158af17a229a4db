// Text from datasets, prediction files and models, made safe to print on a terminal (tables, test names, failure
// messages, reporter lines). "Control" here means what can move the cursor, recolour, retitle or reorder what the
// reader sees: C0 (U+0000–U+001F, tab, CR and LF included), DEL (U+007F), C1 (U+0080–U+009F, CSI U+009B among them),
// the line and paragraph separators (U+2028, U+2029), the bidirectional embeddings, overrides and isolates
// (U+202A–U+202E, U+2066–U+2069; "Trojan Source", CVE-2021-42574) and the direction marks (U+200E, U+200F, U+061C),
// which reorder neutral characters around them. Each is written as a JSON-style escape, so the
// text stays on one line and shows what was there; everything else (any script, emoji, combining marks) is kept.

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;
const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

function escapeControl(c: string): string {
  return SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** The bidirectional embeddings, overrides, isolates and direction marks of CONTROL. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/**
 * `text` with each bidirectional control (see above) written as its escape (`\u202e`) and everything else as it is: for
 * the HTML report and the step summary, where line breaks and tabs are the renderer's business but a reordering is not.
 */
export function bidiEscaped(text: string): string {
  BIDI.lastIndex = 0;
  return BIDI.test(text) ? text.replace(BIDI, escapeControl) : text;
}

/** `text` with every control character (see above) escaped; text without one comes back as it is. */
export function terminalText(text: string): string {
  CONTROL.lastIndex = 0;
  return CONTROL.test(text) ? text.replace(CONTROL, escapeControl) : text;
}

/** Each line of a multi-line message made safe, the line breaks between them kept. */
export function terminalLines(text: string): string {
  return text.split('\n').map(terminalText).join('\n');
}

/** Makes an error's message, and its causes' (a few levels), terminal-safe in place; returns it for `throw`. */
export function terminalSafeError<T>(error: T): T {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const safe = terminalLines(current.message);
    if (safe !== current.message) {
      if (typeof current.stack === 'string') current.stack = current.stack.replace(current.message, safe);
      current.message = safe;
    }
    current = current.cause;
  }
  return error;
}
