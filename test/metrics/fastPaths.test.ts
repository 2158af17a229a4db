// The fast paths against straightforward second implementations: the 13a shortcut against the full 13a steps, the
// interned chrF statistics against substring-keyed n-gram counting, sentence BLEU against a plain transcription of
// docs/metrics.md#sentence-bleu with string keys, Levenshtein's private-use mapping and DP fallback against the DP, and the exact-match
// shortcut of scoreNormalizedExample against each metric in full.
import { describe, expect, test } from 'vitest';
import {
  chrfFromStatistics, chrfNgrams, chrfScore, chrfStatistics, codePointsOf, editDistance, exactMatch, levenshteinDp,
  pythonSplit, scoreNormalizedExample, sentenceBleu, sequenceMatcherRatio, tokenF1, tokens13a, tokens13aFull,
} from '../../src/metrics/index.ts';
import { chrfCharStatistics } from '../../src/metrics/chrfScore.ts';
import { toPrivateUsePair } from '../../src/metrics/editDistance.ts';
import { randomText, seeded } from './randomStrings.ts';
import { plainBleu } from '../support/plainBleu.ts';

const random = seeded(777);
const WORDS = ['the', 'cat', 'sat', 'a', 'mat', 'Roma', 'città', '東京', '😀', 'x', '3.5', '1,000', 'e.g.', "it's", '(hi)', '-', 'a-b', '&amp;'];
const sentence = () => randomText(random, Math.floor(random() * 12), [...WORDS.map((w) => w + ' '), ...WORDS]);
const pairs = Array.from({ length: 400 }, () => ({
  hyp: random() < 0.5 ? sentence() : randomText(random, Math.floor(random() * 14)),
  refs: Array.from({ length: 1 + Math.floor(random() * 3) }, () => (random() < 0.5 ? sentence() : randomText(random, Math.floor(random() * 14)))),
}));


describe('13a shortcut', () => {
  test('text without ASCII punctuation: the full steps equal a whitespace split', () => {
    for (const { hyp, refs } of pairs) {
      for (const s of [hyp, ...refs]) {
        expect(tokens13a(s)).toEqual(tokens13aFull(s));
        if (!/[\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]/.test(s)) expect(tokens13aFull(s)).toEqual(pythonSplit(s));
      }
    }
  });
});

describe('chrF', () => {
  test('interned character statistics equal substring-keyed counting', () => {
    for (const { hyp, refs } of pairs) {
      const h = chrfNgrams(hyp);
      expect(chrfCharStatistics(hyp, refs)).toEqual(refs.map((r) => chrfStatistics(h, chrfNgrams(r))));
    }
  });
  test('chrfScore (chrF and chrF++, with and without eps smoothing) is the best single-reference score', () => {
    for (const { hyp, refs } of pairs) {
      for (const wordOrder of [0, 2]) {
        for (const epsSmoothing of [false, true]) {
          const h = chrfNgrams(hyp, wordOrder);
          const scores = refs.map((r) => chrfFromStatistics(chrfStatistics(h, chrfNgrams(r, wordOrder)), epsSmoothing));
          expect(chrfScore(hyp, refs, { wordOrder, epsSmoothing })).toBe(Math.max(...scores));
        }
      }
    }
  });
  test('bad arguments raise, as sacrebleu does', () => {
    expect(() => chrfScore('a', [])).toThrow(/no references/);
    expect(() => chrfScore(3 as unknown as string, ['a'])).toThrow(TypeError);
    expect(() => chrfScore('a', 'a' as unknown as string[])).toThrow(TypeError);
  });
});

describe('sentence BLEU', () => {
  test('equals the plain transcription of sentence BLEU (same operations, so exactly)', () => {
    for (const { hyp, refs } of pairs) {
      expect(sentenceBleu(hyp, refs)).toBe(plainBleu(hyp, refs));
      expect(sentenceBleu(hyp, refs, { effectiveOrder: false })).toBe(plainBleu(hyp, refs, false));
    }
    expect(pairs.filter(({ hyp, refs }) => sentenceBleu(hyp, refs) > 0).length).toBeGreaterThan(50);
  });
  test("'neumaier' summation differs from the fold only in the last bits", () => {
    for (const { hyp, refs } of pairs) {
      expect(Math.abs(sentenceBleu(hyp, refs, { sum: 'neumaier' }) - sentenceBleu(hyp, refs))).toBeLessThanOrEqual(1e-12);
    }
  });
});

describe('Levenshtein on code points', () => {
  test('private-use mapping path equals the DP on astral-heavy random pairs', () => {
    for (const { hyp, refs } of pairs) {
      for (const r of refs) expect(editDistance(hyp, r)).toBe(levenshteinDp(codePointsOf(hyp), codePointsOf(r)));
    }
  });
  test('long pairs (bit-parallel blocks beyond 32 and 64 units) equal the DP', () => {
    for (let i = 0; i < 40; i++) {
      // half BMP-only (fastest-levenshtein on the string itself), half with astral code points (private-use mapping)
      const alphabet = i % 2 ? ['a', 'b', 'c', 'é', '東'] : ['a', 'b', 'c', '😀', '東'];
      const a = randomText(random, 20 + Math.floor(random() * 200), alphabet);
      const b = randomText(random, 20 + Math.floor(random() * 200), alphabet);
      expect(editDistance(a, b)).toBe(levenshteinDp(codePointsOf(a), codePointsOf(b)));
    }
  });
  test('more distinct code points than the private-use area: the DP fallback', () => {
    // 6,450 distinct astral code points, every 100th (65 of them) replaced by a code point absent from a: each new one
    // needs an edit and 65 substitutions suffice, so the distance is 65; 6,515 distinct code points exceed 6,400 slots.
    const a = Array.from({ length: 6450 }, (_, i) => String.fromCodePoint(0x20000 + i));
    const b = a.map((ch, i) => (i % 100 === 0 ? String.fromCodePoint(0x30000 + i) : ch));
    expect(b.filter((ch, i) => ch !== a[i]).length).toBe(65);
    expect(toPrivateUsePair(a.join(''), b.join(''))).toBeUndefined();
    expect(editDistance(a.join(''), b.join(''))).toBe(65);
  });
});

describe('exact-match shortcut of scoreNormalizedExample', () => {
  // Where the prediction is one of the targets, the example's values are taken as the metrics' bounds (distance 0,
  // SequenceMatcher 1.0, chrF 100, token F1 1.0): here each is computed in full by the metric itself instead.
  const full = (pred: string, targets: string[]) => ({
    em: exactMatch(pred, targets),
    f1: tokenF1(pred, targets),
    bleu: sentenceBleu(pred, targets),
    chrf: chrfScore(pred, targets),
    edit_distance: Math.min(...targets.map((t) => editDistance(pred, t))),
    edit_similarity: Math.max(...targets.map((t) => sequenceMatcherRatio(codePointsOf(pred), codePointsOf(t)))),
    edit_distance_first: editDistance(pred, targets[0]!),
  });
  const special = [
    '', ' ', '\u3000 \u00a0', // no non-whitespace character: chrF and F1 are 0, not their bounds
    'a'.repeat(300), // 200 elements and more: difflib's autojunk makes `a` popular (still ratio 1.0 with itself)
    'ab'.repeat(120), randomText(random, 260, ['a', 'b', 'c', ' ', '😀']),
  ];
  test('equals every metric computed in full, wherever the identical target sits', () => {
    const cases = [...special, ...pairs.map((p) => p.hyp)];
    for (const [k, pred] of cases.entries()) {
      const others = pairs[k % pairs.length]!.refs;
      for (let at = 0; at <= others.length; at++) {
        const targets = [...others.slice(0, at), pred, ...others.slice(at)];
        expect(scoreNormalizedExample(pred, targets), JSON.stringify({ pred, targets })).toEqual(full(pred, targets));
      }
    }
    // the cases reach both sides of each bound (difflib: ratio 1.0 for 'a' * 300 with itself, 1/301 against a shift)
    expect(full('a'.repeat(300), ['a'.repeat(300)]).edit_similarity).toBe(1);
    expect(sequenceMatcherRatio(codePointsOf('x' + 'a'.repeat(300)), codePointsOf('a'.repeat(300) + 'x'))).toBe(2 / 602);
    expect(full(' ', [' ']).chrf).toBe(0);
    expect(full(' ', [' ']).f1).toBe(0);
    expect(full('x', ['x']).chrf).toBe(100);
  });
});
