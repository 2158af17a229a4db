// Python str semantics the Kalahi metrics depend on (METRICS.md §3.1–3.2): whitespace, strip, split, \w.

/** The 29 code points Python 3.11 treats as whitespace in str.split()/strip() and `\s`. */
export const PY_WS_CLASS = '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
/** Python `\w` in str patterns. */
export const PY_WORD_CLASS = '\\p{L}\\p{N}_';

const LEADING_WS = new RegExp(`^[${PY_WS_CLASS}]+`, 'u');
const TRAILING_WS = new RegExp(`[${PY_WS_CLASS}]+$`, 'u');
const WS_RUN = new RegExp(`[${PY_WS_CLASS}]+`, 'u');

/** Python `s.strip()`. */
export function pyStrip(s: string): string {
  return s.replace(LEADING_WS, '').replace(TRAILING_WS, '');
}

/** Python `s.rstrip()`. */
export function pyRstrip(s: string): string {
  return s.replace(TRAILING_WS, '');
}

/** Python `s.split()` without arguments: split on runs of whitespace, no empty pieces. */
export function pySplit(s: string): string[] {
  return s.split(WS_RUN).filter((piece) => piece.length > 0);
}

/** UTF-8 byte length (Python `len(s.encode('utf-8'))`). */
export function utf8ByteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/** Python's builtin sum() over floats (METRICS.md §3.4): the shared implementation. */
export { pythonSum as pySum } from '../../../core/python/pythonSum.ts';
