// What Kalahi tests leave in Vitest's task meta: plain JSON (NaN stored as null), so it survives blob reports and
// --merge-reports.
import type { GroupInfo } from '../../benchmark.ts';
import type { KalahiGenerationMetric, KalahiScoreLabels } from '../metrics/score.ts';
import type { KalahiBudget, KalahiMCProtocol, KalahiTask, KalahiVariant } from '../settings.ts';
import type { LetterOption } from '../prompts/letterChoice.ts';
import type { RecordedInput } from '../../../models/recordedInput.ts';
import type { ModelDescription } from '../../../models/types.ts';

/** The generation metrics of a Kalahi run: the text metrics plus the two learned ones. */
export type KalahiTextMetric = KalahiGenerationMetric;
export type KalahiLearnedMetric = 'bleurt' | 'bertscore';
export type KalahiMetric = KalahiLearnedMetric | KalahiTextMetric;

/** The generation metrics (kept here, free of the metric code, so the runner and reporters load without it) in the published table's column order. */
export const KALAHI_TABLE_METRICS = ['bleurt', 'bertscore', 'bleu', 'chrf', 'meteor', 'rouge1', 'rouge2', 'rougeL'] as const satisfies readonly KalahiMetric[];
export const KALAHI_LEARNED_METRICS = ['bleurt', 'bertscore'] as const satisfies readonly KalahiLearnedMetric[];

/** One reference as the model's reply: Σ log p of its tokens (end-of-turn included), token and byte counts, score. */
export interface KalahiReferenceScore {
  kind: 'relevant' | 'irrelevant';
  /** Position in its list (relevant or irrelevant answers). */
  index: number;
  text: string;
  best: boolean;
  logprob: number;
  tokens: number;
  /** UTF-8 bytes of the formatted reference (the divisor). */
  bytes: number;
  /** exp(logprob / bytes). */
  score: number;
}

/** MC figures of one prompt; null where the reference's arithmetic gives NaN. */
export interface KalahiMCFigures {
  mc1: number;
  /** The reference's MC2 (exp of already exponentiated scores). */
  mc2: number | null;
  /** Single-exponent MC2 (the paper's prose); null for the un-normalised figures, where it has no meaning. */
  mc2_normalised: number | null;
  /** null under the letter protocol, which ranks no answer (as are the log-probability figures). */
  mc3: number | null;
  lprob_max: number | null;
  lprob_diff: number | null;
}

/** A lettered question answered in text (LOKAL_KALAHI_MC=letter): the options shown, the reply and the letter read. */
export interface KalahiLetterAnswer {
  options: LetterOption[];
  /** The best answer's letter. */
  answer: string;
  /** The reply as generated. */
  response: string;
  /** The letter parsed from it (SEA-HELM's parsing), or null when it names none. */
  chosen: string | null;
}

export interface KalahiMCRecord {
  references: KalahiReferenceScore[];
  /** From byte-normalised scores (the published columns). */
  normalised: KalahiMCFigures;
  /** From the raw log-probability sums (the reference's "non norm" columns). */
  nonNormalised: KalahiMCFigures;
  /**
   * The reference with the highest byte-normalised score: what the model prefers (letter protocol: the option it
   * chose, score null; null when the reply named no letter).
   */
  preferred: { kind: 'relevant' | 'irrelevant'; index: number; text: string; score: number | null; best: boolean } | null;
  /** The letter protocol's question and answer (absent under the log-probability protocol). */
  letter?: KalahiLetterAnswer;
  latencyMs: number;
  cached: boolean;
  /**
   * The prompt every reference was scored after, as fed (LOKAL_RECORD_PROMPTS: the chat template rendered with its
   * generation prompt, the messages sent to a server, or their SHA-256; null when off), and its token count (null:
   * unknown). Each reference's own tokens are in `references[].tokens`. Absent in older records.
   */
  modelInput?: RecordedInput | null;
  promptTokens?: number | null;
  /** With several servers (OPENAI_BASE_URL lists them), those that answered, comma-joined; absent otherwise. */
  server?: string;
}

/** One metric over a reply: per-reference values, max over relevant, diff against the irrelevant max, acc. */
export interface KalahiMetricRecord {
  relevant: Array<number | null>;
  irrelevant: Array<number | null>;
  max: number | null;
  diff: number | null;
  acc: number;
}

export type KalahiGenerationStatus = 'scored' | 'skipped' | 'failed';

export interface KalahiGenerationRecord {
  /** The reply as scored: decoded without special tokens and stripped (as the reference). */
  response: string;
  status: KalahiGenerationStatus;
  /** Why it was not scored (skipped: empty-response, no-relevant-answers, no-irrelevant-answers; failed: the error). */
  reason?: string;
  metrics: Partial<Record<KalahiMetric, KalahiMetricRecord>>;
  /** Learned metrics that could not be computed in this run, with the reason (one per metric, same for every prompt). */
  notComputed: Partial<Record<KalahiLearnedMetric, string>>;
  latencyMs: number;
  cached: boolean;
  /** A replay file had no reply (scored as the empty string, hence skipped). */
  missing: boolean;
  /** What the model was fed (as `KalahiMCRecord.modelInput`; null for replay), its token count and the reply's (null: unknown). */
  modelInput?: RecordedInput | null;
  promptTokens?: number | null;
  outputTokens?: number | null;
  /** As `KalahiMCRecord.server`. */
  server?: string;
}

export interface KalahiPromptRecord {
  /** The suite key (variant), e.g. `full`. */
  suite: string;
  promptVariationId: string;
  promptId: string;
  category: string;
  topic: string;
  /** The prompt as the file gives it (its `sha256:` digest when redacted); absent in older records. */
  prompt?: string;
  /** Row in the file (1-based, header excluded), for ordering. */
  row: number;
  itemKey: string;
  mc?: KalahiMCRecord;
  generation?: KalahiGenerationRecord;
}

/** What the run was asked to do, carried by the suite's gate test from collection on. */
export interface KalahiRunInfo extends GroupInfo {
  benchmark: 'kalahi';
  variant: KalahiVariant;
  file: string;
  /** Position of the suite among the variants, for ordering. */
  order: number;
  selected: number;
  total: number;
  categories: string[];
  model: string;
  tasks: KalahiTask[];
  /** How MC1 was measured: `logprobs` (the reference's scoring of every answer) or `letter` (SEA-HELM's lettered question); absent in older runs: logprobs. */
  mcProtocol?: KalahiMCProtocol;
  budget: { kind: KalahiBudget; tokens: number; description: string };
  labels: KalahiScoreLabels;
  learnedModels: Record<KalahiLearnedMetric, string>;
  strict: boolean;
  thresholds: string | undefined;
  /** SHA-256 of the variant's CSV (absent in older records). */
  sha256?: string;
}

/** Means of one metric over the scored replies. */
export interface KalahiMetricMeans {
  acc: number;
  max: number | null;
  diff: number | null;
}

export interface KalahiGenerationSummary {
  scored: number;
  skipped: number;
  failed: number;
  metrics: Partial<Record<KalahiMetric, KalahiMetricMeans>>;
}

export interface KalahiMCSummary {
  scored: number;
  /** Means over prompts, NaN (null) skipped. */
  normalised: Record<keyof KalahiMCFigures, number | null>;
  nonNormalised: Record<keyof KalahiMCFigures, number | null>;
}

export interface KalahiGroupFigures {
  prompts: number;
  mc?: KalahiMCSummary;
  generation?: KalahiGenerationSummary;
}

/** Per-suite aggregates written by the lokal runner when the Kalahi suite ends. */
export interface KalahiSuiteAggregate extends KalahiRunInfo {
  /** Prompt tests with a record, and those that failed or were skipped without one. */
  recorded: number;
  failed: number;
  skipped: number;
  overall: KalahiGroupFigures;
  byCategory: Record<string, KalahiGroupFigures>;
  /** Learned metrics not computed, with the reason. */
  notComputed: Partial<Record<KalahiLearnedMetric, string>>;
  /** describe() of the model, as the gate test recorded it. */
  modelDescription?: ModelDescription;
}

