// A benchmark's own section of the report: what the report shell (the page, the step summary, `lokal compare`) needs
// from a benchmark whose results file has a layout of its own. The shell knows no benchmark: whoever assembles a report
// (the run's end in src/run, `lokal compare`) passes it the sections of the registered benchmarks
// (src/benchmarks/index.ts reportSections()), each made in its benchmark's folder (e.g.
// src/benchmarks/multiloko/results/section/reportSection.ts). Benchmarks without one write their results in the groups layout
// (groupsResults.ts), which the shell renders itself.
//
// Markup crosses this interface as strings (built with escape.ts's `html`, so escaped already), not as Html: a
// benchmark's definition, and with it its section's modules, may come from another copy of the module graph than the
// shell's (the reporter process evaluates the sources more than once), whose Html class the shell would not know.
import type { z } from 'zod';
import type { Fingerprint } from '../core/fingerprint.ts';
import type { FigureRow } from './labelledRun.ts';

/** What every section is rendered with. */
export interface SectionOptions {
  /** Confidence of every interval. */
  confidence: number;
  /** The model's label in a run of several models (its tables are headed by it). */
  modelLabel?: string;
}

/** A gate as the page's verdict line names it: its figure, whether it was met, and the id of its row in the section. */
export interface SectionGate {
  figure: string;
  pass: boolean;
  id: string;
}

/** A benchmark's part of one HTML report, made from its results (and the baseline's). */
export interface HtmlSection {
  /** The models its results name, for the page's title and header. */
  models: string[];
  /** Its gates, in its order: the verdict line counts them and links to the missed ones. */
  gates: SectionGate[];
  /** false when the results say the run failed (a gate missed, or one that could not be judged). */
  gatesPassed?: boolean;
  /** Whether the baseline's results were shown beside the run's. */
  comparedWithBaseline: boolean;
  /** Its links in the page's navigation (markup). */
  nav: string;
  /** The section itself, as markup (asynchronous: its charts are rendered then). */
  body(): Promise<string>;
}

/** A benchmark's part of `lokal compare`: its figures of every run side by side, each later run tested against the first. */
export interface SectionRuns {
  /** Figures left out as not comparable, one line each naming what would compare them. */
  leftOut: string[];
  /** What is set side by side; undefined when nothing is left to (every later run lost its figures to leftOut). */
  shown?: SectionRunsShown;
}

export interface SectionRunsShown {
  /** Each figure's value in every run, and each later run's paired test against the first. */
  rows: FigureRow[];
  /** The terminal's lines: a blank line, the table's heading, the table. */
  text: string[];
  /** Its section of compare.html, as markup. */
  html(): Promise<string>;
}

/**
 * One benchmark's results file and its place in the report. `Results` is what its zod schema parses the file to: the
 * writer writes that layout and every reader (report, step summary, `lokal compare`, the baseline) reads it through it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface ReportSection<Results extends object = any> {
  /** The benchmark's name: its results' key in RunResults, what a results file's `benchmark` field names. */
  name: string;
  /** Display name (`MultiLoKo`): the page's header, the verdict line's incomplete groups, error messages. */
  title: string;
  /** The results file's name in a results folder (`multiloko.json`). */
  resultsFile: string;
  /** Other files read as this benchmark's results, for error messages (`` `lokal score` output``). */
  alsoReads?: readonly string[];
  /** The results file's zod schema. */
  schema: z.ZodType<Results>;
  /** Whether an object holds this benchmark's results (a lone file given to the report is read by the section that does). */
  recognises(value: Record<string, unknown>): boolean;
  /** What `recognises` looks for, for the error naming a file nothing recognises (`"variants"`). */
  recognisedBy: string;
  /** Asked after the other sections, for a lone file that names no benchmark: MultiLoKo's (eval.py's layout has no marker of its own). */
  fallback?: boolean;
  /** The model the results name (for the labels of compared runs), if any. */
  model(results: Results): unknown;
  /** The results' fingerprint (`lokal compare` checks the runs are comparable); throws FingerprintError when malformed. */
  fingerprint(results: Results): Fingerprint | undefined;
  /** Its part of the HTML report. */
  html(results: Results, baseline: Results | undefined, options: SectionOptions): HtmlSection;
  /** Its part of the step summary (GitHub-flavoured Markdown), `alpha` the significance level of the changes it lists. */
  markdown(results: Results, baseline: Results | undefined, options: SectionOptions & { alpha: number }): string[];
  /** Hashes, in place, a baseline's recorded texts as a redacted run's own are (the shell hands it a copy). */
  redact(results: Results): void;
  /** Its part of `lokal compare` over the runs' results (undefined for a run without them), labelled as given. */
  compareRuns(runs: ReadonlyArray<Results | undefined>, labels: readonly string[], confidence: number): SectionRuns;
}

/** `a`, `a or b`, `a, b or c`: a list in an error message. */
export function orList(items: readonly string[]): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)!}`;
}
