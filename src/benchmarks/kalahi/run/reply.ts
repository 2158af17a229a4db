// One reply scored against a prompt's references, as Kalahi's generation task does (docs/metrics.md#open-ended-scoring): the text metrics
// by scoreKalahiResponse, the learned ones (BLEURT, BERTScore) per reference here, each reduced to max / diff / acc.
// Shared by the Vitest path and `lokal kalahi score`, so both give the same numbers for the same replies.
import type { KalahiRow } from '../data/kalahi.ts';
import { maxDiffAcc, scoreKalahiResponse, type KalahiMetricScore } from '../metrics/score.ts';
import type { LearnedScorers } from './learned.ts';
import { KALAHI_LEARNED_METRICS, KALAHI_TABLE_METRICS, type KalahiGenerationRecord, type KalahiLearnedMetric, type KalahiMetric, type KalahiMetricRecord } from './records.ts';
import type { KalahiChrf } from '../settings.ts';


/** JSON has no NaN: stored as null. */
export function finiteOrNull(value: number): number | null {
  return Number.isNaN(value) ? null : value;
}

/** max over relevant (NaN-ignoring), diff = max − max over irrelevant, acc = 1 when max relevant > max irrelevant. */
export function metricRecord(relevant: number[], irrelevant: number[]): KalahiMetricRecord {
  return fromScore(maxDiffAcc(relevant, irrelevant));
}

function fromScore(score: KalahiMetricScore): KalahiMetricRecord {
  return {
    relevant: score.relevant.map(finiteOrNull),
    irrelevant: score.irrelevant.map(finiteOrNull),
    max: finiteOrNull(score.max),
    diff: finiteOrNull(score.diff),
    acc: score.acc,
  };
}

export interface ReplyScoreOptions {
  chrf: KalahiChrf;
  /** Learned scorers; absent: the learned metrics are not part of this scoring at all. */
  learned?: LearnedScorers;
}

export type ReplyScore = Pick<KalahiGenerationRecord, 'status' | 'reason' | 'metrics' | 'notComputed'>;

/** Scores a reply (already stripped) of one prompt; a skipped or failed reply has no metrics, as in the reference. */
export async function scoreKalahiReply(row: KalahiRow, response: string, options: ReplyScoreOptions): Promise<ReplyScore> {
  const notComputed: ReplyScore['notComputed'] = {};
  for (const metric of KALAHI_LEARNED_METRICS) {
    const scorer = options.learned?.[metric];
    if (scorer && !scorer.available) notComputed[metric] = scorer.reason;
  }
  const text = scoreKalahiResponse(row, response, { chrfWordOrder: options.chrf === 'chrf++' ? 2 : 0 });
  if (text.status === 'skipped') return { status: 'skipped', reason: text.reason, metrics: {}, notComputed };
  if (text.status === 'failed') return { status: 'failed', reason: `${text.errorName}: ${text.error}`, metrics: {}, notComputed };

  const byMetric: Partial<Record<KalahiMetric, KalahiMetricRecord>> = {};
  for (const metric of KALAHI_LEARNED_METRICS) {
    const scorer = options.learned?.[metric];
    if (!scorer?.available) continue;
    const scores = await scorer.score(response, [...row.relevantAnswers, ...row.irrelevantAnswers]);
    byMetric[metric] = metricRecord(scores.slice(0, row.relevantAnswers.length), scores.slice(row.relevantAnswers.length));
  }
  for (const [metric, score] of Object.entries(text.metrics)) byMetric[metric as KalahiMetric] = fromScore(score);
  // Table order, whatever order they were computed in.
  const metrics: Partial<Record<KalahiMetric, KalahiMetricRecord>> = {};
  for (const metric of KALAHI_TABLE_METRICS) if (byMetric[metric]) metrics[metric] = byMetric[metric];
  return { status: 'scored', metrics, notComputed };
}
