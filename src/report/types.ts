// What the report reads: the results files as written by a run (or by `lokal score`), of the types their schemas give
// (loose where a report may be made from an older or newer file than this code).
import type { GroupsResultsJson } from './groupsResults.ts';
import type { MultiLoKoResultsJson } from '../benchmarks/multiloko/resultsSchema.ts';
import type { KalahiResultsJson } from '../benchmarks/kalahi/resultsSchema.ts';

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
