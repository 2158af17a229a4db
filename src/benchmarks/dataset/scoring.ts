// One dataset item scored: the reply trimmed, then answer and targets normalised (eval.py's normalize_answer, or
// as they are) and every named metric taken against all targets by MultiLoKo's own scorer (eval.py's definitions).
import { scoreExample, scoreNormalizedExample } from '../../metrics/scoreExample.ts';
import { errorCategory, type ErrorCategory } from '../../metrics/errorCategory.ts';
import type { DatasetMetric, Normalization } from './options.ts';

/** How a metric is shown and tested: its label, its scale's top (chrF and BLEU are on 0–100), proportion or mean. */
interface MetricInfo {
  label: string;
  top: number;
  kind: 'proportion' | 'mean';
}

export const METRIC_INFO: Record<DatasetMetric, MetricInfo> = {
  em: { label: 'EM', top: 1, kind: 'proportion' },
  f1: { label: 'F1', top: 1, kind: 'mean' },
  chrf: { label: 'chrF', top: 100, kind: 'mean' },
  bleu: { label: 'BLEU', top: 100, kind: 'mean' },
  edit_similarity: { label: 'edit similarity', top: 1, kind: 'mean' },
};

interface ItemScores {
  /** The answer as scored (normalised). */
  prediction: string;
  /** The targets as scored (normalised). */
  targets: string[];
  scores: Partial<Record<DatasetMetric, number>>;
  /** MultiLoKo's error category of the scored strings (whatever metrics are named: edit similarity is computed anyway). */
  error: ErrorCategory;
}

export function scoreAnswer(reply: string, targets: readonly string[], metrics: readonly DatasetMetric[], normalize: Normalization): ItemScores {
  const answer = reply.trim();
  const scored = normalize === 'multiloko' ? scoreExample(answer, targets) : { prediction: answer, targets: [...targets], scores: scoreNormalizedExample(answer, targets) };
  const scores: Partial<Record<DatasetMetric, number>> = {};
  for (const m of metrics) scores[m] = scored.scores[m];
  return { prediction: scored.prediction, targets: scored.targets, scores, error: errorCategory(scored.prediction, scored.targets, scored.scores.edit_similarity) };
}
