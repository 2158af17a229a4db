// sacrebleu sentence_bleu (docs/metrics.md#sentence-bleu): 13a, `exp` smoothing, effective order on by default, 0-100 scale.
import { MetricsError } from './errors.ts';
import { NgramTrie } from './ngramTrie.ts';
import { pythonSum, type PythonSumMode } from '../core/python/pythonSum.ts';
import { pythonRstrip } from '../core/python/pythonWhitespace.ts';
import { tokens13a } from '../core/python/tokenize13a.ts';

export interface SentenceBleuOptions {
  /** sacrebleu `use_effective_order` (default true, as in sentence_bleu). */
  effectiveOrder?: boolean;
  /** How the log precisions are summed: Python ≤ 3.11 'fold' (default) or ≥ 3.12 'neumaier'. */
  sum?: PythonSumMode;
}

const MAX_ORDER = 4;
// sacrebleu's my_log(0.0): only reachable with effective order off.
const LOG_ZERO = -9999999999;

/** sacrebleu's preprocessing of one segment: rstrip (Python whitespace), then 13a tokens. */
export function bleuTokens(segment: string): string[] {
  return tokens13a(pythonRstrip(segment));
}

const trie = new NgramTrie();
// Scratch buffers indexed by trie node id (kept at zero between calls) and by token position.
let hypCount = new Int32Array(1024);
let refCount = new Int32Array(1024);
let merged = new Int32Array(1024);
let distinct = new Int32Array(1024);
let touched = new Int32Array(1024);
let layer = new Int32Array(256);

/**
 * correct_n for n = 1..4 (sum over the hypothesis' distinct n-grams of min(its count, its largest count in one
 * reference)) into `correct`, with the hypothesis' n-grams interned as trie nodes over token ids.
 */
function countMatchesInterned(hypTokens: readonly string[], refTokens: ReadonlyArray<readonly string[]>, correct: number[]): void {
  // Hypothesis n-grams (orders 1..4) as trie nodes over token ids; counts and the distinct nodes of each order.
  const sysLen = hypTokens.length;
  const tokenIds = new Map<string, number>();
  const bound = trie.reset(MAX_ORDER * sysLen) + 1;
  if (hypCount.length < bound) {
    hypCount = new Int32Array(bound);
    refCount = new Int32Array(bound);
    merged = new Int32Array(bound);
    distinct = new Int32Array(bound);
    touched = new Int32Array(bound);
  }
  const ensureLayer = (n: number) => {
    if (layer.length < n) layer = new Int32Array(n);
  };
  ensureLayer(sysLen);
  for (let i = 0; i < sysLen; i++) {
    const t = hypTokens[i]!;
    let id = tokenIds.get(t);
    if (id === undefined) tokenIds.set(t, (id = tokenIds.size + 1));
    layer[i] = 0;
  }
  const distinctEnd = [0, 0, 0, 0];
  let nDistinct = 0;
  for (let n = 1; n <= MAX_ORDER; n++) {
    for (let i = 0; i + n <= sysLen; i++) {
      const id = trie.child(layer[i]!, tokenIds.get(hypTokens[i + n - 1]!)!);
      layer[i] = id;
      if (hypCount[id]++ === 0) distinct[nDistinct++] = id;
    }
    distinctEnd[n - 1] = nDistinct;
  }

  // References: lengths, and per hypothesis n-gram the maximum count over references (other n-grams cannot match).
  for (let r = 0; r < refTokens.length; r++) {
    const tokens = refTokens[r]!;
    ensureLayer(tokens.length);
    for (let i = 0; i < tokens.length; i++) layer[i] = 0;
    let nTouched = 0;
    for (let n = 1; n <= MAX_ORDER; n++) {
      for (let i = 0; i + n <= tokens.length; i++) {
        const parent = layer[i]!;
        const symbol = parent < 0 ? undefined : tokenIds.get(tokens[i + n - 1]!);
        const id = symbol === undefined ? -1 : trie.find(parent, symbol) || -1;
        layer[i] = id;
        if (id > 0 && refCount[id]++ === 0) touched[nTouched++] = id;
      }
    }
    for (let k = 0; k < nTouched; k++) {
      const id = touched[k]!;
      if (refCount[id]! > merged[id]!) merged[id] = refCount[id]!;
      refCount[id] = 0;
    }
  }

  // correct_n = sum over hypothesis n-grams of min(count, merged count); total_n = max(0, c - n + 1).
  let from = 0;
  for (let n = 1; n <= MAX_ORDER; n++) {
    for (let k = from; k < distinctEnd[n - 1]!; k++) {
      const id = distinct[k]!;
      const h = hypCount[id]!;
      const m = merged[id]!;
      correct[n - 1] += h < m ? h : m;
      hypCount[id] = 0;
      merged[id] = 0;
    }
    from = distinctEnd[n - 1]!;
  }
}

/** Hypotheses of at most this many tokens are counted by direct comparison (no Map, no trie: cheaper when short). */
const SHORT_HYPOTHESIS = 24;

/** Whether tokens a[i..i+n) equal b[j..j+n). */
function sameNgram(a: readonly string[], i: number, b: readonly string[], j: number, n: number): boolean {
  for (let k = 0; k < n; k++) if (a[i + k] !== b[j + k]) return false;
  return true;
}

/** countMatchesInterned's numbers by direct comparison of token windows, for short hypotheses. */
function countMatchesDirect(hyp: readonly string[], refTokens: ReadonlyArray<readonly string[]>, correct: number[]): void {
  const sysLen = hyp.length;
  for (let n = 1; n <= MAX_ORDER; n++) {
    let matched = 0;
    next: for (let i = 0; i + n <= sysLen; i++) {
      // Each distinct n-gram once, at its first position.
      for (let p = 0; p < i; p++) if (sameNgram(hyp, p, hyp, i, n)) continue next;
      let count = 1;
      for (let p = i + 1; p + n <= sysLen; p++) if (sameNgram(hyp, p, hyp, i, n)) count++;
      let most = 0;
      for (let r = 0; r < refTokens.length; r++) {
        const ref = refTokens[r]!;
        let inRef = 0;
        for (let p = 0; p + n <= ref.length; p++) if (sameNgram(ref, p, hyp, i, n)) inRef++;
        if (inRef > most) most = inRef;
      }
      matched += count < most ? count : most;
    }
    correct[n - 1] = matched;
  }
}

/** Sentence BLEU of `hyp` against `refs` (sacrebleu 2.x), on the 0-100 scale. */
export function sentenceBleu(hyp: string, refs: readonly string[], opts: SentenceBleuOptions = {}): number {
  if (typeof hyp !== 'string') throw new TypeError(`sentenceBleu: hypothesis must be a string, got ${typeof hyp}`);
  if (!Array.isArray(refs)) throw new TypeError(`sentenceBleu: references must be an array, got ${typeof refs}`);
  if (refs.length === 0) throw new MetricsError('sentenceBleu: no references given', 'refs');
  // push, not map(): one array kind whether or not V8 has optimised the caller (see scoreExample).
  const refTokens: string[][] = [];
  for (let r = 0; r < refs.length; r++) refTokens.push(bleuTokens(refs[r]!));
  return sentenceBleuOfTokens(bleuTokens(hyp), refTokens, opts);
}

// tokens13a's own shortcut test: without an ASCII punctuation character, 13a (after rstrip) is the whitespace split.
const ASCII_PUNCTUATION = /[\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]/;

/** `bleuTokens(segment)` given the segment's Python whitespace split, which it is unless 13a has punctuation to cut. */
export function bleuTokensWithSplit(segment: string, split: string[]): string[] {
  return ASCII_PUNCTUATION.test(segment) ? bleuTokens(segment) : split;
}

/** sentenceBleu on segments already tokenised by bleuTokens (at least one reference). */
export function sentenceBleuOfTokens(hypTokens: readonly string[], refTokens: ReadonlyArray<readonly string[]>, opts: SentenceBleuOptions = {}): number {
  if (refTokens.length === 0) throw new MetricsError('sentenceBleu: no references given', 'refs');
  const effectiveOrder = opts.effectiveOrder ?? true;
  const sysLen = hypTokens.length;
  const correct = [0, 0, 0, 0];
  const total = [0, 0, 0, 0];
  for (let n = 1; n <= MAX_ORDER; n++) total[n - 1] = Math.max(0, sysLen - n + 1);
  if (sysLen <= SHORT_HYPOTHESIS) countMatchesDirect(hypTokens, refTokens, correct);
  else countMatchesInterned(hypTokens, refTokens, correct);

  // The closest reference length (ties: the shorter).
  let refLen = refTokens[0]!.length;
  let closestDiff = Math.abs(refLen - sysLen);
  for (let i = 1; i < refTokens.length; i++) {
    const len = refTokens[i]!.length;
    const diff = Math.abs(len - sysLen);
    if (diff < closestDiff) {
      closestDiff = diff;
      refLen = len;
    } else if (diff === closestDiff && len < refLen) refLen = len;
  }

  if (correct[0] === 0 && correct[1] === 0 && correct[2] === 0 && correct[3] === 0) return 0.0;
  const bp = sysLen < refLen ? (sysLen > 0 ? Math.exp(1 - refLen / sysLen) : 0.0) : 1.0;

  const precisions = [0.0, 0.0, 0.0, 0.0];
  let smooth = 1.0;
  let order = MAX_ORDER;
  for (let n = 1; n <= MAX_ORDER; n++) {
    if (total[n - 1] === 0) break;
    if (effectiveOrder) order = n;
    if (correct[n - 1] === 0) {
      smooth *= 2;
      precisions[n - 1] = 100 / (smooth * total[n - 1]!);
    } else {
      precisions[n - 1] = (100 * correct[n - 1]!) / total[n - 1]!;
    }
  }
  const logs: number[] = [];
  for (let n = 0; n < order; n++) logs.push(precisions[n] === 0 ? LOG_ZERO : Math.log(precisions[n]!));
  return bp * Math.exp(pythonSum(logs, opts.sum ?? 'fold') / order);
}
