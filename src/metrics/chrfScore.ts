// sacrebleu sentence_chrf (docs/metrics.md#chrf): character 6-grams (whitespace deleted), optional word n-grams (chrF++),
// beta 2, averaged precision and recall over effective orders, best single reference; 0-100 scale.
import { codePointOffsets } from '../core/python/codePoints.ts';
import { chrfWordTokens } from './chrfWordTokens.ts';
import { MetricsError } from './errors.ts';
import { NgramTrie } from './ngramTrie.ts';
import { deletePythonWhitespace, isPythonWhitespace } from '../core/python/pythonWhitespace.ts';

export interface ChrfOptions {
  /** Word n-gram order: 0 = chrF (default), 2 = chrF++. */
  wordOrder?: number;
  /** sacrebleu `eps_smoothing` (default false): per-order F averaged, with 1e-16 for undefined ratios. */
  epsSmoothing?: boolean;
  /** Longest hypothesis scored, in code points (default CHRF_MAX_HYPOTHESIS_CODE_POINTS; Infinity: no cap). */
  maxHypothesisCodePoints?: number;
}

/**
 * The cap on a hypothesis' length: a longer one is scored on its first 1,000,000 code points and flagged
 * (`chrfSentence(...).truncated`). Model outputs under any generation budget are far shorter; the cap only stops a
 * runaway output from costing seconds and gigabytes per item. Below it every score is exactly sacrebleu's.
 */
export const CHRF_MAX_HYPOTHESIS_CODE_POINTS = 1_000_000;

/** The first `max` code points of `text`, or undefined when it has no more than that. */
export function truncateCodePoints(text: string, max: number): string | undefined {
  if (text.length <= max) return undefined;
  let points = 0;
  for (let i = 0; i < text.length; i++) {
    if (points === max) return text.slice(0, i);
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    points++;
  }
  return undefined;
}

const CHAR_ORDER = 6;
const EPS = 1e-16;

/** n-gram multisets of one segment: per order (characters 1..6, then words 1..wordOrder) the counts and their total. */
export interface ChrfNgrams {
  counts: Map<string, number>[];
  totals: number[];
}

/** All n-grams of `segment` that chrF uses. */
export function chrfNgrams(segment: string, wordOrder = 0): ChrfNgrams {
  const counts: Map<string, number>[] = [];
  const totals: number[] = [];
  const chars = deletePythonWhitespace(segment);
  const offsets = codePointOffsets(chars);
  const len = offsets.length - 1;
  for (let n = 1; n <= CHAR_ORDER; n++) {
    const m = new Map<string, number>();
    for (let i = 0; i + n <= len; i++) {
      const key = chars.slice(offsets[i], offsets[i + n]);
      m.set(key, (m.get(key) ?? 0) + 1);
    }
    counts.push(m);
    totals.push(Math.max(0, len - n + 1));
  }
  if (wordOrder > 0) {
    const words = chrfWordTokens(segment);
    for (let n = 1; n <= wordOrder; n++) {
      const m = new Map<string, number>();
      for (let i = 0; i + n <= words.length; i++) {
        const key = words.slice(i, i + n).join(' ');
        m.set(key, (m.get(key) ?? 0) + 1);
      }
      counts.push(m);
      totals.push(Math.max(0, words.length - n + 1));
    }
  }
  return { counts, totals };
}

/** sacrebleu's statistics against one reference: [n_hyp, n_ref, n_match] per order, flattened. */
export function chrfStatistics(hyp: ChrfNgrams, ref: ChrfNgrams): number[] {
  const stats: number[] = [];
  for (let k = 0; k < hyp.counts.length; k++) {
    const refCounts = ref.counts[k]!;
    const refTotal = ref.totals[k]!;
    let match = 0;
    if (refTotal > 0) {
      for (const [key, count] of hyp.counts[k]!) {
        const other = refCounts.get(key);
        if (other !== undefined) match += count < other ? count : other;
      }
    }
    stats.push(refTotal > 0 ? hyp.totals[k]! : 0, refTotal, match);
  }
  return stats;
}

/** sacrebleu `_compute_f_score`: the chrF score (0-100) of one statistics vector; operation order kept. */
export function chrfFromStatistics(stats: readonly number[], epsSmoothing = false): number {
  const orders = stats.length / 3;
  if (orders === 0 || !Number.isInteger(orders)) {
    throw new MetricsError(`chrF: statistics must hold 3 numbers per order, got ${stats.length}`, 'stats');
  }
  let score = 0.0;
  let effective = 0;
  let avgPrec = 0.0;
  let avgRec = 0.0;
  for (let i = 0; i < orders; i++) {
    const nHyp = stats[3 * i]!;
    const nRef = stats[3 * i + 1]!;
    const nMatch = stats[3 * i + 2]!;
    const prec = nHyp > 0 ? nMatch / nHyp : EPS;
    const rec = nRef > 0 ? nMatch / nRef : EPS;
    if (epsSmoothing) {
      const denom = 4 * prec + rec;
      score += denom > 0 ? (5 * prec * rec) / denom : EPS;
    }
    if (nHyp > 0 && nRef > 0) {
      avgPrec += prec;
      avgRec += rec;
      effective++;
    }
  }
  if (epsSmoothing) return (100 * score) / orders;
  if (effective === 0) {
    avgPrec = 0.0;
    avgRec = 0.0;
  } else {
    avgPrec /= effective;
    avgRec /= effective;
  }
  if (avgPrec + avgRec === 0) return 0.0;
  return 100 * ((5 * avgPrec * avgRec) / (4 * avgPrec + avgRec));
}

const trie = new NgramTrie();
// Python whitespace test bound once: a direct call in the per-character loop below.
const isWhitespace = isPythonWhitespace;
// Scratch buffers (code points, n-gram ids, counts by n-gram id), kept at zero where it matters and grown on demand.
let points = new Int32Array(256);
let layer = new Int32Array(256);
let hypCount = new Int32Array(1024);
let refCount = new Int32Array(1024);
let distinct = new Int32Array(1024);

function growCounts(bound: number): void {
  if (hypCount.length < bound) {
    hypCount = new Int32Array(bound);
    refCount = new Int32Array(bound);
    distinct = new Int32Array(bound);
  }
}

/** Loads the code points of `text` minus Python whitespace into `points`; returns their number. */
function loadPoints(text: string): number {
  if (points.length < text.length) {
    points = new Int32Array(text.length);
    layer = new Int32Array(text.length);
  }
  let len = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (isWhitespace(unit)) continue;
    const c = text.codePointAt(i)!;
    if (c > 0xffff) i++;
    points[len++] = c;
  }
  return len;
}

/** [n_hyp, n_ref, n_match] for orders 1..6, zeroed: one allocation of its final size (push would grow it four times). */
function newCharStatistics(): number[] {
  return [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
}

/** Hypotheses longer than this (UTF-16 units) and than their references are counted against interned references. */
const LONG_HYPOTHESIS = 1 << 15;

/**
 * Character statistics (orders 1..6) of `hyp` against each reference: the numbers chrfStatistics gives, computed on
 * interned n-grams. A long hypothesis goes through chrfCharStatisticsStreaming (same numbers, memory bounded by
 * the references).
 */
export function chrfCharStatistics(hyp: string, refs: readonly string[]): number[][] {
  if (hyp.length > LONG_HYPOTHESIS) {
    let refUnits = 0;
    for (const ref of refs) refUnits += ref.length;
    if (hyp.length > refUnits) return chrfCharStatisticsStreaming(hyp, refs);
  }
  return chrfCharStatisticsInterned(hyp, refs);
}

/**
 * Interns the character n-grams (orders 1..6) of the loaded code points into the trie, counting each in `counts` and
 * listing each distinct id once in `distinct`; per order, how many n-grams there are and where its distinct ids end.
 */
function internLoaded(length: number, counts: Int32Array): { totals: number[]; distinctEnd: number[]; distinctCount: number } {
  const totals: number[] = [];
  const distinctEnd: number[] = [];
  let distinctCount = 0;
  layer.fill(0, 0, length);
  for (let n = 1; n <= CHAR_ORDER; n++) {
    const count = Math.max(0, length - n + 1);
    for (let i = 0; i < count; i++) {
      const id = trie.child(layer[i]!, points[i + n - 1]!);
      layer[i] = id;
      if (counts[id]++ === 0) distinct[distinctCount++] = id;
    }
    totals.push(count);
    distinctEnd.push(distinctCount);
  }
  return { totals, distinctEnd, distinctCount };
}

/**
 * Character statistics with the hypothesis' n-grams interned once (fast for short hypotheses and many references).
 * Only the hypothesis' n-grams enter the trie; a reference n-gram whose prefix is not a hypothesis
 * n-gram cannot match and is only counted.
 */
function chrfCharStatisticsInterned(hyp: string, refs: readonly string[]): number[][] {
  growCounts(trie.reset(CHAR_ORDER * hyp.length) + 1);
  const { totals: hypTotals, distinctEnd, distinctCount: nDistinct } = internLoaded(loadPoints(hyp), hypCount);

  const result: number[][] = [];
  for (let r = 0; r < refs.length; r++) {
    const refLen = loadPoints(refs[r]!);
    layer.fill(0, 0, refLen);
    const stats = newCharStatistics();
    let from = 0;
    for (let n = 1; n <= CHAR_ORDER; n++) {
      const count = Math.max(0, refLen - n + 1);
      for (let i = 0; i < count; i++) {
        const parent = layer[i]!;
        const id = parent < 0 ? -1 : trie.find(parent, points[i + n - 1]!) || -1;
        layer[i] = id;
        if (id > 0) refCount[id]++;
      }
      let match = 0;
      for (let k = from; k < distinctEnd[n - 1]!; k++) {
        const id = distinct[k]!;
        const h = hypCount[id]!;
        const o = refCount[id]!;
        match += h < o ? h : o;
      }
      for (let i = 0; i < count; i++) if (layer[i]! > 0) refCount[layer[i]!] = 0;
      from = distinctEnd[n - 1]!;
      stats[3 * n - 3] = count > 0 ? hypTotals[n - 1]! : 0;
      stats[3 * n - 2] = count;
      stats[3 * n - 1] = match;
    }
    result.push(stats);
  }
  for (let k = 0; k < nDistinct; k++) hypCount[distinct[k]!] = 0;
  return result;
}

/**
 * The same statistics as chrfCharStatistics with each reference's n-grams interned in turn and the hypothesis read
 * once per reference, keeping only the ids of its last six n-grams: memory grows with the references, never with the
 * hypothesis, and time linearly with both.
 */
export function chrfCharStatisticsStreaming(hyp: string, refs: readonly string[]): number[][] {
  const result: number[][] = [];
  // ending[n]: id of the n-gram ending at the previous code point (-1: none, or not a reference n-gram).
  const ending = new Int32Array(CHAR_ORDER + 1);
  for (const ref of refs) {
    growCounts(trie.reset(CHAR_ORDER * ref.length) + 1);
    const { totals: refTotals, distinctEnd, distinctCount: nDistinct } = internLoaded(loadPoints(ref), refCount);
    ending.fill(-1);
    let hypLen = 0;
    for (let i = 0; i < hyp.length; i++) {
      const unit = hyp.charCodeAt(i);
      if (isWhitespace(unit)) continue;
      const c = hyp.codePointAt(i)!;
      if (c > 0xffff) i++;
      // Longest first: each n-gram extends the (n-1)-gram that ended one code point earlier.
      for (let n = CHAR_ORDER; n >= 1; n--) {
        const parent = n === 1 ? 0 : ending[n - 1]!;
        const id = parent < 0 ? -1 : trie.find(parent, c) || -1;
        ending[n] = id;
        if (id > 0) hypCount[id]++;
      }
      hypLen++;
    }
    const stats: number[] = [];
    let from = 0;
    for (let n = 1; n <= CHAR_ORDER; n++) {
      let match = 0;
      for (let k = from; k < distinctEnd[n - 1]!; k++) {
        const id = distinct[k]!;
        const h = hypCount[id]!;
        const o = refCount[id]!;
        match += h < o ? h : o;
      }
      from = distinctEnd[n - 1]!;
      const count = refTotals[n - 1]!;
      stats.push(count > 0 ? Math.max(0, hypLen - n + 1) : 0, count, match);
    }
    for (let k = 0; k < nDistinct; k++) {
      hypCount[distinct[k]!] = 0;
      refCount[distinct[k]!] = 0;
    }
    result.push(stats);
  }
  return result;
}

/** Word n-gram statistics (orders 1..wordOrder) of `hyp` against each reference, for chrF++. */
function chrfWordStatistics(hyp: string, refs: readonly string[], wordOrder: number): number[][] {
  const words = (text: string): ChrfNgrams => {
    const { counts, totals } = chrfNgrams(text, wordOrder);
    return { counts: counts.slice(CHAR_ORDER), totals: totals.slice(CHAR_ORDER) };
  };
  const hypWords = words(hyp);
  return refs.map((ref) => chrfStatistics(hypWords, words(ref)));
}

interface ChrfResult {
  /** Sentence chrF, 0-100. */
  score: number;
  /** The statistics of the best reference ([n_hyp, n_ref, n_match] per order). */
  statistics: number[];
  /** The hypothesis was longer than the cap and was scored on its first maxHypothesisCodePoints code points. */
  truncated: boolean;
}

/** Sentence chrF with its statistics and whether the hypothesis was cut at the cap (callers record the flag). */
export function chrfSentence(hyp: string, refs: readonly string[], opts: ChrfOptions = {}): ChrfResult {
  if (typeof hyp !== 'string') throw new TypeError(`chrF: hypothesis must be a string, got ${typeof hyp}`);
  if (!Array.isArray(refs)) throw new TypeError(`chrF: references must be an array, got ${typeof refs}`);
  if (refs.length === 0) throw new MetricsError('chrF: no references given', 'refs');
  const wordOrder = opts.wordOrder ?? 0;
  if (!Number.isInteger(wordOrder) || wordOrder < 0) {
    throw new MetricsError(`chrF: wordOrder must be a non-negative integer, got ${wordOrder}`, 'wordOrder');
  }
  const cap = opts.maxHypothesisCodePoints ?? CHRF_MAX_HYPOTHESIS_CODE_POINTS;
  if (!(cap >= 0)) throw new MetricsError(`chrF: maxHypothesisCodePoints must be a non-negative number, got ${cap}`, 'maxHypothesisCodePoints');
  const cut = truncateCodePoints(hyp, cap);
  const text = cut ?? hyp;
  const eps = opts.epsSmoothing ?? false;
  const charStats = chrfCharStatistics(text, refs);
  const wordStats = wordOrder > 0 ? chrfWordStatistics(text, refs, wordOrder) : undefined;
  let best = -1.0;
  let bestStats: number[] = [];
  for (let r = 0; r < refs.length; r++) {
    const stats = wordStats ? charStats[r]!.concat(wordStats[r]!) : charStats[r]!;
    const f = chrfFromStatistics(stats, eps);
    if (f > best) {
      best = f;
      bestStats = stats;
    }
  }
  return { score: best, statistics: bestStats, truncated: cut !== undefined };
}

/** Sentence chrF (chrF++ with wordOrder 2) of `hyp` against `refs`: the best single-reference score. */
export function chrfScore(hyp: string, refs: readonly string[], opts: ChrfOptions = {}): number {
  return chrfSentence(hyp, refs, opts).score;
}
