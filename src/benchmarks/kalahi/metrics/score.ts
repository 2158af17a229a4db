// Kalahi open-ended scoring of existing replies (docs/metrics.md#open-ended-scoring): every reference scored once with one prediction and
// one reference, max over relevant, diff against max over irrelevant, acc = max relevant > max irrelevant.
// BLEURT and BERTScore are model-based and plug in elsewhere; this module is model-free.
import { chrfScore } from '../../../metrics/chrfScore.ts';
import { BleuZeroDivisionError, hfBleu } from '../../../metrics/hfBleu.ts';
import { meteor } from '../../../metrics/meteor.ts';
import { rougeScores } from '../../../metrics/rouge.ts';

export const KALAHI_GENERATION_METRICS = ['bleu', 'rouge1', 'rouge2', 'rougeL', 'chrf', 'meteor'] as const;
export type KalahiGenerationMetric = (typeof KALAHI_GENERATION_METRICS)[number];

/** What scoreKalahiResponse needs of a prompt row (KalahiRow from ../data.ts fits). */
export interface KalahiScorableRow {
  promptVariationId: string;
  category: string;
  relevantAnswers: readonly string[];
  irrelevantAnswers: readonly string[];
}

export interface KalahiScoreOptions {
  /** 0 = chrF, what the reference code computes (default); 2 = chrF++, what the paper names. */
  chrfWordOrder?: 0 | 2;
  /** What the `rougeL` column holds: `rougeLsum` as the reference stores it (default) or plain `rougeL`. */
  rougeL?: 'rougeLsum' | 'rougeL';
  /** Summation of HF BLEU's log precisions: Python ≤ 3.11 plain fold (default) or ≥ 3.12 Neumaier. */
  bleuSum?: 'fold' | 'neumaier';
  /** Subset of metrics to compute (default all). */
  metrics?: readonly KalahiGenerationMetric[];
}

export interface KalahiMetricScore {
  /** One score per formatted relevant answer, in row order (BLEU/ROUGE/METEOR 0–1, chrF 0–100). */
  relevant: number[];
  irrelevant: number[];
  /** NaN-ignoring max over relevant. */
  max: number;
  /** max − NaN-ignoring max over irrelevant. */
  diff: number;
  /** 1 when max relevant > max irrelevant (strict), else 0. */
  acc: number;
}

export interface KalahiScoreLabels {
  /** Which ROUGE variant the `rougeL` column holds. */
  rougeL: 'rougeLsum' | 'rougeL';
  /** Which chrF the `chrf` column holds. */
  chrf: 'chrF' | 'chrF++';
}

export type KalahiResponseScore =
  | { status: 'scored'; promptVariationId: string; category: string; metrics: Partial<Record<KalahiGenerationMetric, KalahiMetricScore>>; labels: KalahiScoreLabels }
  | { status: 'skipped'; promptVariationId: string; category: string; reason: 'empty-response' | 'no-relevant-answers' | 'no-irrelevant-answers' }
  | { status: 'failed'; promptVariationId: string; category: string; error: string; errorName: string };

/** numpy nanmax: the largest non-NaN value, NaN when there is none. */
function nanMax(values: readonly number[]): number {
  let best = Number.NaN;
  for (const v of values) if (!Number.isNaN(v) && (Number.isNaN(best) || v > best)) best = v;
  return best;
}

/** Kalahi's reduction of one metric over a reply's references: max over relevant, diff = max − max over irrelevant
 * (both NaN-ignoring), acc = 1 when max relevant > max irrelevant (strict). */
export function maxDiffAcc(relevant: number[], irrelevant: number[]): KalahiMetricScore {
  const max = nanMax(relevant);
  const maxIrrelevant = nanMax(irrelevant);
  return { relevant, irrelevant, max, diff: max - maxIrrelevant, acc: max > maxIrrelevant ? 1 : 0 };
}

function labelsOf(opts: KalahiScoreOptions): KalahiScoreLabels {
  return { rougeL: opts.rougeL ?? 'rougeLsum', chrf: (opts.chrfWordOrder ?? 0) === 2 ? 'chrF++' : 'chrF' };
}

/** Scores of one reply against every reference of one metric family. */
function scoreReference(
  response: string,
  reference: string,
  metrics: ReadonlySet<KalahiGenerationMetric>,
  opts: KalahiScoreOptions,
): Partial<Record<KalahiGenerationMetric, number>> {
  const out: Partial<Record<KalahiGenerationMetric, number>> = {};
  if (metrics.has('bleu')) out.bleu = hfBleu([response], [reference], { sum: opts.bleuSum ?? 'fold' }).bleu;
  if (metrics.has('rouge1') || metrics.has('rouge2') || metrics.has('rougeL')) {
    const rouge = rougeScores(response, reference);
    if (metrics.has('rouge1')) out.rouge1 = rouge.rouge1;
    if (metrics.has('rouge2')) out.rouge2 = rouge.rouge2;
    if (metrics.has('rougeL')) out.rougeL = (opts.rougeL ?? 'rougeLsum') === 'rougeLsum' ? rouge.rougeLsum : rouge.rougeL;
  }
  if (metrics.has('chrf')) out.chrf = chrfScore(response, [reference], { wordOrder: opts.chrfWordOrder ?? 0 });
  if (metrics.has('meteor')) out.meteor = meteor(response, reference);
  return out;
}

/**
 * One reply against one prompt's references. An empty reply or an empty answer list is skipped (as the reference
 * does); an HF BLEU ZeroDivisionError fails this row only (documented deviation: the reference stops BLEU/ROUGE for
 * the remaining rows of that model).
 */
export function scoreKalahiResponse(row: KalahiScorableRow, response: string, opts: KalahiScoreOptions = {}): KalahiResponseScore {
  const base = { promptVariationId: row.promptVariationId, category: row.category };
  if (response.length === 0) return { ...base, status: 'skipped', reason: 'empty-response' };
  if (row.relevantAnswers.length === 0) return { ...base, status: 'skipped', reason: 'no-relevant-answers' };
  if (row.irrelevantAnswers.length === 0) return { ...base, status: 'skipped', reason: 'no-irrelevant-answers' };
  const wanted = new Set(opts.metrics ?? KALAHI_GENERATION_METRICS);
  let relevant: Array<Partial<Record<KalahiGenerationMetric, number>>>;
  let irrelevant: Array<Partial<Record<KalahiGenerationMetric, number>>>;
  try {
    relevant = row.relevantAnswers.map((ref) => scoreReference(response, ref, wanted, opts));
    irrelevant = row.irrelevantAnswers.map((ref) => scoreReference(response, ref, wanted, opts));
  } catch (error) {
    if (error instanceof BleuZeroDivisionError) return { ...base, status: 'failed', error: error.message, errorName: error.name };
    throw error;
  }
  const metrics: Partial<Record<KalahiGenerationMetric, KalahiMetricScore>> = {};
  for (const metric of KALAHI_GENERATION_METRICS) {
    if (!wanted.has(metric)) continue;
    metrics[metric] = maxDiffAcc(relevant.map((s) => s[metric]!), irrelevant.map((s) => s[metric]!));
  }
  return { ...base, status: 'scored', metrics, labels: labelsOf(opts) };
}

export interface KalahiResponseInput {
  prompt_variation_id: string;
  response: string;
  /** Line in the responses file, for messages. */
  line?: number;
}

export interface KalahiMetricSummary {
  /** Mean of the acc column over scored rows: the leaderboard figure. */
  acc: number;
  /** Plain means of the max and diff columns (extra). */
  maxMean: number;
  diffMean: number;
}

export interface KalahiGroupSummary {
  scored: number;
  skipped: number;
  failed: number;
  metrics: Partial<Record<KalahiGenerationMetric, KalahiMetricSummary>>;
}

export interface KalahiScoreReport {
  labels: KalahiScoreLabels;
  options: Required<Omit<KalahiScoreOptions, 'metrics'>> & { metrics: KalahiGenerationMetric[] };
  /** Leaderboard figures: mean acc per metric over all scored rows. */
  summary: KalahiGroupSummary;
  byCategory: Record<string, KalahiGroupSummary>;
  rows: KalahiResponseScore[];
  problems: {
    /** Rows of the dataset without a reply (not scored). */
    missing: string[];
    /** Replies whose prompt_variation_id is not in the dataset. */
    unknownIds: Array<{ promptVariationId: string; line?: number }>;
    /** Ids answered more than once (the last reply is scored). */
    duplicates: Array<{ promptVariationId: string; lines: Array<number | undefined> }>;
  };
}

function summarize(scores: readonly KalahiResponseScore[], metrics: readonly KalahiGenerationMetric[]): KalahiGroupSummary {
  const scored = scores.filter((s): s is Extract<KalahiResponseScore, { status: 'scored' }> => s.status === 'scored');
  const summary: KalahiGroupSummary = {
    scored: scored.length,
    skipped: scores.filter((s) => s.status === 'skipped').length,
    failed: scores.filter((s) => s.status === 'failed').length,
    metrics: {},
  };
  for (const metric of metrics) {
    // pandas mean skips NaN; acc is never NaN, max/diff can be only if a metric returned NaN.
    const mean = (values: number[]): number => {
      const kept = values.filter((v) => !Number.isNaN(v));
      let s = 0;
      for (const v of kept) s += v;
      return kept.length === 0 ? Number.NaN : s / kept.length;
    };
    summary.metrics[metric] = {
      acc: mean(scored.map((s) => s.metrics[metric]!.acc)),
      maxMean: mean(scored.map((s) => s.metrics[metric]!.max)),
      diffMean: mean(scored.map((s) => s.metrics[metric]!.diff)),
    };
  }
  return summary;
}

/** Scores a whole responses file against the dataset rows: what `lokal kalahi score` prints and writes. */
export function scoreKalahiResponses(
  rows: readonly KalahiScorableRow[],
  responses: readonly KalahiResponseInput[],
  opts: KalahiScoreOptions = {},
): KalahiScoreReport {
  const metrics = [...(opts.metrics ?? KALAHI_GENERATION_METRICS)];
  const known = new Set(rows.map((r) => r.promptVariationId));
  const byId = new Map<string, KalahiResponseInput>();
  const linesById = new Map<string, Array<number | undefined>>();
  const unknownIds: KalahiScoreReport['problems']['unknownIds'] = [];
  for (const reply of responses) {
    if (!known.has(reply.prompt_variation_id)) {
      unknownIds.push({ promptVariationId: reply.prompt_variation_id, ...(reply.line === undefined ? {} : { line: reply.line }) });
      continue;
    }
    byId.set(reply.prompt_variation_id, reply);
    linesById.set(reply.prompt_variation_id, [...(linesById.get(reply.prompt_variation_id) ?? []), reply.line]);
  }
  const duplicates = [...linesById].filter(([, lines]) => lines.length > 1).map(([promptVariationId, lines]) => ({ promptVariationId, lines }));
  const missing: string[] = [];
  const scores: KalahiResponseScore[] = [];
  for (const row of rows) {
    const reply = byId.get(row.promptVariationId);
    if (!reply) {
      missing.push(row.promptVariationId);
      continue;
    }
    scores.push(scoreKalahiResponse(row, reply.response, opts));
  }
  const categories = [...new Set(rows.map((r) => r.category))];
  const byCategory: Record<string, KalahiGroupSummary> = {};
  for (const category of categories) byCategory[category] = summarize(scores.filter((s) => s.category === category), metrics);
  return {
    labels: labelsOf(opts),
    options: { chrfWordOrder: opts.chrfWordOrder ?? 0, rougeL: opts.rougeL ?? 'rougeLsum', bleuSum: opts.bleuSum ?? 'fold', metrics },
    summary: summarize(scores, metrics),
    byCategory,
    rows: scores,
    problems: { missing, unknownIds, duplicates },
  };
}
