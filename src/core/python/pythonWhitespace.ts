// Python 3.11's whitespace (str.split(), strip(), `\s`): exactly 29 code points, docs/metrics.md#python-conventions; JS `\s` differs.

/** The 29 code points as the body of a regular-expression character class. */
export const PY_WS_CLASS = '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';

/** Whether a UTF-16 unit is Python whitespace (all 29 are in the BMP, so a unit test is a code-point test). */
export function isPythonWhitespace(unit: number): boolean {
  if (unit <= 0x20) return unit === 0x20 || (unit >= 0x09 && unit <= 0x0d) || (unit >= 0x1c && unit <= 0x1f);
  if (unit < 0x85) return false;
  return (
    unit === 0x85 || unit === 0xa0 || unit === 0x1680 || (unit >= 0x2000 && unit <= 0x200a) ||
    unit === 0x2028 || unit === 0x2029 || unit === 0x202f || unit === 0x205f || unit === 0x3000
  );
}

/** Python `s.split()`: split on runs of Python whitespace, no empty pieces. */
export function pythonSplit(s: string): string[] {
  const out: string[] = [];
  const n = s.length;
  let start = -1;
  for (let i = 0; i < n; i++) {
    if (isPythonWhitespace(s.charCodeAt(i))) {
      if (start >= 0) {
        out.push(s.slice(start, i));
        start = -1;
      }
    } else if (start < 0) start = i;
  }
  if (start >= 0) out.push(s.slice(start));
  return out;
}

/** Python `' '.join(s.split())`: whitespace runs become one space, none at either end; `s` itself when already so. */
export function pythonSplitJoin(s: string): string {
  let previousSpace = true;
  for (let i = 0; i < s.length; i++) {
    const unit = s.charCodeAt(i);
    if (unit === 0x20 && !previousSpace) previousSpace = true;
    else if (isPythonWhitespace(unit)) return pythonSplit(s).join(' ');
    else previousSpace = false;
  }
  return previousSpace && s.length > 0 ? pythonSplit(s).join(' ') : s;
}

/** Python `s.strip()`. */
export function pythonStrip(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isPythonWhitespace(s.charCodeAt(start))) start++;
  while (end > start && isPythonWhitespace(s.charCodeAt(end - 1))) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/** Python `s.rstrip()`. */
export function pythonRstrip(s: string): string {
  let end = s.length;
  while (end > 0 && isPythonWhitespace(s.charCodeAt(end - 1))) end--;
  return end === s.length ? s : s.slice(0, end);
}

/** Python `''.join(s.split())`: every whitespace code point deleted. */
export function deletePythonWhitespace(s: string): string {
  let out = '';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    if (isPythonWhitespace(s.charCodeAt(i))) {
      if (i > start) out += s.slice(start, i);
      start = i + 1;
    }
  }
  return start === 0 ? s : out + s.slice(start);
}
