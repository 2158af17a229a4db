// nltk 3.10.3 single_meteor_score and HF evaluate's "meteor" wrapper (docs/metrics.md#meteor).
import { porterStem } from './porter.ts';
import { sharedWordNet, type WordNet } from './wordnet.ts';
import { wordTokenize } from './wordTokenize.ts';

type Enum = Array<[position: number, word: string]>;
type Match = [hypothesisPosition: number, referencePosition: number];

interface MeteorOptions {
  alpha?: number;
  beta?: number;
  gamma?: number;
  wordnet?: WordNet;
}

/** Ascending reference positions of each word: popping gives the highest unmatched one, as nltk's index does. */
function positionsByWord(ref: Enum): Map<string, number[]> {
  const positions = new Map<string, number[]>();
  ref.forEach(([, word], j) => {
    const list = positions.get(word);
    if (list) list.push(j);
    else positions.set(word, [j]);
  });
  return positions;
}

/** nltk _match_enums: hypothesis items from last to first take the highest unmatched reference position of the same word. */
function matchEnums(hyp: Enum, ref: Enum): [Match[], Enum, Enum] {
  const positions = positionsByWord(ref);
  const matches: Match[] = [];
  const matchedHyp = new Set<number>();
  const matchedRef = new Set<number>();
  for (let i = hyp.length - 1; i >= 0; i--) {
    const list = positions.get(hyp[i]![1]);
    if (list && list.length > 0) {
      const j = list.pop()!;
      matchedHyp.add(i);
      matchedRef.add(j);
      matches.push([hyp[i]![0], ref[j]![0]]);
    }
  }
  return [matches, hyp.filter((_, i) => !matchedHyp.has(i)), ref.filter((_, j) => !matchedRef.has(j))];
}

function wordnetMatch(hyp: Enum, ref: Enum, wordnet: WordNet): [Match[], Enum, Enum] {
  const positions = positionsByWord(ref);
  const matches: Match[] = [];
  const matchedHyp = new Set<number>();
  const matchedRef = new Set<number>();
  for (let i = hyp.length - 1; i >= 0; i--) {
    const word = hyp[i]![1];
    const candidates = new Set(wordnet.synsetLemmaNamesOf(word).filter((name) => !name.includes('_')));
    candidates.add(word);
    let bestJ = -1;
    let bestWord: string | undefined;
    for (const candidate of candidates) {
      const list = positions.get(candidate);
      if (list && list.length > 0 && list[list.length - 1]! > bestJ) {
        bestJ = list[list.length - 1]!;
        bestWord = candidate;
      }
    }
    if (bestWord !== undefined) {
      positions.get(bestWord)!.pop();
      matchedHyp.add(i);
      matchedRef.add(bestJ);
      matches.push([hyp[i]![0], ref[bestJ]![0]]);
    }
  }
  return [matches, hyp.filter((_, i) => !matchedHyp.has(i)), ref.filter((_, j) => !matchedRef.has(j))];
}

/** Exact, then Porter-stem, then WordNet-synonym alignment; matches sorted by hypothesis position. */
export function meteorAlign(hypothesis: readonly string[], reference: readonly string[], wordnet: WordNet = sharedWordNet()): Match[] {
  const hyp: Enum = hypothesis.map((w, i) => [i, w.toLowerCase()]);
  const ref: Enum = reference.map((w, i) => [i, w.toLowerCase()]);
  const [exact, hyp1, ref1] = matchEnums(hyp, ref);
  // Unmatched items keep their stemmed strings for the WordNet stage.
  const stem = (e: Enum): Enum => e.map(([i, w]) => [i, porterStem(w)]);
  const [stemmed, hyp2, ref2] = matchEnums(stem(hyp1), stem(ref1));
  const [synonyms] = wordnetMatch(hyp2, ref2, wordnet);
  // Python's sorted() is stable; hypothesis positions are unique anyway.
  return [...exact, ...stemmed, ...synonyms].sort((a, b) => a[0] - b[0]);
}

function countChunks(matches: readonly Match[]): number {
  let chunks = 1;
  for (let i = 0; i < matches.length - 1; i++) {
    const consecutive = matches[i + 1]![0] === matches[i]![0] + 1 && matches[i + 1]![1] === matches[i]![1] + 1;
    if (!consecutive) chunks++;
  }
  return chunks;
}

/** x³ correctly rounded to the nearest double (ties to even), as glibc's pow(x, 3.0) gives it (docs/metrics.md#exactness). */
export function correctlyRoundedCube(x: number): number {
  if (!Number.isFinite(x) || x === 0) return x * x * x;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  const biasedExponent = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  // |x| = significand × 2^exponent with an integer significand.
  const significand = biasedExponent === 0 ? fraction : fraction | (1n << 52n);
  const exponent = (biasedExponent === 0 ? 1 : biasedExponent) - 1075;
  const cube = significand * significand * significand;
  const bitLength = cube.toString(2).length;
  let shift = Math.max(0, bitLength - 53);
  let rounded = cube >> BigInt(shift);
  if (shift > 0) {
    const remainder = cube & ((1n << BigInt(shift)) - 1n);
    const half = 1n << BigInt(shift - 1);
    if (remainder > half || (remainder === half && (rounded & 1n) === 1n)) rounded += 1n;
    if (rounded === 1n << 53n) {
      rounded >>= 1n;
      shift += 1;
    }
  }
  // Scale by 2^(3·exponent + shift) in two exact steps (each factor a normal power of two).
  const scale = 3 * exponent + shift;
  const half1 = Math.trunc(scale / 2);
  const result = Number(rounded) * powerOfTwo(half1) * powerOfTwo(scale - half1);
  return x < 0 ? -result : result;
}

/** 2^n exactly, built from its bit pattern (n within the normal exponent range). */
function powerOfTwo(n: number): number {
  if (n < -1022 || n > 1023) throw new RangeError(`2^${n} is outside the normal double range`);
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(n + 1023) << 52n);
  return view.getFloat64(0);
}

/** nltk single_meteor_score(reference, hypothesis) on pre-tokenised input. */
export function singleMeteorScore(reference: readonly string[], hypothesis: readonly string[], opts: MeteorOptions = {}): number {
  const alpha = opts.alpha ?? 0.9;
  const beta = opts.beta ?? 3;
  const gamma = opts.gamma ?? 0.5;
  const matches = meteorAlign(hypothesis, reference, opts.wordnet ?? sharedWordNet());
  const m = matches.length;
  // Python raises ZeroDivisionError on m = 0 or an empty side, which nltk turns into 0.0.
  if (m === 0 || hypothesis.length === 0 || reference.length === 0) return 0.0;
  const precision = m / hypothesis.length;
  const recall = m / reference.length;
  const fmean = (precision * recall) / (alpha * precision + (1 - alpha) * recall);
  const fragFrac = countChunks(matches) / m;
  const powered = beta === 3 ? correctlyRoundedCube(fragFrac) : fragFrac ** beta;
  const penalty = gamma * powered;
  return (1 - penalty) * fmean;
}

/** HF evaluate "meteor" for one prediction and one reference (word_tokenize both sides; the mean of one score is itself). */
export function meteor(prediction: string, reference: string, opts: MeteorOptions = {}): number {
  return singleMeteorScore(wordTokenize(reference), wordTokenize(prediction), opts);
}
