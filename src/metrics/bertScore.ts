// BERTScore's greedy matching (bert_score 0.3.x `greedy_cos_idf` for one candidate/reference pair, idf off) on given
// token embeddings: pure, so it can be checked by hand. The embeddings come from src/models/encoders/bertScorer.ts.

export interface TokenEmbeddings {
  /** One contextual vector per token, in sequence order, special tokens ([CLS]/[SEP] or <s>/</s>) included. */
  vectors: ArrayLike<number>[];
  /** Weight of each token in the averages; bert_score with idf off: 0 for the cls/sep token ids, 1 otherwise. */
  weights: number[];
}

export interface BertScoreResult {
  precision: number;
  recall: number;
  f1: number;
}

/**
 * bert_score's weights with idf off (`idf_dict` defaulting to 1, with the tokenizer's sep and cls token ids set to 0):
 * decided by id, so those ids weigh 0 wherever they occur.
 */
export function bertScoreWeights(ids: readonly number[], zeroWeightIds: readonly number[]): number[] {
  const zero = new Set(zeroWeightIds);
  return ids.map((id) => (zero.has(id) ? 0 : 1));
}

function unitVectors(e: TokenEmbeddings, what: string): Float64Array[] {
  if (e.vectors.length !== e.weights.length)
    throw new Error(`${what}: ${e.vectors.length} token vectors but ${e.weights.length} weights`);
  return e.vectors.map((v) => {
    let norm = 0;
    for (let i = 0; i < v.length; i++) norm += v[i]! * v[i]!;
    norm = Math.sqrt(norm);
    const out = new Float64Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = v[i]! / norm; // a zero vector gives NaN, as in bert_score
    return out;
  });
}

/** Σ_i (w_i / Σw) · x_i, bert_score's order of operations (normalise the weights, then a weighted sum). */
function weightedMean(values: Float64Array, weights: readonly number[]): number {
  let total = 0;
  for (const w of weights) total += w;
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += (weights[i]! / total) * values[i]!;
  return sum;
}

/**
 * Precision, recall and F1 of one candidate against one reference:
 * - every vector is L2-normalised, sim[i][j] = cosine of candidate token i and reference token j;
 * - P = weighted mean over candidate tokens of max_j sim[i][j], R = weighted mean over reference tokens of
 *   max_i sim[i][j]; the maxima range over all tokens, special ones included (only their weights are 0);
 * - F = 2PR / (P + R), 0 where that is NaN;
 * - bert_score's empty-sentence rule: a sequence of exactly 2 tokens ([CLS] [SEP]) sets P and R to 0.
 * No padding takes part (Kalahi scores one pair per call), so negative maxima stay negative.
 */
export function bertScoreFromEmbeddings(candidate: TokenEmbeddings, reference: TokenEmbeddings): BertScoreResult {
  const c = unitVectors(candidate, 'candidate');
  const r = unitVectors(reference, 'reference');
  if (c.length === 0 || r.length === 0) throw new Error('BERTScore needs at least one token on each side (the special tokens count)');
  const dim = c[0]!.length;
  for (const v of [...c, ...r]) if (v.length !== dim) throw new Error(`token vectors of different sizes (${dim} and ${v.length})`);
  const bestForCandidate = new Float64Array(c.length).fill(-Infinity);
  const bestForReference = new Float64Array(r.length).fill(-Infinity);
  for (let i = 0; i < c.length; i++) {
    for (let j = 0; j < r.length; j++) {
      let dot = 0;
      for (let k = 0; k < dim; k++) dot += c[i]![k]! * r[j]![k]!;
      // NaN (zero vectors) wins the comparison as torch.max propagates NaN
      if (dot > bestForCandidate[i]! || Number.isNaN(dot)) bestForCandidate[i] = dot;
      if (dot > bestForReference[j]! || Number.isNaN(dot)) bestForReference[j] = dot;
    }
  }
  let precision = weightedMean(bestForCandidate, candidate.weights);
  let recall = weightedMean(bestForReference, reference.weights);
  let f1 = (2 * precision * recall) / (precision + recall);
  if (c.length === 2 || r.length === 2) precision = recall = 0;
  if (Number.isNaN(f1)) f1 = 0;
  return { precision, recall, f1 };
}
