// The results layout any benchmark may write to get a report section, a step summary, a Vitest UI summary and
// `lokal compare` without code of its own (dataset benchmarks write it): the figures it declares, its groups with each
// figure's interval, per-item verdicts, its gates and its baseline tests. `layout` names it, so a reader tells it apart
// from MultiLoKo's and Kalahi's files.
import type { IntervalMethod } from '../core/statistics/index.ts';

export const GROUPS_LAYOUT = 'lokal-groups/1';

/** A figure the benchmark declares: its key in `figures`, its label, the top of its scale (1 or 100), proportion or mean. */
export interface DeclaredFigureJson {
  name: string;
  label: string;
  top: number;
  kind: 'proportion' | 'mean';
}

/** A figure's value and interval over a group's items; null where nothing was scored. */
export interface FigureValueJson {
  value: number;
  low: number;
  high: number;
  n: number;
  method: IntervalMethod;
}

export type ItemVerdict = 'correct' | 'wrong' | 'missing';

export interface GroupItemJson {
  id: string | number;
  verdict: ItemVerdict;
  scores: Record<string, number>;
  /** The item's question and its accepted answers as the dataset gives them. */
  question?: string;
  accepted?: string[];
  /** The model's reply, the answer as scored and the accepted answers (absent when redacted). */
  answer?: string;
  prediction?: string;
  targets?: string[];
  [key: string]: unknown;
}

export interface GroupJson {
  key: string;
  name: string;
  selected: number;
  total: number;
  scored: number;
  missing: number;
  failed: number;
  figures: Record<string, FigureValueJson | null>;
  /** Items per error category (MultiLoKo's rules: docs/multiloko.md); absent in files of older runs. */
  errors?: Record<string, number>;
  records: GroupItemJson[];
}

export interface GroupsGateJson {
  gate: string;
  figure: string;
  value: number | null;
  op: string;
  bound: number;
  pass: boolean;
  message: string;
}

export interface GroupsBaselineTestJson {
  key: string;
  figure: string;
  n: number;
  current: number;
  baseline: number;
  diff: number;
  low: number | null;
  high: number | null;
  p: number;
  p_adjusted: number;
  mde: number | null;
  verdict: string;
  pass: boolean;
  worse: number;
  better: number;
  test: string;
}

export interface GroupsResultsJson {
  layout: typeof GROUPS_LAYOUT;
  benchmark: string;
  title: string;
  model?: string;
  model_description?: unknown;
  confidence: number;
  figures: DeclaredFigureJson[];
  overall: Omit<GroupJson, 'key' | 'name' | 'records'>;
  groups: GroupJson[];
  gates: GroupsGateJson[];
  gates_not_applied: string[];
  gates_passed: boolean;
  baseline?: { file: string; mode: string; alpha?: number; margin?: number; tests?: GroupsBaselineTestJson[] };
  [key: string]: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Whether a parsed results file is in this layout (its `layout` field says so and its lists are lists). */
export function isGroupsResults(value: unknown): value is GroupsResultsJson {
  return isObject(value) && value.layout === GROUPS_LAYOUT && typeof value.benchmark === 'string' && Array.isArray(value.figures) && Array.isArray(value.groups) && Array.isArray(value.gates);
}
