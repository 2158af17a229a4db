// Differential tests against the machine's python3 (CPython 3.11, the reference's own building blocks):
// normalizeAnswer vs a Python transcription of docs/metrics.md#normalisation on Python's str.lower and re; editSimilarity vs
// difflib.SequenceMatcher itself; editDistance vs a Python DP; the Unicode-14 tables vs Python's unicodedata.
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  PY_WORD_CLASS_V, codePointsOf, editDistance, editSimilarity, levenshteinDp, normalizeAnswer, pythonLower,
} from '../../src/metrics/index.ts';
import { hasPython } from './paths.ts';
import { randomText, seeded } from './randomStrings.ts';

// Written from docs/metrics.md#normalisation: the 111 code points, Python's own lower(), `\b(a|an|the)\b`, split/join.
const PYTHON = String.raw`
import difflib, json, re, sys
deleted = set()
for a, b in [(0x21, 0x2f), (0x3a, 0x40), (0x5b, 0x60), (0x7b, 0x7e), (0xa1, 0xa1), (0xab, 0xab), (0xbb, 0xbb),
             (0xbf, 0xbf), (0x2013, 0x2014), (0x2018, 0x2019), (0x201b, 0x201f), (0x2026, 0x2027), (0x3001, 0x3003),
             (0x300a, 0x3011), (0x3014, 0x301f), (0x3030, 0x3030), (0x303e, 0x303f), (0xfe4f, 0xfe4f), (0xff01, 0xff0d),
             (0xff0f, 0xff0f), (0xff1a, 0xff20), (0xff3b, 0xff40), (0xff5b, 0xff64)]:
    deleted.update(chr(c) for c in range(a, b + 1))
assert len(deleted) == 111
def normalize(s):
    s = s.lower()
    s = "".join(ch for ch in s if ch not in deleted)
    s = re.sub(r"\b(a|an|the)\b", " ", s)
    return " ".join(s.split())
def lev(a, b):
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i]
        for j, y in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y)))
        prev = cur
    return prev[-1]
job = json.load(sys.stdin)
out = {
    "normalized": [normalize(s) for s in job["texts"]],
    "ratio": [difflib.SequenceMatcher(None, a, b).ratio() for a, b in job["pairs"]],
    "ratioNoJunk": [difflib.SequenceMatcher(None, a, b, autojunk=False).ratio() for a, b in job["pairs"]],
    "lev": [lev(a, b) for a, b in job["shortPairs"]],
}
json.dump(out, sys.stdout)
`;

// Python 3.11's \w membership and lower() for every code point, as ranges / a sparse map.
const PYTHON_UNICODE = String.raw`
import json, re, sys
word = re.compile(r"\w")
ranges, lowers = [], {}
for c in range(0x110000):
    if 0xd800 <= c <= 0xdfff:
        continue
    ch = chr(c)
    if word.match(ch):
        if ranges and ranges[-1][1] == c - 1:
            ranges[-1][1] = c
        else:
            ranges.append([c, c])
    low = ch.lower()
    if low != ch:
        lowers[c] = low
json.dump({"word": ranges, "lower": lowers}, sys.stdout)
`;

const pythonUnicode = hasPython
  ? execFileSync('python3', ['-c', 'import unicodedata; print(unicodedata.unidata_version)']).toString().trim()
  : undefined;

function runPython(script: string, input: unknown): unknown {
  return JSON.parse(execFileSync('python3', ['-c', script], { input: JSON.stringify(input), maxBuffer: 1 << 28 }).toString());
}

describe.skipIf(!hasPython)('against python3 (skipped when python3 is missing)', () => {
  const random = seeded(20260417);
  const texts = Array.from({ length: 400 }, () => randomText(random, 1 + Math.floor(random() * 14)));
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i < 300; i++) pairs.push([randomText(random, Math.floor(random() * 10)), randomText(random, Math.floor(random() * 10))]);
  // Long b (≥ 200 code points) over small alphabets, so that autojunk's popular rule fires.
  const small = ['a', 'b', 'é', ' ', '東', '😀', 'the', 'ab'];
  for (let i = 0; i < 60; i++) {
    const pieces = small.slice(0, 2 + (i % (small.length - 1)));
    pairs.push([randomText(random, 20 + Math.floor(random() * 260), pieces), randomText(random, 150 + Math.floor(random() * 200), pieces)]);
  }
  const shortPairs = pairs.filter(([a, b]) => codePointsOf(a).length * codePointsOf(b).length <= 2500);
  // Computed in beforeAll: a skipped describe's body still runs at collection, where python3 may be missing.
  let expected: { normalized: string[]; ratio: number[]; ratioNoJunk: number[]; lev: number[] };
  beforeAll(() => {
    expected = runPython(PYTHON, { texts, pairs, shortPairs }) as typeof expected;
  });

  test('the inputs reach the interesting cases', () => {
    expect(pairs.filter(([, b]) => codePointsOf(b).length >= 200).length).toBeGreaterThan(20);
    expect(expected.ratio.filter((r, i) => r !== expected.ratioNoJunk[i]).length).toBeGreaterThan(5);
    expect(shortPairs.length).toBeGreaterThan(250);
    expect(texts.filter((t) => /\b(?:a|an|the)\b/i.test(t)).length).toBeGreaterThan(50);
  });

  test('normalizeAnswer equals the Python transcription on Python str.lower and re', () => {
    const mismatches = texts
      .map((t, i) => ({ t, got: normalizeAnswer(t), want: expected.normalized[i]! }))
      .filter((x) => x.got !== x.want);
    expect(mismatches.slice(0, 5)).toEqual([]);
  });

  test('editSimilarity equals difflib.SequenceMatcher(None, a, b).ratio(), with and without autojunk', () => {
    const bad: string[] = [];
    pairs.forEach(([a, b], i) => {
      if (editSimilarity(a, b) !== expected.ratio[i]) bad.push(`#${i} autojunk ${editSimilarity(a, b)} != ${expected.ratio[i]}`);
      const off = editSimilarity(a, b, { autojunk: false });
      if (off !== expected.ratioNoJunk[i]) bad.push(`#${i} no autojunk ${off} != ${expected.ratioNoJunk[i]}`);
    });
    expect(bad.slice(0, 5)).toEqual([]);
  });

  test('editDistance equals a Python DP on code points (short pairs) and the TS DP (all pairs)', () => {
    expect(shortPairs.map(([a, b]) => editDistance(a, b))).toEqual(expected.lev);
    for (const [a, b] of pairs) expect(editDistance(a, b)).toBe(levenshteinDp(codePointsOf(a), codePointsOf(b)));
  });

  // Python 3.12+ ships newer Unicode tables than the reference's 3.11: the every-code-point check needs Unicode 14.
  test.skipIf(pythonUnicode !== '14.0.0')('the Unicode-14 word class and lower-casing equal Python 3.11 for every code point', { timeout: 60_000 }, () => {
    const py = runPython(PYTHON_UNICODE, null) as { word: Array<[number, number]>; lower: Record<string, string> };
    const word = new RegExp(`^${PY_WORD_CLASS_V}$`, 'v');
    const pyWord = new Uint8Array(0x110000);
    for (const [a, b] of py.word) pyWord.fill(1, a, b + 1);
    const wordMismatch: number[] = [];
    const lowerMismatch: number[] = [];
    for (let c = 0; c < 0x110000; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      const ch = String.fromCodePoint(c);
      if (word.test(ch) !== (pyWord[c] === 1)) wordMismatch.push(c);
      if (pythonLower(ch) !== (py.lower[c] ?? ch)) lowerMismatch.push(c);
    }
    expect(wordMismatch.slice(0, 10)).toEqual([]);
    expect(lowerMismatch.slice(0, 10)).toEqual([]);
  });
});
