// The Kalahi roll-up: `kalahi.json` — per variant the published tables' figures, MC and generation summaries, per-category breakdowns
// and every prompt's record.
import { KALAHI_LEARNED_METRICS, KALAHI_TABLE_METRICS, type KalahiGroupFigures, type KalahiLearnedMetric, type KalahiPromptRecord, type KalahiSuiteAggregate } from '../run/records.ts';
import { KALAHI_FIGURE_LABELS } from '../run/gates.ts';
import type { GateOutcome } from '../../../core/gates.ts';
import { groupTrialFigures } from './trialFigures.ts';
import { orderedRecords } from './aggregate.ts';

export interface RolledKalahiSuite {
  aggregate: KalahiSuiteAggregate;
  records: KalahiPromptRecord[];
}

/** The published tables' figures of a group: MC1, MC2 and the generation metrics' acc (null when not computed). */
export function publishedRow(group: KalahiGroupFigures): { mc?: Record<'MC1' | 'MC2', number | null>; generation?: Record<string, number | null> } {
  const out: ReturnType<typeof publishedRow> = {};
  if (group.mc) out.mc = { MC1: group.mc.normalised.mc1, MC2: group.mc.normalised.mc2 };
  if (group.generation) {
    out.generation = Object.fromEntries(KALAHI_TABLE_METRICS.map((m) => [KALAHI_FIGURE_LABELS[m], group.generation!.metrics[m]?.acc ?? null]));
  }
  return out;
}

/** How each learned metric was (or was not) computed. */
export function learnedStatus(aggregate: Pick<KalahiSuiteAggregate, 'learnedModels' | 'notComputed' | 'tasks'>): Record<KalahiLearnedMetric, { model: string; computed: boolean; reason?: string }> {
  const out = {} as Record<KalahiLearnedMetric, { model: string; computed: boolean; reason?: string }>;
  for (const metric of KALAHI_LEARNED_METRICS) {
    const reason = aggregate.tasks.includes('generation') ? aggregate.notComputed[metric] : 'generation task not run';
    out[metric] = { model: aggregate.learnedModels[metric], computed: reason === undefined, ...(reason === undefined ? {} : { reason }) };
  }
  return out;
}

/** A group's figures; with trials (LOKAL_TRIALS above 1) also `trials`, their figures over the group's prompts. */
function groupJson(group: KalahiGroupFigures, records: readonly KalahiPromptRecord[]) {
  const trials = groupTrialFigures(records);
  return {
    prompts: group.prompts,
    table: publishedRow(group),
    ...(group.mc ? { mc: { scored: group.mc.scored, ...group.mc.normalised, non_norm: group.mc.nonNormalised } } : {}),
    ...(group.generation ? { generation: group.generation } : {}),
    ...(trials ? { trials } : {}),
  };
}

/** One variant's section of kalahi.json. */
function variantJson(suite: RolledKalahiSuite) {
  const a = suite.aggregate;
  // Each prompt once, as the aggregate counts them.
  const prompts = orderedRecords(suite.records);
  return {
    file: a.file,
    model: a.model,
    tasks: a.tasks,
    // Which protocol produced MC1 (src/benchmarks/kalahi/run/protocol.ts): figures of two protocols are never compared.
    ...(a.tasks.includes('mc') ? { mc_protocol: a.mcProtocol ?? 'logprobs' } : {}),
    items: { selected: a.selected, total: a.total, recorded: a.recorded, failed: a.failed, skipped: a.skipped },
    settings: {
      budget: a.budget,
      chrf: a.labels.chrf,
      rougeL: a.labels.rougeL,
      mc2: "MC2 is the reference's: exp of the already exponentiated byte-normalised scores; mc2_normalised is the single-exponent form",
      learned: learnedStatus(a),
    },
    ...groupJson(a.overall, prompts),
    by_category: Object.fromEntries(Object.entries(a.byCategory).map(([c, g]) => [c, groupJson(g, prompts.filter((r) => r.category === c))])),
    records: suite.records,
  };
}

interface KalahiResults {
  benchmark: 'kalahi';
  variants: Record<string, ReturnType<typeof variantJson>>;
  gates: GateOutcome[];
  gates_not_applied: string[];
  gates_passed: boolean;
}

export function kalahiResults(suites: readonly RolledKalahiSuite[], judged: { outcomes: GateOutcome[]; notApplied: string[] }): KalahiResults {
  return {
    benchmark: 'kalahi',
    variants: Object.fromEntries(suites.map((s) => [s.aggregate.variant, variantJson(s)])),
    gates: judged.outcomes,
    gates_not_applied: judged.notApplied,
    gates_passed: judged.outcomes.every((o) => o.pass),
  };
}

/** kalahi.json's text (JSON has no NaN: a NaN figure is written as null). */
export function resultsText(results: KalahiResults): string {
  return `${JSON.stringify(results, null, 2)}\n`;
}
