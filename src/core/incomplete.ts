// An incomplete run's results: written beside the complete ones (never over them), marked `complete: false` with the
// groups that did not finish and why, and every gate that depends on a missing group failed.
import { summariseList } from '../data/errors.ts';
import { unmeasured, type GateOutcome, type ParsedClause } from './gates.ts';

export interface Incompleteness {
  /** Keys of the groups (subsets, variants) that did not finish. */
  missing: string[];
  /** Why, in words (e.g. a Vitest worker exited unexpectedly). */
  reason: string;
}

/** `multiloko.json` → `multiloko.incomplete.json`. */
export function incompleteResultsFile(resultsFile: string): string {
  return /\.json$/iu.test(resultsFile) ? resultsFile.replace(/\.json$/iu, '.incomplete.json') : `${resultsFile}.incomplete`;
}

/**
 * Whether a clause can be judged on the finished groups alone: only a clause whose first scope names a finished group
 * (`italian.em>=0.3`, `kalahi.enriched.mc1>=0.4`). A run-wide figure (`em>=0.3`, `gap<=0.4`), a scope over several
 * groups (`local.`, `*.`, a Kalahi category) or a missing group's scope needs data the run does not have.
 */
export function judgeableOnFinished(clause: ParsedClause, finished: ReadonlySet<string>): boolean {
  const scope = clause.scopes[0]?.toLowerCase();
  return scope !== undefined && finished.has(scope);
}

/** Splits clauses into those judged as usual and failed outcomes for those that depend on missing groups. */
export function gatesOfIncompleteRun(
  benchmark: string,
  clauses: readonly ParsedClause[],
  finishedKeys: readonly string[],
  incomplete: Incompleteness,
): { judged: ParsedClause[]; failed: GateOutcome[] } {
  const finished = new Set(finishedKeys.map((k) => k.toLowerCase()));
  const judged: ParsedClause[] = [];
  const failed: GateOutcome[] = [];
  const why = `depends on groups that did not finish (${summariseList(incomplete.missing)})`;
  for (const clause of clauses) {
    if (judgeableOnFinished(clause, finished)) judged.push(clause);
    else failed.push(unmeasured(clause.clause, [benchmark, ...clause.scopes, clause.figure].join(' '), clause.op, clause.bound, why));
  }
  return { judged, failed };
}

/**
 * The incomplete results file: the marker first, then the benchmark's own results (if it had any), with its
 * `gates_passed` (top level or in `summary`) forced false — an incomplete run never passes.
 */
export function incompleteResultsText(benchmark: string, resultsText: string | undefined, incomplete: Incompleteness, failedGates: readonly GateOutcome[]): string {
  const own = resultsText === undefined ? {} : (JSON.parse(resultsText) as Record<string, unknown>);
  const indent = resultsText === undefined ? 2 : (/^\{\n( +)/u.exec(resultsText)?.[1]?.length ?? 2);
  const marked: Record<string, unknown> = {
    complete: false,
    incomplete_reason: incomplete.reason,
    missing_subsets: incomplete.missing,
    gates_failed_for_missing_data: failedGates.map((o) => ({ ...o, value: null })),
    ...(resultsText === undefined ? { benchmark } : {}),
    ...own,
    gates_passed: false,
  };
  const summary = marked.summary;
  if (typeof summary === 'object' && summary !== null && 'gates_passed' in summary) marked.summary = { ...summary, gates_passed: false };
  return `${JSON.stringify(marked, null, indent)}\n`;
}
