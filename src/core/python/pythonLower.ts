// Python 3.11 `str.lower()`: JS toLowerCase() is the same full mapping (SpecialCasing, final sigma; docs/metrics.md#python-conventions)
// except for 55 code points assigned after Unicode 14.0, which Python leaves unchanged.
import { LOWERCASED_NEWER_THAN_UNICODE_14, rangesToClass } from './unicode14.ts';

const NEWER = new RegExp(`[${rangesToClass(LOWERCASED_NEWER_THAN_UNICODE_14)}]`, 'u');
const NEWER_GLOBAL = new RegExp(NEWER.source, 'gu');

/** Python 3.11 `s.lower()`. */
export function pythonLower(s: string): string {
  if (!NEWER.test(s)) return s.toLowerCase();
  // Lower the pieces between the new code points: to Python they are uncased and not case-ignorable, so they end a
  // final-sigma context exactly as a piece boundary does.
  let out = '';
  let last = 0;
  for (const m of s.matchAll(NEWER_GLOBAL)) {
    out += s.slice(last, m.index).toLowerCase() + m[0];
    last = m.index + m[0].length;
  }
  return out + s.slice(last).toLowerCase();
}
