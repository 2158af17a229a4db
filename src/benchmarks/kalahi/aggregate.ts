// A Kalahi suite's figures from its prompt records: MC means (NaN skipped, as pandas) and, per generation metric, the
// means of acc / max / diff over the scored replies — overall and per category.
import { KALAHI_TABLE_METRICS, type KalahiGroupFigures, type KalahiGenerationSummary, type KalahiLearnedMetric, type KalahiMCFigures, type KalahiMCSummary, type KalahiPromptRecord, type KalahiRunInfo, type KalahiSuiteAggregate } from './records.ts';

const MC_FIGURES = ['mc1', 'mc2', 'mc2_normalised', 'mc3', 'lprob_max', 'lprob_diff'] as const satisfies ReadonlyArray<keyof KalahiMCFigures>;

/** Mean of the non-null values in order (a plain fold, as pandas' mean over a short column); null when there are none. */
export function meanSkippingNull(values: ReadonlyArray<number | null | undefined>): number | null {
  let sum = 0;
  let n = 0;
  for (const v of values) {
    if (v === null || v === undefined || Number.isNaN(v)) continue;
    sum += v;
    n++;
  }
  return n === 0 ? null : sum / n;
}

function mcSummary(records: readonly KalahiPromptRecord[]): KalahiMCSummary | undefined {
  const mc = records.flatMap((r) => (r.mc ? [r.mc] : []));
  if (mc.length === 0) return undefined;
  const means = (pick: 'normalised' | 'nonNormalised') =>
    Object.fromEntries(MC_FIGURES.map((f) => [f, meanSkippingNull(mc.map((m) => m[pick][f]))])) as Record<keyof KalahiMCFigures, number | null>;
  return { scored: mc.length, normalised: means('normalised'), nonNormalised: means('nonNormalised') };
}

function generationSummary(records: readonly KalahiPromptRecord[]): KalahiGenerationSummary | undefined {
  const generations = records.flatMap((r) => (r.generation ? [r.generation] : []));
  if (generations.length === 0) return undefined;
  const scored = generations.filter((g) => g.status === 'scored');
  const metrics: KalahiGenerationSummary['metrics'] = {};
  for (const metric of KALAHI_TABLE_METRICS) {
    const values = scored.flatMap((g) => (g.metrics[metric] ? [g.metrics[metric]] : []));
    if (values.length === 0) continue;
    metrics[metric] = {
      acc: meanSkippingNull(values.map((v) => v.acc))!,
      max: meanSkippingNull(values.map((v) => v.max)),
      diff: meanSkippingNull(values.map((v) => v.diff)),
    };
  }
  return {
    scored: scored.length,
    skipped: generations.filter((g) => g.status === 'skipped').length,
    failed: generations.filter((g) => g.status === 'failed').length,
    metrics,
  };
}

export function groupFigures(records: readonly KalahiPromptRecord[]): KalahiGroupFigures {
  const mc = mcSummary(records);
  const generation = generationSummary(records);
  return { prompts: records.length, ...(mc ? { mc } : {}), ...(generation ? { generation } : {}) };
}

/** Records in file order, each prompt once (the last record of a repeated id wins, in the first one's place). */
export function orderedRecords(records: readonly KalahiPromptRecord[]): KalahiPromptRecord[] {
  const sorted = [...records].sort((a, b) => a.row - b.row);
  const byId = new Map<string, KalahiPromptRecord>();
  for (const r of sorted) byId.set(r.promptVariationId, r);
  return [...byId.values()];
}

/** Learned metrics that some reply could not get, with the reason. */
export function notComputedOf(records: readonly KalahiPromptRecord[]): Partial<Record<KalahiLearnedMetric, string>> {
  const out: Partial<Record<KalahiLearnedMetric, string>> = {};
  for (const r of records) {
    for (const [metric, reason] of Object.entries(r.generation?.notComputed ?? {})) out[metric as KalahiLearnedMetric] ??= reason;
  }
  return out;
}

export function summariseKalahi(records: readonly KalahiPromptRecord[], categories: readonly string[]): Pick<KalahiSuiteAggregate, 'overall' | 'byCategory' | 'notComputed'> {
  const ordered = orderedRecords(records);
  const known = [...categories, ...ordered.map((r) => r.category).filter((c) => !categories.includes(c))];
  const byCategory: Record<string, KalahiGroupFigures> = {};
  for (const category of known) {
    const members = ordered.filter((r) => r.category === category);
    if (members.length > 0) byCategory[category] = groupFigures(members);
  }
  return { overall: groupFigures(ordered), byCategory, notComputed: notComputedOf(ordered) };
}

/** The structural part of a runner Task or a reporter TestCase that aggregation needs. */
export interface KalahiTestView {
  meta: { lokalKalahiItem?: KalahiPromptRecord; lokalKalahiRun?: KalahiRunInfo };
  state: 'passed' | 'failed' | 'skipped' | 'pending';
}

/** Aggregates one Kalahi suite from all its tests (prompt tests in nested describes, the gate test); undefined otherwise. */
export function aggregateKalahi(tests: readonly KalahiTestView[]): KalahiSuiteAggregate | undefined {
  const info = tests.find((t) => t.meta.lokalKalahiRun)?.meta.lokalKalahiRun;
  if (!info) return undefined;
  const prompts = tests.filter((t) => !t.meta.lokalKalahiRun);
  const records = prompts.flatMap((t) => (t.meta.lokalKalahiItem ? [t.meta.lokalKalahiItem] : []));
  return {
    ...info,
    recorded: orderedRecords(records).length,
    failed: prompts.filter((t) => t.state === 'failed').length,
    skipped: prompts.filter((t) => !t.meta.lokalKalahiItem && t.state !== 'failed').length,
    ...summariseKalahi(records, info.categories),
  };
}

/** Every test below a runner suite (nested describes included). */
export function descendantTests<T extends { type: string; tasks?: readonly T[] }>(suite: { tasks: readonly T[] }): T[] {
  const out: T[] = [];
  for (const task of suite.tasks) {
    if (task.type === 'test') out.push(task);
    else if (task.tasks) out.push(...descendantTests({ tasks: task.tasks }));
  }
  return out;
}

interface RunnerTaskLike {
  type: string;
  meta: object;
  mode: string;
  result?: { state: string };
  tasks?: readonly RunnerTaskLike[];
}

/** A runner task as aggregation sees it. */
export function viewOfRunnerTask(task: Pick<RunnerTaskLike, 'meta' | 'mode' | 'result'>): KalahiTestView {
  const state = task.result?.state;
  return {
    meta: task.meta as KalahiTestView['meta'],
    state: state === 'pass' ? 'passed' : state === 'fail' ? 'failed' : state === 'skip' || state === 'todo' || task.mode === 'skip' || task.mode === 'todo' ? 'skipped' : 'pending',
  };
}

/** For the lokal runner: the aggregate of a Kalahi variant suite (the one whose direct child is the gate test). */
export function kalahiSuiteAggregate(suite: { tasks: readonly RunnerTaskLike[] }): KalahiSuiteAggregate | undefined {
  const isKalahiSuite = suite.tasks.some((t) => t.type === 'test' && (t.meta as KalahiTestView['meta']).lokalKalahiRun);
  return isKalahiSuite ? aggregateKalahi(descendantTests(suite).map(viewOfRunnerTask)) : undefined;
}
