// 95% intervals of Kalahi's figures, each a mean over prompts: MC1 and every generation metric's acc are 0/1 per
// prompt (Wilson), MC2 a probability mass in [0, 1] per prompt (quasi-Wilson, inside [0, 1]), the metrics' max and diff
// per-prompt scores of no common scale (t-interval); prompts whose figure is NaN (null) are skipped, as the means.
import { itemMeanInterval, type ItemMeanInterval } from '../../../core/statistics/index.ts';
import { KALAHI_TABLE_METRICS, type KalahiMetric, type KalahiPromptRecord } from '../run/records.ts';

export interface KalahiGroupIntervals {
  mc?: { mc1?: ItemMeanInterval; mc2?: ItemMeanInterval; mc2_normalised?: ItemMeanInterval };
  /** Per generation metric, the intervals of its acc, max and diff over the scored replies. */
  generation?: Partial<Record<KalahiMetric, { acc?: ItemMeanInterval; max?: ItemMeanInterval; diff?: ItemMeanInterval }>>;
}

const present = (values: ReadonlyArray<number | null | undefined>) => values.filter((v): v is number => v !== null && v !== undefined && !Number.isNaN(v));

export function kalahiGroupIntervals(records: readonly KalahiPromptRecord[]): KalahiGroupIntervals {
  const out: KalahiGroupIntervals = {};
  const mc = records.flatMap((r) => (r.mc ? [r.mc.normalised] : []));
  if (mc.length > 0) {
    const mc1 = itemMeanInterval(present(mc.map((m) => m.mc1)), 'proportion');
    const mc2 = itemMeanInterval(present(mc.map((m) => m.mc2)), 'mean', 0.95, 1);
    const mc2Normalised = itemMeanInterval(present(mc.map((m) => m.mc2_normalised)), 'mean', 0.95, 1);
    out.mc = { ...(mc1 ? { mc1 } : {}), ...(mc2 ? { mc2 } : {}), ...(mc2Normalised ? { mc2_normalised: mc2Normalised } : {}) };
  }
  const scored = records.flatMap((r) => (r.generation?.status === 'scored' ? [r.generation] : []));
  if (scored.length > 0) {
    const generation: NonNullable<KalahiGroupIntervals['generation']> = {};
    for (const metric of KALAHI_TABLE_METRICS) {
      const values = scored.flatMap((g) => (g.metrics[metric] ? [g.metrics[metric]] : []));
      if (values.length === 0) continue;
      const acc = itemMeanInterval(present(values.map((v) => v.acc)), 'proportion');
      const max = itemMeanInterval(present(values.map((v) => v.max)), 'mean');
      const diff = itemMeanInterval(present(values.map((v) => v.diff)), 'mean');
      generation[metric] = { ...(acc ? { acc } : {}), ...(max ? { max } : {}), ...(diff ? { diff } : {}) };
    }
    out.generation = generation;
  }
  return out;
}

/** Overall and per category, as the tables group prompts. */
export function kalahiIntervals(records: readonly KalahiPromptRecord[], categories: readonly string[]): { overall: KalahiGroupIntervals; by_category: Record<string, KalahiGroupIntervals> } {
  const by_category: Record<string, KalahiGroupIntervals> = {};
  for (const category of categories) {
    const members = records.filter((r) => r.category === category);
    if (members.length > 0) by_category[category] = kalahiGroupIntervals(members);
  }
  return { overall: kalahiGroupIntervals(records), by_category };
}
