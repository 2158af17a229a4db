// Levenshtein distance on code points (editdistance.eval on Python str), via fastest-levenshtein.
// fastest-levenshtein compares UTF-16 units, so a pair holding astral characters is first mapped one-to-one onto
// private-use BMP units (docs/development.md, dependencies); a pair with more distinct code points than that area falls back
// to the plain DP.
import { distance } from 'fastest-levenshtein';
import { codePointsOf, hasSurrogates } from '../core/python/codePoints.ts';
import { levenshteinDp } from './levenshteinDp.ts';

const PRIVATE_USE_FIRST = 0xe000;
const PRIVATE_USE_SIZE = 0xf8ff - 0xe000 + 1; // 6,400 units

/** The pair re-spelled with one private-use unit per distinct code point, or undefined if there are too many. */
export function toPrivateUsePair(a: string, b: string): [string, string] | undefined {
  const ids = new Map<number, number>();
  const spell = (s: string): string | undefined => {
    const units: number[] = [];
    for (const c of codePointsOf(s)) {
      let id = ids.get(c);
      if (id === undefined) {
        if (ids.size === PRIVATE_USE_SIZE) return undefined;
        id = ids.size;
        ids.set(c, id);
      }
      units.push(PRIVATE_USE_FIRST + id);
    }
    let out = '';
    for (let i = 0; i < units.length; i += 4096) out += String.fromCharCode(...units.slice(i, i + 4096));
    return out;
  };
  const x = spell(a);
  const y = x === undefined ? undefined : spell(b);
  return x === undefined || y === undefined ? undefined : [x, y];
}

/** Levenshtein distance between `a` and `b` counted in code points. */
export function editDistance(a: string, b: string): number {
  if (!hasSurrogates(a) && !hasSurrogates(b)) return distance(a, b); // units are code points here
  const mapped = toPrivateUsePair(a, b);
  if (mapped) return distance(mapped[0], mapped[1]);
  return levenshteinDp(codePointsOf(a), codePointsOf(b));
}
