// What the reporter writes beside the results files once they are written: the HTML report (`<output>/report.html`
// unless LOKAL_REPORT moves it or says `off`) and, in a GitHub Actions job, the Markdown summary appended to the file
// GITHUB_STEP_SUMMARY names — each benchmark's part made by its report section, which the registry hands the report
// shell here. The report modules (vega) load only in runs that write a report, preloaded while the tests run.
import path from 'node:path';
import { reportSections } from '../benchmarks/index.ts';
import { appendFileOrRestore } from '../core/io.ts';
import { isGroupsResults } from '../report/groupsResults.ts';
import type { ReportSection } from '../report/section.ts';
import { holdsAny, type ReportInput, type RunResults } from '../report/types.ts';

export interface RunOutputsOptions {
  /** Results texts of this run, by benchmark name (those of a benchmark with a report section, and results in the groups layout, are shown). */
  results: ReadonlyMap<string, string>;
  /**
   * Incomplete results texts of this run (`complete: false`), by benchmark name: the report shows them under its
   * "Incomplete" verdict; the step summary, which has no such verdict, leaves them out.
   */
  incomplete?: ReadonlyMap<string, string> | undefined;
  /** What some of those texts are the JSON of, by benchmark name (used instead of parsing the text). */
  objects?: ReadonlyMap<string, object>;
  root: string;
  output: string;
  /** The `report` setting: `off`, a path (relative to the root), or undefined for `<output>/report.html`. */
  report: string | undefined;
  /** The baseline results file (LOKAL_BASELINE), relative to the root. */
  baseline: string | undefined;
  /** Redaction is on (LOKAL_REDACT): the baseline's texts are hashed as the run's are. */
  redact?: boolean;
  /** The file GITHUB_STEP_SUMMARY names, if any. */
  stepSummary: string | undefined;
  /** The model's label, in a run of several models (its report's heading names it). */
  modelLabel?: string;
  /** The benchmarks' report sections (default: the registered benchmarks', src/benchmarks/index.ts). */
  sections?: readonly ReportSection[];
  log(line: string): void;
}

interface RunOutputs {
  report?: string;
  stepSummary?: string;
}

/** Starts loading the report modules and the benchmarks' sections in the background (a failure surfaces, if ever, when the report is written). */
export function preloadReportModules(): void {
  import('../report/index.ts').catch(() => undefined);
  reportSections().catch(() => undefined);
}

/** Where the report goes, or undefined when it is turned off. */
export function reportPath(report: string | undefined, root: string, output: string): string | undefined {
  if (report !== undefined && report.toLowerCase() === 'off') return undefined;
  return path.resolve(root, report ?? path.join(output, 'report.html'));
}

/** The results texts written, as the report's input: those of the benchmarks with a section, and any benchmark's in the groups layout. */
export function runResults(results: ReadonlyMap<string, string>, sections: readonly ReportSection[], objects?: ReadonlyMap<string, object>): RunResults {
  const out: RunResults = {};
  const read = (name: string) => {
    const text = results.get(name);
    return text === undefined ? undefined : (objects?.get(name) ?? JSON.parse(text));
  };
  const benchmarks: Record<string, object> = {};
  for (const section of sections) {
    const value = read(section.name);
    if (value !== undefined) benchmarks[section.name] = value as object;
  }
  if (Object.keys(benchmarks).length > 0) out.benchmarks = benchmarks;
  const own = new Set(sections.map((s) => s.name));
  const others = [...results.keys()].filter((name) => !own.has(name)).map(read).filter(isGroupsResults);
  if (others.length > 0) out.others = others;
  return out;
}

/**
 * Writes the report and the step summary. A failure here is reported and leaves the results files and the exit code
 * as they are: the run's figures and gates are already settled and on disk.
 */
export async function writeRunOutputs(options: RunOutputsOptions): Promise<RunOutputs> {
  const { log } = options;
  const sections = options.sections ?? (await reportSections());
  const run = runResults(options.results, sections, options.objects);
  const shown = options.incomplete?.size ? runResults(new Map([...options.results, ...options.incomplete]), sections, options.objects) : run;
  if (!holdsAny(shown)) return {};
  const report = await import('../report/index.ts');
  const input: ReportInput = { ...shown, ...(options.modelLabel ? { modelLabel: options.modelLabel } : {}) };
  if (options.baseline) {
    try {
      const baseline = report.readRunResults(path.resolve(options.root, options.baseline), sections);
      input.baseline = options.redact ? (await import('../report/redactResults.ts')).redactedBaseline(baseline, sections) : baseline;
    } catch (error) {
      log(`lokal: the report shows no baseline: ${path.relative(process.cwd(), path.resolve(options.root, options.baseline))} could not be read (${(error as Error).message.split('\n')[0]})`);
    }
  }
  const written: RunOutputs = {};
  const file = reportPath(options.report, options.root, options.output);
  if (file) {
    try {
      const { mkdir } = await import('node:fs/promises');
      await mkdir(path.dirname(file), { recursive: true });
      await report.writeHtmlReport(file, input, sections);
      written.report = file;
      log(`lokal: report ${path.relative(process.cwd(), file) || file} (open it in a browser; LOKAL_REPORT=off turns it off)`);
    } catch (error) {
      log(`lokal: the HTML report could not be written to ${file}: ${(error as Error).message}`);
    }
  }
  if (options.stepSummary && holdsAny(run)) {
    try {
      const { stepSummaryMarkdown } = await import('../report/markdown.ts');
      // A failed append (a full disk) is cut back off: no partial table stays in the job summary.
      await appendFileOrRestore(options.stepSummary, stepSummaryMarkdown({ ...run, ...(options.modelLabel ? { modelLabel: options.modelLabel } : {}), ...(input.baseline ? { baseline: input.baseline } : {}) }, sections));
      written.stepSummary = options.stepSummary;
    } catch (error) {
      log(`lokal: could not append to GITHUB_STEP_SUMMARY (${options.stepSummary}): ${(error as Error).message}`);
    }
  }
  return written;
}
