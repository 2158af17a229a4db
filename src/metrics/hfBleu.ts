// Hugging Face `evaluate` "bleu": tensorflow/nmt compute_bleu on HF's copy of 13a (docs/metrics.md#hf-bleu).
import { tokens13a } from '../core/python/tokenize13a.ts';
import { pythonSum } from '../core/python/pythonSum.ts';

/** Python's ZeroDivisionError of compute_bleu (empty prediction, or a reference with no tokens). */
export class BleuZeroDivisionError extends Error {
  constructor(readonly translationLength: number, readonly referenceLength: number) {
    super(
      referenceLength === 0
        ? 'HF BLEU: ZeroDivisionError (the shortest reference has no tokens: reference_length 0)'
        : 'HF BLEU: ZeroDivisionError (the prediction has no tokens: length ratio 0)',
    );
    this.name = 'BleuZeroDivisionError';
  }
}

interface HfBleuResult {
  bleu: number;
  precisions: number[];
  brevity_penalty: number;
  length_ratio: number;
  translation_length: number;
  reference_length: number;
}

/** HF evaluate's Tokenizer13a: sacrebleu 13a without the preceding rstrip, as a token list (the shared 13a code). */
export function hfTokenize13a(line: string): string[] {
  return tokens13a(line);
}

function ngramCounts(tokens: readonly string[], maxOrder: number): Map<string, { order: number; count: number }> {
  const counts = new Map<string, { order: number; count: number }>();
  for (let order = 1; order <= maxOrder; order++) {
    for (let i = 0; i + order <= tokens.length; i++) {
      // Tokens never contain whitespace, so a space-joined key is unambiguous (the order is part of the key too).
      const key = `${order}\u0000${tokens.slice(i, i + order).join(' ')}`;
      const entry = counts.get(key);
      if (entry) entry.count++;
      else counts.set(key, { order, count: 1 });
    }
  }
  return counts;
}

/**
 * Corpus BLEU as HF evaluate computes it: predictions[i] against references[i] (a string is wrapped as one reference).
 * Throws BleuZeroDivisionError where the reference raises ZeroDivisionError.
 */
export function hfBleu(
  predictions: readonly string[],
  references: ReadonlyArray<string | readonly string[]>,
  opts: { maxOrder?: number; smooth?: boolean; sum?: 'fold' | 'neumaier' } = {},
): HfBleuResult {
  const maxOrder = opts.maxOrder ?? 4;
  if (predictions.length !== references.length) {
    throw new Error(`HF BLEU: ${predictions.length} predictions but ${references.length} reference lists`);
  }
  const matches = new Array<number>(maxOrder).fill(0);
  const possible = new Array<number>(maxOrder).fill(0);
  let referenceLength = 0;
  let translationLength = 0;
  for (let k = 0; k < predictions.length; k++) {
    const refEntry = references[k]!;
    const refs = (typeof refEntry === 'string' ? [refEntry] : refEntry).map(hfTokenize13a);
    if (refs.length === 0) throw new Error(`HF BLEU: prediction ${k} has an empty reference list (Python min() of nothing)`);
    const translation = hfTokenize13a(predictions[k]!);
    referenceLength += Math.min(...refs.map((r) => r.length));
    translationLength += translation.length;
    const merged = new Map<string, { order: number; count: number }>();
    for (const ref of refs) {
      for (const [key, entry] of ngramCounts(ref, maxOrder)) {
        const held = merged.get(key);
        if (!held || held.count < entry.count) merged.set(key, { order: entry.order, count: entry.count });
      }
    }
    for (const [key, entry] of ngramCounts(translation, maxOrder)) {
      const ref = merged.get(key);
      if (ref) matches[entry.order - 1]! += Math.min(entry.count, ref.count);
    }
    for (let order = 1; order <= maxOrder; order++) {
      const n = translation.length - order + 1;
      if (n > 0) possible[order - 1]! += n;
    }
  }
  const precisions = new Array<number>(maxOrder).fill(0);
  for (let i = 0; i < maxOrder; i++) {
    if (opts.smooth) precisions[i] = (matches[i]! + 1) / (possible[i]! + 1);
    else precisions[i] = possible[i]! > 0 ? matches[i]! / possible[i]! : 0.0;
  }
  let geoMean = 0;
  if (Math.min(...precisions) > 0) {
    geoMean = Math.exp(pythonSum(precisions.map((p) => (1 / maxOrder) * Math.log(p)), opts.sum ?? 'fold'));
  }
  if (referenceLength === 0) throw new BleuZeroDivisionError(translationLength, referenceLength);
  const ratio = translationLength / referenceLength;
  if (ratio === 0) throw new BleuZeroDivisionError(translationLength, referenceLength);
  const bp = ratio > 1.0 ? 1.0 : Math.exp(1 - 1 / ratio);
  return {
    bleu: geoMean * bp,
    precisions,
    brevity_penalty: bp,
    length_ratio: ratio,
    translation_length: translationLength,
    reference_length: referenceLength,
  };
}
