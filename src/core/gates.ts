// The gate clause grammar every benchmark shares: `[<benchmark>.][<scope>.…]<figure><op><number>`, e.g. `em>=0.30`,
// `italian.em>=0.35`, `kalahi.ethics.mc2>=0.5`. A benchmark only maps scopes and figure names to its values.
import { closest } from 'fastest-levenshtein';
import { summariseList } from '../data/errors.ts';

export type GateOp = '>=' | '>' | '<=' | '<';

export interface GateOutcome {
  /** The clause, or `baseline(…)` for baseline checks. */
  gate: string;
  /** What was measured, in words: `average EM (3 local languages)`, `italian · local EM`. */
  figure: string;
  value: number;
  op: GateOp;
  bound: number;
  pass: boolean;
  message: string;
  /** The figure's 95% interval where the gate reports one (a share of items: Wilson's). */
  interval?: { low: number; high: number };
}

export class ThresholdError extends Error {
  constructor(
    readonly clause: string,
    detail: string,
  ) {
    super(`LOKAL_THRESHOLDS clause ${JSON.stringify(clause)}: ${detail}`);
    this.name = 'ThresholdError';
  }
}

/** One clause split into its parts; `benchmark` is the registered name it starts with, if any. */
export interface ParsedClause {
  clause: string;
  benchmark: string | undefined;
  scopes: string[];
  figure: string;
  op: GateOp;
  bound: number;
  boundText: string;
}

const OPS: Record<string, GateOp> = { '>=': '>=', '≥': '>=', '>': '>', '<=': '<=', '≤': '<=', '<': '<' };
// A figure is a name, or pass@k / pass^k over trials (docs/trials.md): `pass@4>=0.6`, `italian.pass^2>=0.3`.
const CLAUSE = /^(?<path>(?:[^.<>=≤≥]+\.)*)(?<figure>[A-Za-z_][A-Za-z0-9_]*(?:[@^]\d+)?)\s*(?<op>>=|<=|≥|≤|>|<)\s*(?<bound>[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)$/u;

/** Clauses of a comma-, semicolon- or newline-separated list; empty text gives none. */
function splitClauses(text: string | undefined): string[] {
  if (text === undefined) return [];
  return text
    .split(/[,;\n]/u)
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/** Splits one clause; `benchmarks` are the registered names a clause may start with (case-insensitive). */
export function parseClause(text: string, benchmarks: readonly string[], example: string): ParsedClause {
  const clause = text.trim();
  const match = CLAUSE.exec(clause);
  if (!match) throw new ThresholdError(clause, `expected [<benchmark>.][<scope>.]<figure><op><number>, e.g. ${example}`);
  const { path, figure, op, bound } = match.groups!;
  const scopes = path!.split('.').slice(0, -1).map((s) => s.trim());
  if (scopes.some((s) => s === '')) throw new ThresholdError(clause, 'an empty scope between dots');
  const first = scopes[0]?.toLowerCase();
  const benchmark = first !== undefined && benchmarks.includes(first) ? first : undefined;
  return { clause, benchmark, scopes: benchmark ? scopes.slice(1) : scopes, figure: figure!, op: OPS[op!]!, bound: Number(bound), boundText: bound! };
}

/** A run's clauses by benchmark: prefixed ones to their benchmark, the rest to `fallback` (the first registered). */
export function routeClauses(text: string | undefined, benchmarks: readonly string[], fallback: string): Map<string, ParsedClause[]> {
  const routed = new Map<string, ParsedClause[]>(benchmarks.map((b) => [b, []]));
  for (const part of splitClauses(text)) {
    const parsed = parseClause(part, benchmarks, 'em>=0.30, italian.em>=0.35, kalahi.mc1>=0.40');
    routed.get(parsed.benchmark ?? fallback)?.push(parsed);
  }
  return routed;
}

/**
 * A scope that names nothing the benchmark has (`klingon.em>=0.1`) is a mistake, not a gate to skip: an error with the
 * nearest known name. `known` is every scope the benchmark's data has (selected by this run or not), in lower case —
 * a known subset the run did not select stays "not applied".
 */
export function requireKnownScope(clause: string, scope: string, known: readonly string[], what: string): void {
  const name = scope.toLowerCase();
  if (known.length === 0 || known.includes(name)) return;
  const guess = closest(name, known as string[]);
  throw new ThresholdError(clause, `${JSON.stringify(scope)} is not ${what}; did you mean "${guess}"? (known: ${summariseList(known, String, 8)})`);
}

/** A bound outside a 0–1 scale is a mistake worth naming (with the likely intended value). */
export function requireUnitBound(parsed: ParsedClause, name: string): void {
  if (parsed.bound >= 0 && parsed.bound <= 1) return;
  const hint = parsed.bound > 1 && parsed.bound <= 100 ? `; did you mean ${parsed.bound / 100}?` : '';
  throw new ThresholdError(parsed.clause, `${name} is on a 0–1 scale, ${parsed.boundText} is out of range${hint}`);
}

export function holds(value: number, op: GateOp, bound: number): boolean {
  switch (op) {
    case '>=':
      return value >= bound;
    case '>':
      return value > bound;
    case '<=':
      return value <= bound;
    case '<':
      return value < bound;
  }
}

const OP_SIGNS: Record<GateOp, string> = { '>=': '≥', '>': '>', '<=': '≤', '<': '<' };

export function formatFigure(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(4);
}

/**
 * Judges one measured figure against a bound; the message names the figure, its value (with its 95% interval when
 * given: the value decides, the interval says how sure) and the bound.
 */
export function judge(gate: string, figure: string, value: number, op: GateOp, bound: number, interval?: { low: number; high: number }): GateOutcome {
  const pass = holds(value, op, bound);
  const shown = interval ? `${formatFigure(value)} (95% CI ${formatFigure(interval.low)}–${formatFigure(interval.high)})` : formatFigure(value);
  const message = `${figure} = ${shown}, ${pass ? 'meets' : 'must be'} ${OP_SIGNS[op]} ${formatFigure(bound)} (gate ${gate})`;
  return { gate, figure, value, op, bound, pass, message, ...(interval ? { interval: { low: interval.low, high: interval.high } } : {}) };
}

/** A gate whose figure has no value fails: a gate must see what it guards. */
export function unmeasured(gate: string, figure: string, op: GateOp, bound: number, why: string): GateOutcome {
  return { gate, figure, value: Number.NaN, op, bound, pass: false, message: `${figure}: ${why}, so the gate fails (gate ${gate})` };
}
