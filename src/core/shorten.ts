// Text cut for a test name or a verdict line: whitespace runs flattened, at most so many code points.

/** JS `\s`: the Unicode space separators, line terminators, tab, vertical tab, form feed and U+FEFF. */
function isJsSpace(unit: number): boolean {
  if (unit <= 0x20) return unit === 0x20 || (unit >= 0x09 && unit <= 0x0d);
  if (unit < 0xa0) return false;
  return unit === 0xa0 || unit === 0x1680 || (unit >= 0x2000 && unit <= 0x200a) || unit === 0x2028 || unit === 0x2029 ||
    unit === 0x202f || unit === 0x205f || unit === 0x3000 || unit === 0xfeff;
}

/** Text the whitespace flattening would leave as it is: single spaces between words, none at either end. */
function isFlat(text: string): boolean {
  let previousSpace = true;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit === 0x20) {
      if (previousSpace) return false;
      previousSpace = true;
    } else if (isJsSpace(unit)) {
      return false;
    } else {
      previousSpace = false;
    }
  }
  return !previousSpace || text.length === 0;
}

/** Whitespace runs become one space; text longer than `max` code points is cut with an ellipsis. */
export function shorten(text: string, max: number): string {
  const flat = isFlat(text) ? text : text.replace(/\s+/gu, ' ').trim();
  // Counted in place (a surrogate pair is one code point, a lone surrogate too, as Array.from counts): every item
  // test name and verdict goes through here, and an array of its characters per call costs more than the rest.
  let count = 0;
  let cut = 0;
  for (let i = 0; i < flat.length; i++) {
    const unit = flat.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < flat.length) {
      const next = flat.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
    if (count === max - 1) cut = i + 1;
    if (count > max) return `${flat.slice(0, cut)}…`;
  }
  return flat;
}
