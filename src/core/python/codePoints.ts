// Python strings are sequences of code points; JS strings of UTF-16 units. Every length and index here is in code points.

/** The code points of `s` (a lone surrogate counts as one code point, as in a Python str). */
export function codePointsOf(s: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.codePointAt(i)!;
    out.push(c);
    if (c > 0xffff) i++;
  }
  return out;
}

/** UTF-16 offsets of each code point's start, plus the string length at the end (length = code points + 1). */
export function codePointOffsets(s: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    out.push(i);
    const u = s.charCodeAt(i);
    if (u >= 0xd800 && u <= 0xdbff && i + 1 < s.length) {
      const v = s.charCodeAt(i + 1);
      if (v >= 0xdc00 && v <= 0xdfff) i++;
    }
  }
  out.push(s.length);
  return out;
}

/** Whether `s` holds any surrogate unit, i.e. whether its UTF-16 length may differ from its code-point length. */
export function hasSurrogates(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const u = s.charCodeAt(i);
    if (u >= 0xd800 && u <= 0xdfff) return true;
  }
  return false;
}

/** UTF-8 byte length (Python `len(s.encode('utf-8'))`). */
export function utf8ByteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}
