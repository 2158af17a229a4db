// What the report reads: a run's results files, each benchmark's as its schema parses it (loose where a report may be
// made from an older or newer file than this code): those of the benchmarks with a section of their own (section.ts)
// by name, and those in the groups layout.
import type { GroupsResultsJson } from './groupsResults.ts';

/** The results of one run. */
export interface RunResults {
  /** The results of benchmarks with a report section of their own, by benchmark name (`multiloko` → multiloko.json). */
  benchmarks?: Readonly<Record<string, object>>;
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

/** Whether the run holds any results the report shows. */
export function holdsAny(results: RunResults): boolean {
  return Object.keys(results.benchmarks ?? {}).length > 0 || (results.others?.length ?? 0) > 0;
}
