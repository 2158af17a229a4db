// A Kalahi suite's figures from its prompt records: MC means (NaN skipped, as pandas) and, per generation metric, the
// means of acc / max / diff over the scored replies — overall and per category.
import type { GateRecord, ItemView } from '../../benchmark.ts';
import { meanSkippingNull } from '../../../core/stats.ts';
import { KALAHI_TABLE_METRICS, type KalahiGroupFigures, type KalahiGenerationSummary, type KalahiLearnedMetric, type KalahiMCFigures, type KalahiMCSummary, type KalahiPromptRecord, type KalahiRunInfo, type KalahiSuiteAggregate } from '../run/records.ts';

const MC_FIGURES = ['mc1', 'mc2', 'mc2_normalised', 'mc3', 'lprob_max', 'lprob_diff'] as const satisfies ReadonlyArray<keyof KalahiMCFigures>;

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

/** Aggregates one Kalahi suite: its info plus its prompt tests (in nested category describes). */
export function aggregateKalahi(info: KalahiRunInfo, prompts: ReadonlyArray<ItemView<KalahiPromptRecord>>, gate?: GateRecord): KalahiSuiteAggregate {
  const records = prompts.flatMap((t) => (t.record ? [t.record] : []));
  return {
    ...info,
    ...(gate?.model ? { modelDescription: gate.model } : {}),
    recorded: orderedRecords(records).length,
    failed: prompts.filter((t) => t.state === 'failed').length,
    skipped: prompts.filter((t) => !t.record && t.state !== 'failed').length,
    ...summariseKalahi(records, info.categories),
  };
}
