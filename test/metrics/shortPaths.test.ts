// The short-input paths of sentence BLEU (n-grams counted by direct comparison up to 24 hypothesis tokens), of token
// F1 (common tokens counted directly up to 24 tokens a side) and of SequenceMatcher (longest matches by direct scan up
// to 4,096 cells) against plain transcriptions of sacrebleu, eval.py's _f1 and CPython's difflib, on inputs on both
// sides of each threshold, so both paths of each metric are held to one reference.
import { describe, expect, test } from 'vitest';
import { bleuTokens, matchingCharacters, sentenceBleu, tokenF1Single } from '../../src/metrics/index.ts';
import { plainBleu } from '../support/plainBleu.ts';
import { seededRandom } from '../support/seededRandom.ts';

const random = seededRandom(2468);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

/** CPython difflib's get_matching_blocks size sum, transcribed with dicts (Lib/difflib.py, isjunk None). */
function plainMatching(a: number[], b: number[], autojunk = true): number {
  const b2j = new Map<number, number[]>();
  b.forEach((x, j) => (b2j.get(x) ?? b2j.set(x, []).get(x)!).push(j));
  if (autojunk && b.length >= 200) {
    const ntest = Math.floor(b.length / 100) + 1;
    for (const [x, js] of [...b2j]) if (js.length > ntest) b2j.delete(x);
  }
  const longest = (alo: number, ahi: number, blo: number, bhi: number): [number, number, number] => {
    let [besti, bestj, bestsize] = [alo, blo, 0];
    let j2len = new Map<number, number>();
    for (let i = alo; i < ahi; i++) {
      const next = new Map<number, number>();
      for (const j of b2j.get(a[i]!) ?? []) {
        if (j < blo) continue;
        if (j >= bhi) break;
        const k = (j2len.get(j) ?? 0) + 1;
        next.set(j + 1, k);
        if (k > bestsize) [besti, bestj, bestsize] = [i - k + 1, j - k + 1, k];
      }
      j2len = next;
    }
    while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) [besti, bestj, bestsize] = [besti - 1, bestj - 1, bestsize + 1];
    while (besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] === b[bestj + bestsize]) bestsize++;
    return [besti, bestj, bestsize];
  };
  let matches = 0;
  const queue: Array<[number, number, number, number]> = [[0, a.length, 0, b.length]];
  while (queue.length) {
    const [alo, ahi, blo, bhi] = queue.pop()!;
    const [i, j, k] = longest(alo, ahi, blo, bhi);
    if (k) {
      matches += k;
      if (alo < i && blo < j) queue.push([alo, i, blo, j]);
      if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
    }
  }
  return matches;
}

describe('sentence BLEU: direct counting (≤ 24 tokens) and interned counting agree with the plain transcription', () => {
  const WORDS = ['the', 'cat', 'sat', 'on', 'mat', 'a', 'Roma', 'città', '東京', '😀', '3.5', '1,000', '(x)', 'e.g.', '-'];
  const sentence = (words: number) => Array.from({ length: words }, () => pick(WORDS)).join(' ');

  test('hypotheses from 0 to 40 tokens, one to three references, repeated n-grams', () => {
    const lengths = new Set<number>();
    for (let i = 0; i < 600; i++) {
      const hyp = sentence(Math.floor(random() * 41));
      const refs = Array.from({ length: 1 + Math.floor(random() * 3) }, () => sentence(Math.floor(random() * 40)));
      lengths.add(bleuTokens(hyp).length > 24 ? 1 : 0);
      expect(sentenceBleu(hyp, refs), JSON.stringify([hyp, refs])).toBe(plainBleu(hyp, refs));
    }
    expect(lengths).toEqual(new Set([0, 1]));
  });
});

describe('SequenceMatcher: direct longest-match scan and the b2j index agree with difflib transcribed', () => {
  test('short and long code-point sequences, with and without autojunk, on both sides of 4,096 cells and 200 elements', () => {
    const paths = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const alphabet = 1 + Math.floor(random() * 8);
      const seq = (n: number) => Array.from({ length: n }, () => 97 + Math.floor(random() * alphabet));
      const la = Math.floor(random() * (random() < 0.7 ? 70 : 400));
      const lb = Math.floor(random() * (random() < 0.7 ? 70 : 400));
      const a = seq(la);
      const b = seq(lb);
      const autojunk = random() < 0.7;
      paths.add(la * lb <= 4096 && !(autojunk && lb >= 200) ? 'direct' : 'indexed');
      expect(matchingCharacters(a, b, autojunk), `${la}x${lb} autojunk=${autojunk}`).toBe(plainMatching(a, b, autojunk));
    }
    expect(paths).toEqual(new Set(['direct', 'indexed']));
  });
});

/** eval.py's _f1 with collections.Counter written as Maps: common = sum(min counts), then 2PR/(P+R). */
function plainF1(pred: string[], target: string[]): number {
  if (pred.length === 0 || target.length === 0) return 0;
  const counts = (tokens: string[]) => tokens.reduce((m, t) => m.set(t, (m.get(t) ?? 0) + 1), new Map<string, number>());
  const p = counts(pred);
  const t = counts(target);
  let same = 0;
  for (const [token, k] of p) same += Math.min(k, t.get(token) ?? 0);
  if (same === 0) return 0;
  const precision = same / pred.length;
  const recall = same / target.length;
  return (2 * precision * recall) / (precision + recall);
}

describe('token F1: direct counting (≤ 24 tokens a side) and Counter maps agree with the plain transcription', () => {
  test('token lists from 0 to 40 tokens with repeats', () => {
    const paths = new Set<string>();
    for (let i = 0; i < 800; i++) {
      const words = ['a', 'b', 'c', 'roma', 'città', '東京', 'x'].slice(0, 1 + Math.floor(random() * 7));
      const list = () => Array.from({ length: Math.floor(random() * 41) }, () => pick(words));
      const pred = list();
      const target = list();
      paths.add(pred.length <= 24 && target.length <= 24 ? 'direct' : 'maps');
      expect(tokenF1Single(pred, target), JSON.stringify([pred, target])).toBe(plainF1(pred, target));
    }
    expect(paths).toEqual(new Set(['direct', 'maps']));
  });
});
