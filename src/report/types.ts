// What the report reads: the parsed results files as written by a run (or by `lokal score`), typed loosely because a
// report may be made from an older or newer file than this code, and every field it does not need is left alone.
import type { GroupsResultsJson } from './groupsResults.ts';

/** One item of multiloko.json (eval.py's record, plus `missing`); the optional fields are shown when a file has them. */
export interface MultiLoKoItemJson {
  em?: number;
  f1?: number;
  bleu?: number;
  chrf?: number;
  edit_distance?: number;
  edit_similarity?: number;
  edit_distance_first?: number;
  targets?: unknown;
  prediction?: unknown;
  missing?: boolean;
  question?: unknown;
  raw_prediction?: unknown;
  rawPrediction?: unknown;
  answer?: unknown;
  prompt?: unknown;
  [key: string]: unknown;
}

export interface GateOutcomeJson {
  gate?: unknown;
  figure?: unknown;
  value?: unknown;
  op?: unknown;
  bound?: unknown;
  pass?: unknown;
  message?: unknown;
}

/** multiloko.json: language key → records and means, `group_metrics`, and (from a run, not `lokal score`) `summary`. */
export type MultiLoKoResultsJson = Record<string, unknown> & {
  summary?: {
    model?: unknown;
    split?: unknown;
    headline?: Record<string, unknown>;
    subsets?: Array<Record<string, unknown>>;
    gates?: GateOutcomeJson[];
    gates_not_applied?: unknown;
    gates_passed?: unknown;
    prompt?: Record<string, unknown>;
    items?: Record<string, unknown>;
    [key: string]: unknown;
  };
};

export interface KalahiMetricRecordJson {
  relevant?: Array<number | null>;
  irrelevant?: Array<number | null>;
  max?: number | null;
  diff?: number | null;
  acc?: number | null;
}

export interface KalahiRecordJson {
  suite?: string;
  promptVariationId?: unknown;
  promptId?: unknown;
  category?: unknown;
  topic?: unknown;
  row?: number;
  prompt?: unknown;
  mc?: {
    normalised?: Record<string, number | null>;
    nonNormalised?: Record<string, number | null>;
    preferred?: { kind?: unknown; index?: unknown; text?: unknown; best?: unknown; score?: unknown };
    references?: Array<{ kind?: unknown; index?: unknown; text?: unknown; best?: unknown; logprob?: unknown; score?: unknown }>;
    letter?: { options?: Array<{ letter?: unknown; text?: unknown }>; answer?: unknown; response?: unknown; chosen?: unknown };
  };
  generation?: {
    response?: unknown;
    status?: unknown;
    reason?: unknown;
    metrics?: Record<string, KalahiMetricRecordJson | undefined>;
    missing?: boolean;
  };
}

export interface KalahiGroupJson {
  prompts?: number;
  table?: { mc?: Record<string, number | null>; generation?: Record<string, number | null> };
  mc?: Record<string, unknown>;
  generation?: { scored?: number; skipped?: number; failed?: number; metrics?: Record<string, { acc?: number | null; max?: number | null; diff?: number | null } | undefined> };
}

export interface KalahiVariantJson extends KalahiGroupJson {
  file?: unknown;
  model?: unknown;
  tasks?: unknown;
  items?: Record<string, unknown>;
  settings?: { chrf?: unknown; rougeL?: unknown; learned?: Record<string, { model?: unknown; computed?: unknown; reason?: unknown }>; [key: string]: unknown };
  by_category?: Record<string, KalahiGroupJson>;
  records?: KalahiRecordJson[];
}

/** kalahi.json. */
export interface KalahiResultsJson {
  benchmark?: unknown;
  variants?: Record<string, KalahiVariantJson>;
  gates?: GateOutcomeJson[];
  gates_not_applied?: unknown;
  gates_passed?: unknown;
}

/** The results of one run: MultiLoKo's, Kalahi's, and those of other benchmarks in the groups layout. */
export interface RunResults {
  multiloko?: MultiLoKoResultsJson;
  kalahi?: KalahiResultsJson;
  /** Benchmarks whose results are in the groups layout (dataset benchmarks), in the run's order. */
  others?: GroupsResultsJson[];
}

export interface ReportInput extends RunResults {
  /** An earlier run (same layout) to compare with: items are paired by id. */
  baseline?: RunResults;
  /** Page title; default names the model(s). */
  title?: string;
  /** The model's label in a run of several models (`qwen3=replay:…`, or the shortest unique tail of its provider). */
  modelLabel?: string;
  /** Shown under the title when given (the report itself has no clock, so the same inputs give the same file). */
  generatedAt?: string;
  /** Confidence of every interval (default 0.95). */
  confidence?: number;
}
