// Hugging Face `evaluate` "rouge" = google-research rouge_score 0.1.2, default tokenizer, no stemmer (docs/metrics.md#rouge).

interface RougeScores {
  rouge1: number;
  rouge2: number;
  rougeL: number;
  rougeLsum: number;
}

const ROUGE_TYPES = ['rouge1', 'rouge2', 'rougeL', 'rougeLsum'] as const;

/** rouge_score's tokenizer: lower-case, every run of non-[a-z0-9] becomes a separator. */
export function rougeTokenize(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .split(' ')
    .filter((token) => token.length > 0);
}

function fmeasure(precision: number, recall: number): number {
  return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0.0;
}

function ngramCounts(tokens: readonly string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i + n <= tokens.length; i++) {
    const key = tokens.slice(i, i + n).join(' ');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

function rougeN(target: readonly string[], prediction: readonly string[], n: number): number {
  const targetNgrams = ngramCounts(target, n);
  const predictionNgrams = ngramCounts(prediction, n);
  let overlap = 0;
  for (const [ngram, count] of targetNgrams) overlap += Math.min(count, predictionNgrams.get(ngram) ?? 0);
  let targetCount = 0;
  for (const c of targetNgrams.values()) targetCount += c;
  let predictionCount = 0;
  for (const c of predictionNgrams.values()) predictionCount += c;
  return fmeasure(overlap / Math.max(predictionCount, 1), overlap / Math.max(targetCount, 1));
}

function lcsTable(ref: readonly string[], can: readonly string[]): Int32Array[] {
  const rows = ref.length + 1;
  const cols = can.length + 1;
  const table: Int32Array[] = [];
  for (let i = 0; i < rows; i++) table.push(new Int32Array(cols));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      table[i]![j] = ref[i - 1] === can[j - 1] ? table[i - 1]![j - 1]! + 1 : Math.max(table[i - 1]![j]!, table[i]![j - 1]!);
    }
  }
  return table;
}

function rougeL(target: readonly string[], prediction: readonly string[]): number {
  if (target.length === 0 || prediction.length === 0) return 0.0;
  const lcs = lcsTable(target, prediction)[target.length]![prediction.length]!;
  return fmeasure(lcs / prediction.length, lcs / target.length);
}

/** rouge_score's _backtrack_norec: the reference indices of one LCS, with its tie-breaking. */
function lcsIndices(ref: readonly string[], can: readonly string[]): number[] {
  const table = lcsTable(ref, can);
  let i = ref.length;
  let j = can.length;
  const indices: number[] = [];
  while (i > 0 && j > 0) {
    if (ref[i - 1] === can[j - 1]) {
      indices.unshift(i - 1);
      i--;
      j--;
    } else if (table[i]![j - 1]! > table[i - 1]![j]!) j--;
    else i--;
  }
  return indices;
}

function summaryLines(text: string): string[] {
  return text.split('\n').filter((line) => line.length > 0);
}

function rougeLsum(targetText: string, predictionText: string): number {
  const refSents = summaryLines(targetText).map(rougeTokenize);
  const canSents = summaryLines(predictionText).map(rougeTokenize);
  if (refSents.length === 0 || canSents.length === 0) return 0.0;
  const m = refSents.reduce((acc, s) => acc + s.length, 0);
  const n = canSents.reduce((acc, s) => acc + s.length, 0);
  if (n === 0 || m === 0) return 0.0;
  const countsRef = new Map<string, number>();
  const countsCan = new Map<string, number>();
  for (const s of refSents) for (const t of s) countsRef.set(t, (countsRef.get(t) ?? 0) + 1);
  for (const s of canSents) for (const t of s) countsCan.set(t, (countsCan.get(t) ?? 0) + 1);
  let hits = 0;
  for (const r of refSents) {
    const union = new Set<number>();
    for (const c of canSents) for (const i of lcsIndices(r, c)) union.add(i);
    for (const i of [...union].sort((a, b) => a - b)) {
      const t = r[i]!;
      const inCan = countsCan.get(t) ?? 0;
      const inRef = countsRef.get(t) ?? 0;
      if (inCan > 0 && inRef > 0) {
        hits++;
        countsCan.set(t, inCan - 1);
        countsRef.set(t, inRef - 1);
      }
    }
  }
  return fmeasure(hits / n, hits / m);
}

/** F-measures of one prediction against one reference (HF rouge for a single pair returns exactly these). */
export function rougeScores(prediction: string, reference: string): RougeScores {
  const target = rougeTokenize(reference);
  const pred = rougeTokenize(prediction);
  return {
    rouge1: rougeN(target, pred, 1),
    rouge2: rougeN(target, pred, 2),
    rougeL: rougeL(target, pred),
    rougeLsum: rougeLsum(reference, prediction),
  };
}

/** Several references (rouge_score score_multi): per type the maximal F over the references. */
export function rougeScoresMulti(prediction: string, references: readonly string[]): RougeScores {
  if (references.length === 0) throw new Error('rougeScoresMulti: no references');
  const all = references.map((ref) => rougeScores(prediction, ref));
  const best = { ...all[0]! };
  for (const scores of all.slice(1)) {
    for (const type of ROUGE_TYPES) if (scores[type] > best[type]) best[type] = scores[type];
  }
  return best;
}
