// The results layout any benchmark may write to get a report section, a step summary, a Vitest UI summary and
// `lokal compare` without code of its own (dataset benchmarks write it): the figures it declares, its groups with each
// figure's interval, per-item verdicts, its gates and its baseline tests. `layout` names it, so a reader tells it apart
// from MultiLoKo's and Kalahi's files.
import { z } from 'zod';
import type { IntervalMethod } from '../core/statistics/index.ts';

export const GROUPS_LAYOUT = 'lokal-groups/1';

/** A figure the benchmark declares: its key in `figures`, its label, the top of its scale (1 or 100), proportion or mean. */
const DeclaredFigureSchema = z.object({ name: z.string(), label: z.string(), top: z.number(), kind: z.enum(['proportion', 'mean']) });
export type DeclaredFigureJson = z.infer<typeof DeclaredFigureSchema>;

/** A figure's value and interval over a group's items; null where nothing was scored. */
const FigureValueSchema = z.object({ value: z.number(), low: z.number(), high: z.number(), n: z.number(), method: z.enum(['wilson', 'quasi-wilson', 't'] satisfies IntervalMethod[]) });
export type FigureValueJson = z.infer<typeof FigureValueSchema>;

const ItemVerdictSchema = z.enum(['correct', 'wrong', 'missing']);
export type ItemVerdict = z.infer<typeof ItemVerdictSchema>;

const GroupItemSchema = z.looseObject({
  id: z.union([z.string(), z.number()]),
  verdict: ItemVerdictSchema,
  scores: z.record(z.string(), z.number()),
  /** The item's question and its accepted answers as the dataset gives them. */
  question: z.string().optional(),
  accepted: z.array(z.string()).optional(),
  /** The model's reply, the answer as scored and the accepted answers (absent when redacted). */
  answer: z.string().optional(),
  prediction: z.string().optional(),
  targets: z.array(z.string()).optional(),
});
export type GroupItemJson = z.infer<typeof GroupItemSchema>;

const groupFigures = {
  selected: z.number(),
  total: z.number(),
  scored: z.number(),
  missing: z.number(),
  failed: z.number(),
  figures: z.record(z.string(), FigureValueSchema.nullable()),
  /** Items per error category (MultiLoKo's rules: docs/multiloko.md); absent in files of older runs. */
  errors: z.record(z.string(), z.number()).optional(),
};

const GroupSchema = z.object({ key: z.string(), name: z.string(), ...groupFigures, records: z.array(GroupItemSchema) });
export type GroupJson = z.infer<typeof GroupSchema>;

const GroupsGateSchema = z.object({ gate: z.string(), figure: z.string(), value: z.number().nullable(), op: z.string(), bound: z.number(), pass: z.boolean(), message: z.string() });
export type GroupsGateJson = z.infer<typeof GroupsGateSchema>;

const GroupsBaselineTestSchema = z.object({
  key: z.string(),
  figure: z.string(),
  n: z.number(),
  current: z.number(),
  baseline: z.number(),
  diff: z.number(),
  low: z.number().nullable(),
  high: z.number().nullable(),
  p: z.number(),
  p_adjusted: z.number(),
  mde: z.number().nullable(),
  verdict: z.string(),
  pass: z.boolean(),
  worse: z.number(),
  better: z.number(),
  test: z.string(),
});
export type GroupsBaselineTestJson = z.infer<typeof GroupsBaselineTestSchema>;

/** `<benchmark>.json` in this layout (benchmarks/dataset/report.ts writes it). */
export const GroupsResultsSchema = z.looseObject({
  layout: z.literal(GROUPS_LAYOUT),
  benchmark: z.string(),
  title: z.string(),
  model: z.string().optional(),
  model_description: z.unknown().optional(),
  confidence: z.number(),
  figures: z.array(DeclaredFigureSchema),
  overall: z.object(groupFigures),
  groups: z.array(GroupSchema),
  gates: z.array(GroupsGateSchema),
  gates_not_applied: z.array(z.string()),
  gates_passed: z.boolean(),
  baseline: z.object({ file: z.string(), mode: z.string(), alpha: z.number().optional(), margin: z.number().optional(), tests: z.array(GroupsBaselineTestSchema).optional() }).optional(),
});
export type GroupsResultsJson = z.infer<typeof GroupsResultsSchema>;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Whether a parsed results file is in this layout (its `layout` field says so and its lists are lists). */
export function isGroupsResults(value: unknown): value is GroupsResultsJson {
  return isObject(value) && value.layout === GROUPS_LAYOUT && typeof value.benchmark === 'string' && Array.isArray(value.figures) && Array.isArray(value.groups) && Array.isArray(value.gates);
}
