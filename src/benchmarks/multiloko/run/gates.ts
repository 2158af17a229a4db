// Gates: `LOKAL_THRESHOLDS` clauses (`em>=0.30,gap<=0.40,italian.em>=0.35`) and a baseline with an allowed drop.
import { judge, parseClause, requireUnitBound, routeClauses, ThresholdError, unmeasured, type GateOp, type GateOutcome, type ParsedClause } from '../../../core/gates.ts';
import { wilsonInterval } from '../../../core/statistics/intervals.ts';
import { MULTILOKO_METRICS, type MultiLoKoMetric } from '../../../metrics/metricNames.ts';
import { ERROR_CATEGORIES, type ErrorCategory } from '../../../metrics/errorCategory.ts';

export { holds, judge, ThresholdError, type GateOp, type GateOutcome } from '../../../core/gates.ts';

export type CrossFigure = 'average' | 'min' | 'max' | 'gap';

/**
 * Where a clause applies.
 * - `cross`: a figure across the local languages (the headline): `em` and `average` mean the average, plus min/max/gap.
 * - `subset`: one subset by eval.py key (`italian`, `italian_translated_human_english`).
 * - `each`: every local subset (`local.em>=…`) or every subset (`*.em>=…`).
 */
export type GateScope =
  | { kind: 'cross'; figure: CrossFigure }
  | { kind: 'subset'; key: string }
  | { kind: 'each'; which: 'local' | 'all' };

export interface Gate {
  /** The clause as written, for messages. */
  clause: string;
  scope: GateScope;
  /** The metric judged; for a gate on an error category (`error`), `em`, whose 0–1 scale the share has. */
  metric: MultiLoKoMetric;
  /** `error.<category>`: the gate is on the share of items in that category (per subset, or averaged over local ones). */
  error?: ErrorCategory;
  op: GateOp;
  bound: number;
}

const CROSS_ALIASES: Record<string, CrossFigure> = { average: 'average', avg: 'average', mean: 'average', min: 'min', max: 'max', gap: 'gap' };
/** Metrics on a 0–1 scale; chrF and BLEU are 0–100, edit distance is a count. */
export const UNIT_METRICS: ReadonlySet<MultiLoKoMetric> = new Set(['em', 'f1', 'edit_similarity']);

export const METRIC_LABELS: Record<MultiLoKoMetric, string> = {
  em: 'EM',
  f1: 'F1',
  bleu: 'BLEU',
  chrf: 'chrF',
  edit_distance: 'edit distance',
  edit_similarity: 'edit similarity',
};

function asMetric(name: string, clause: string): MultiLoKoMetric {
  const lower = name.toLowerCase();
  if ((MULTILOKO_METRICS as readonly string[]).includes(lower)) return lower as MultiLoKoMetric;
  throw new ThresholdError(clause, `unknown figure ${JSON.stringify(name)}; metrics: ${MULTILOKO_METRICS.join(', ')}; cross-language: average, min, max, gap (optionally _<metric>, e.g. gap_f1)`);
}

/** A share gate from `[<subset>.]error.<category><op><number>`; an unknown category names the seven. */
function errorGate(parsed: ParsedClause): Gate {
  const { clause, scopes, figure, op, bound } = parsed;
  const category = figure.toLowerCase();
  if (!(ERROR_CATEGORIES as readonly string[]).includes(category)) {
    throw new ThresholdError(clause, `unknown error category ${JSON.stringify(figure)}; categories: ${ERROR_CATEGORIES.join(', ')}`);
  }
  requireUnitBound(parsed, `the share of ${category} items`);
  const scopeText = scopes.length === 2 ? scopes[0] : undefined;
  const scope: GateScope =
    scopeText === undefined ? { kind: 'cross', figure: 'average' } : scopeText === 'local' ? { kind: 'each', which: 'local' } : scopeText === '*' ? { kind: 'each', which: 'all' } : { kind: 'subset', key: scopeText };
  return { clause, scope, metric: 'em', error: category as ErrorCategory, op, bound };
}

/** A MultiLoKo gate from a clause such as `em>=0.3`, `gap_f1<=0.2`, `italian.em>=0.35`, `local.chrf>40`, `italian.error.empty<=0.05`. */
export function multilokoGate(parsed: ParsedClause): Gate {
  const { clause, scopes, figure, op, bound, boundText } = parsed;
  if ((scopes.length === 1 || scopes.length === 2) && scopes.at(-1)!.toLowerCase() === 'error') return errorGate(parsed);
  if (scopes.length > 1) throw new ThresholdError(clause, 'expected [<subset>.]<figure><op><number>, e.g. em>=0.30, gap<=0.40, italian.em>=0.35');
  const scopeText = scopes[0];
  const lower = figure.toLowerCase();
  const cross = /^(average|avg|mean|min|max|gap)(?:_(.+))?$/u.exec(lower);
  let scope: GateScope;
  let metric: MultiLoKoMetric;
  if (cross && !(MULTILOKO_METRICS as readonly string[]).includes(lower)) {
    if (scopeText !== undefined) {
      throw new ThresholdError(clause, `${figure} is a figure across languages; it takes no subset (write ${lower}${op}${boundText})`);
    }
    scope = { kind: 'cross', figure: CROSS_ALIASES[cross[1]!]! };
    metric = cross[2] === undefined ? 'em' : asMetric(cross[2], clause);
  } else {
    metric = asMetric(figure, clause);
    if (scopeText === undefined) scope = { kind: 'cross', figure: 'average' };
    else if (scopeText === 'local') scope = { kind: 'each', which: 'local' };
    else if (scopeText === '*') scope = { kind: 'each', which: 'all' };
    else scope = { kind: 'subset', key: scopeText };
  }
  const max = UNIT_METRICS.has(metric) ? 1 : metric === 'edit_distance' ? Infinity : 100;
  if (max === 1) requireUnitBound(parsed, metric);
  else if (!(bound >= 0 && bound <= max)) throw new ThresholdError(clause, `${metric} is on a 0–${max === Infinity ? '∞' : max} scale, ${boundText} is out of range`);
  return { clause, scope, metric, op, bound };
}

/** Parses one clause (no benchmark prefix, or `multiloko.`). */
export function parseGate(text: string): Gate {
  return multilokoGate(parseClause(text, ['multiloko'], 'em>=0.30, gap<=0.40, italian.em>=0.35'));
}

/** The MultiLoKo clauses of a LOKAL_THRESHOLDS text (clauses of other benchmarks are left to them). */
export function parseThresholds(text: string | undefined, benchmarks: readonly string[] = ['multiloko', 'kalahi']): Gate[] {
  return routeClauses(text, benchmarks, 'multiloko').get('multiloko')!.map(multilokoGate);
}

/** The figures of one subset a gate can see. */
export interface SubsetFigures {
  key: string;
  /** Describe name, e.g. `italian · local`. */
  name: string;
  local: boolean;
  means: Record<MultiLoKoMetric, number>;
  /** Items per error category (absent in aggregates of older runs). */
  errors?: Record<ErrorCategory, number> | null;
}

/** The share of a subset's items in `category` with its Wilson interval; undefined without counts. */
export function errorShare(errors: Record<ErrorCategory, number> | null | undefined, category: ErrorCategory): { value: number; low: number; high: number; n: number } | undefined {
  if (!errors) return undefined;
  let n = 0;
  for (const c of ERROR_CATEGORIES) n += errors[c];
  if (n === 0) return undefined;
  const { value, low, high } = wilsonInterval(errors[category], n);
  return { value, low, high, n };
}

function judgeSubsetGate(gate: Gate, subset: SubsetFigures): GateOutcome {
  if (!gate.error) return judge(gate.clause, `${subset.name} ${METRIC_LABELS[gate.metric]}`, subset.means[gate.metric], gate.op, gate.bound);
  const figure = `${subset.name} share of ${gate.error} items`;
  const share = errorShare(subset.errors, gate.error);
  if (!share) return unmeasured(gate.clause, figure, gate.op, gate.bound, 'no error categories were recorded');
  return judge(gate.clause, `${figure} (of ${share.n})`, share.value, gate.op, gate.bound, share);
}

/** Whether a clause applies to a subset (cross-language clauses apply to none). */
export function appliesTo(gate: Gate, subset: Pick<SubsetFigures, 'key' | 'local'>): boolean {
  switch (gate.scope.kind) {
    case 'cross':
      return false;
    case 'subset':
      return gate.scope.key === subset.key;
    case 'each':
      return gate.scope.which === 'all' || subset.local;
  }
}

export function judgeSubset(gates: readonly Gate[], subset: SubsetFigures): GateOutcome[] {
  return gates
    .filter((gate) => appliesTo(gate, subset))
    .map((gate) => judgeSubsetGate(gate, subset));
}

/** Cross-language figures of one metric over the local languages. */
export interface CrossFigures {
  languages: number;
  average: number;
  min: number;
  max: number;
  gap: number;
}

export function judgeCross(gates: readonly Gate[], cross: (metric: MultiLoKoMetric) => CrossFigures | undefined): GateOutcome[] {
  const outcomes: GateOutcome[] = [];
  for (const gate of gates) {
    if (gate.scope.kind !== 'cross' || gate.error) continue;
    const figures = cross(gate.metric);
    if (!figures) continue;
    const name = `${gate.scope.figure} ${METRIC_LABELS[gate.metric]} (${figures.languages} local language${figures.languages === 1 ? '' : 's'})`;
    outcomes.push(judge(gate.clause, name, figures[gate.scope.figure], gate.op, gate.bound));
  }
  return outcomes;
}

/** Subset keys named by `subset`-scoped clauses that the run does not have (reported, not failed). */
export function unmatchedScopes(gates: readonly Gate[], keys: ReadonlySet<string>): string[] {
  return gates.filter((g) => g.scope.kind === 'subset' && !keys.has(g.scope.key)).map((g) => g.clause);
}

/**
 * `error.<category>` clauses without a subset: the average over the local subsets of each one's share, as `em>=…`
 * averages EM over them (no interval: an average of shares of different sizes is not one proportion).
 */
export function judgeCrossErrors(gates: readonly Gate[], local: ReadonlyArray<Record<ErrorCategory, number> | null | undefined>): GateOutcome[] {
  const outcomes: GateOutcome[] = [];
  for (const gate of gates) {
    if (gate.scope.kind !== 'cross' || !gate.error || local.length === 0) continue;
    const figure = `average share of ${gate.error} items (${local.length} local language${local.length === 1 ? '' : 's'})`;
    const shares = local.map((errors) => errorShare(errors, gate.error!)?.value);
    if (shares.some((v) => v === undefined)) {
      outcomes.push(unmeasured(gate.clause, figure, gate.op, gate.bound, 'a local subset has no error categories recorded'));
      continue;
    }
    let sum = 0;
    for (const v of shares) sum += v!;
    outcomes.push(judge(gate.clause, figure, sum / shares.length, gate.op, gate.bound));
  }
  return outcomes;
}
