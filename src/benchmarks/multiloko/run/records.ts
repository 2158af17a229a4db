// MultiLoKo's records: a subset's info, an item's record and a subset's aggregates (serialisable: they travel in
// Vitest's task meta, so they survive blob reports and --merge-reports).
import type { TrialSummary } from '../../../core/statistics/trialSummary.ts';
import type { GroupInfo } from '../../benchmark.ts';
import type { ExampleScores, MultiLoKoMetric } from '../../../metrics/metricNames.ts';
import type { ErrorCategory } from '../../../metrics/errorCategory.ts';
import type { ModelDescription } from '../../../models/types.ts';
import type { RecordedInput } from '../../../models/recordedInput.ts';

/** A subset as its gate test carries it from collection on (set even when tests are filtered out). */
export interface LokalSubsetInfo extends GroupInfo {
  benchmark: 'multiloko';
  /** eval.py language key. */
  key: string;
  /** The describe name, e.g. `italian · local`, `italian → english · human`. */
  name: string;
  /** The subset's language for selection and tables: the non-English side. */
  language: string;
  sourceLanguage: string;
  questionLanguage: string;
  translated: boolean;
  translation?: 'human' | 'machine';
  /** Position of the subset in the whole dataset (stable across files and shards), for ordering. */
  order: number;
  split: string;
  /** Dataset location and the file of the subset in it. */
  location: string;
  file: string;
  /** SHA-256 of the subset file, and of the few-shot file of its question language (null: none); absent in older records. */
  sha256?: string;
  fewshotSha256?: string | null;
  /** Generation budget the items were asked with (absent in older records). */
  maxNewTokens?: number;
  /** Sampling and trials the items were asked with (docs/trials.md); absent for one greedy answer per item. */
  sampling?: SubsetSampling;
  /** Items selected for the run (after LOKAL_LIMIT) and in the file. */
  selected: number;
  total: number;
  model: string | undefined;
  strict: boolean;
  /** The gate settings the run used, so a later `--merge-reports` judges by the same ones. */
  thresholds: string | undefined;
  baseline: string | undefined;
  baselineTolerance: number;
  /** The baseline rule and its level and margin (absent in records of older runs: the defaults). */
  baselineMode?: 'significance' | 'tolerance';
  baselineAlpha?: number;
  baselineMargin?: number;
  /** Fingerprint fields whose difference from the baseline's is accepted (LOKAL_BASELINE_ALLOW). */
  baselineAllow?: string[];
}

/** How an item was asked: the official prompt used (or none: replay), its few-shot examples, and answer extraction. */
export interface LokalPromptUse {
  /** `none`: a replay file answered, no prompt was sent. */
  mode: 'base' | 'chat' | 'none';
  /** Language of the prompt (the questions' language); null without a prompt. */
  language: string | null;
  /** Where the base prompt's demonstrations came from (chat prompts are zero-shot: `none`). */
  fewshot: 'dataset' | 'official' | 'none';
  shots: number;
  /** The scored answer was extracted from the raw output (extractAnswer). */
  extracted: boolean;
}

/** One scored item, with everything the reporter and Vitest UI need. */
export interface LokalItemRecord {
  subset: string;
  id: string | number;
  /** Position of the item in its subset file, for ordering. */
  index: number;
  itemKey: string;
  /** The question as the data gives it (its `sha256:` digest when redacted); absent in older records and items without one. */
  question?: string;
  /** The model's raw output; the answer scored (extracted from it, or the raw output as is); that answer normalised (docs/metrics.md#normalisation). */
  rawPrediction: string;
  answer: string;
  prediction: string;
  prompt: LokalPromptUse;
  /** Normalised targets. */
  targets: string[];
  scores: ExampleScores;
  /** What kind of answer it was (errorCategory of prediction, targets and edit similarity); absent in older records. */
  error?: ErrorCategory;
  latencyMs: number;
  cached: boolean;
  /** The replay file had no answer: scored as the empty string. */
  missing: boolean;
  verdict: string;
  /**
   * What the model was fed (LOKAL_RECORD_PROMPTS: the prompt text or chat template rendered, the messages sent to a
   * server, or their SHA-256); null when nothing was sent (replay) or recording is off. Absent in older records.
   */
  modelInput?: RecordedInput | null;
  /** Tokens of that prompt and of the model's output, as the provider counts them; null when it does not know. */
  promptTokens?: number | null;
  outputTokens?: number | null;
  /** With several servers (OPENAI_BASE_URL lists them), the one that answered, without credentials or query; absent otherwise. */
  server?: string;
  /** chrF scored the first CHRF_MAX_HYPOTHESIS_CODE_POINTS of a longer prediction; absent otherwise. */
  truncated?: true;
  /** With more than one trial (LOKAL_TRIALS): every trial, in order; `scores` are then their means. Absent otherwise. */
  trials?: LokalTrialRecord[];
  /** With more than one trial: the trials asked (LOKAL_TRIALS), which a replay file may hold fewer of. Absent otherwise. */
  trialsAsked?: number;
  /** With more than one trial: the item's summary (docs/trials.md#per-item). Absent otherwise. */
  trialSummary?: LokalTrialSummary;
}

/** Per-subset aggregates written by the lokal runner when the subset's suite ends. */
export interface LokalSubsetAggregate extends LokalSubsetInfo {
  /** Items with a score (each id once: a repeated id counts once, its last record wins, as in eval.py). */
  scored: number;
  missing: number;
  /** Item tests that ended without a score (model errors) or were skipped or filtered out. */
  failed: number;
  skipped: number;
  /** Means of every metric over the scored items (eval.py's per-language figures); absent when nothing was scored. */
  means?: Record<MultiLoKoMetric | 'edit_distance_first', number> & { f1_words?: number };
  /** Items per error category over the same items as the means; absent when nothing was scored and in older records. */
  errors?: Record<ErrorCategory, number>;
  /** Scored items answered from the response cache, and those the model answered (with their summed latency: cache hits excluded). */
  cached: number;
  modelCalls: number;
  modelMs: number;
  /** The distinct ways the items were asked, with how many items each. */
  prompts: Array<LokalPromptUse & { items: number }>;
  /** describe() of the model, as the gate test recorded it. */
  modelDescription?: ModelDescription;
}

/** One trial of an item as its record keeps it. */
export interface LokalTrialRecord {
  /** 0-based trial index (the t of trialSeed). */
  trial: number;
  /** The seed the trial was asked with; absent when no base seed was set. */
  seed?: number;
  rawPrediction: string;
  answer: string;
  prediction: string;
  scores: ExampleScores;
  error?: ErrorCategory;
  latencyMs: number;
  cached: boolean;
  missing: boolean;
  outputTokens?: number | null;
}

/** The per-item summary written beside the trials (pass@k and pass^k for k = 1 … n). */
export type LokalTrialSummary = Omit<TrialSummary, 'means'> & { means: Record<string, number | null> };

/** How a subset's items were sampled: only the settings given (temperature absent: greedy), trials when above 1. */
export interface SubsetSampling {
  temperature?: number;
  top_p?: number;
  seed?: number;
  trials?: number;
}
