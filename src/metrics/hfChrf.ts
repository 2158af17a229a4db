// Hugging Face `evaluate` "chrf" (docs/metrics.md#open-ended-scoring, #chrf): sacrebleu corpus chrF — each prediction's best-reference
// statistics (first reference with a strictly greater score, starting from −1) summed over predictions, one score
// from the sums. For one prediction it equals sentence chrF.
import { chrfFromStatistics, chrfNgrams, chrfStatistics } from './chrfScore.ts';

export function hfChrf(
  predictions: readonly string[],
  references: ReadonlyArray<string | readonly string[]>,
  opts: { wordOrder?: number } = {},
): number {
  const wordOrder = opts.wordOrder ?? 0;
  if (predictions.length !== references.length) {
    throw new Error(`HF chrF: ${predictions.length} predictions but ${references.length} reference lists`);
  }
  const lists = references.map((r) => (typeof r === 'string' ? [r] : [...r]));
  if (lists.some((l) => l.length === 0 || l.length !== lists[0]!.length)) {
    throw new Error('HF chrF: every prediction needs the same, non-zero number of references (ValueError in evaluate)');
  }
  let sums: number[] = [];
  predictions.forEach((hyp, i) => {
    const hypNgrams = chrfNgrams(hyp, wordOrder);
    let best = -1;
    let bestStats: number[] = [];
    for (const ref of lists[i]!) {
      const stats = chrfStatistics(hypNgrams, chrfNgrams(ref, wordOrder));
      const score = chrfFromStatistics(stats);
      if (score > best) {
        best = score;
        bestStats = stats;
      }
    }
    sums = sums.length === 0 ? [...bestStats] : sums.map((s, k) => s + bestStats[k]!);
  });
  return chrfFromStatistics(sums);
}
