// Kalahi gates in LOKAL_THRESHOLDS: `kalahi.[<variant>.][<category>.]<figure><op><number>`, e.g. `kalahi.mc1>=0.40`,
// `kalahi.bleu>=0.5` (generation metrics: the acc figure the table shows), `kalahi.ethics.mc2>=0.5`,
// `kalahi.unenriched.rougel_diff>0`. Categories are written in lower case with `_` for spaces (`shared_knowledge`).
import type { KalahiGroupFigures, KalahiLearnedMetric, KalahiMCFigures, KalahiMetric, KalahiSuiteAggregate } from './records.ts';
import { KALAHI_VARIANTS } from '../data/kalahi.ts';
import { judge, parseClause, requireUnitBound, routeClauses, ThresholdError, unmeasured, type GateOp, type GateOutcome, type ParsedClause } from '../../../core/gates.ts';
import type { KalahiTask } from '../settings.ts';

export type KalahiFigure =
  | { task: 'mc'; figure: keyof KalahiMCFigures; normalised: boolean }
  | { task: 'generation'; metric: KalahiMetric; stat: 'acc' | 'max' | 'diff' };

export interface KalahiGate {
  clause: string;
  variant?: string;
  /** Category key (lower case, `_` for spaces). */
  category?: string;
  figure: KalahiFigure;
  op: GateOp;
  bound: number;
}

const METRIC_NAMES: Record<string, KalahiMetric> = {
  bleurt: 'bleurt',
  bertscore: 'bertscore',
  bleu: 'bleu',
  chrf: 'chrf',
  meteor: 'meteor',
  rouge1: 'rouge1',
  rouge2: 'rouge2',
  rougel: 'rougeL',
};

export const KALAHI_FIGURE_LABELS: Record<KalahiMetric, string> = {
  bleurt: 'BLEURT',
  bertscore: 'BERTScore',
  bleu: 'BLEU',
  chrf: 'ChrF',
  meteor: 'METEOR',
  rouge1: 'ROUGE-1',
  rouge2: 'ROUGE-2',
  rougeL: 'ROUGE-L',
};

const MC_LABELS: Record<keyof KalahiMCFigures, string> = {
  mc1: 'MC1',
  mc2: 'MC2',
  mc2_normalised: 'MC2 (normalised)',
  mc3: 'MC3',
  lprob_max: 'lprob max',
  lprob_diff: 'lprob diff',
};

/** The category key gates use: lower case, runs of spaces, hyphens and dots as `_`. */
export function categoryKey(category: string): string {
  return category.trim().toLowerCase().replace(/[\s.-]+/gu, '_');
}

function parseFigure(name: string, clause: string): KalahiFigure {
  const lower = name.toLowerCase();
  const mc = /^(mc1|mc2|mc2_normalised|mc2n|mc3|lprob_max|lprob_diff)(_non_norm)?$/u.exec(lower);
  if (mc) {
    const figure = (mc[1] === 'mc2n' ? 'mc2_normalised' : mc[1]) as keyof KalahiMCFigures;
    if (figure === 'mc2_normalised' && mc[2]) throw new ThresholdError(clause, 'MC2 (normalised) has no un-normalised form');
    return { task: 'mc', figure, normalised: !mc[2] };
  }
  const gen = /^([a-z0-9]+?)(?:_(acc|max|diff))?$/u.exec(lower);
  const metric = gen && METRIC_NAMES[gen[1]!];
  if (gen && metric) return { task: 'generation', metric, stat: (gen[2] ?? 'acc') as 'acc' | 'max' | 'diff' };
  throw new ThresholdError(
    clause,
    `unknown Kalahi figure ${JSON.stringify(name)}; MC: mc1, mc2, mc2_normalised, mc3 (add _non_norm for the raw log-probabilities), lprob_max, lprob_diff; ` +
      `generation (acc, or add _max / _diff): ${Object.keys(METRIC_NAMES).join(', ')}`,
  );
}

/** Figures on a 0–1 scale, so a bound outside it is a mistake (acc, MC1/2/3). */
function unitScale(figure: KalahiFigure): boolean {
  return figure.task === 'mc' ? figure.figure.startsWith('mc') : figure.stat === 'acc';
}

/** A Kalahi gate from a clause `kalahi.[<variant>.][<category>.]<figure><op><number>`. */
export function kalahiGate(parsed: ParsedClause): KalahiGate {
  const { clause, scopes, op, bound } = parsed;
  const figure = parseFigure(parsed.figure, clause);
  if (unitScale(figure)) requireUnitBound(parsed, parsed.figure);
  const gate: KalahiGate = { clause, figure, op, bound };
  if (scopes.length > 2) throw new ThresholdError(clause, 'at most a variant and a category may come between kalahi. and the figure');
  for (const part of scopes) {
    const key = categoryKey(part);
    if ((KALAHI_VARIANTS as readonly string[]).includes(key) && gate.variant === undefined && gate.category === undefined) gate.variant = key;
    else if (gate.category === undefined) gate.category = key;
    else throw new ThresholdError(clause, `two categories (${gate.category}, ${key}); the variant (${KALAHI_VARIANTS.join(', ')}) comes first`);
  }
  return gate;
}

/** Parses one clause, which must start with `kalahi.`. */
export function parseKalahiGate(text: string): KalahiGate {
  const parsed = parseClause(text, ['kalahi'], 'kalahi.mc1>=0.40, kalahi.ethics.bleu>=0.5');
  if (parsed.benchmark !== 'kalahi') throw new ThresholdError(parsed.clause, 'expected kalahi.[<variant>.][<category>.]<figure><op><number>, e.g. kalahi.mc1>=0.40, kalahi.ethics.bleu>=0.5');
  return kalahiGate(parsed);
}

/** The Kalahi clauses of a LOKAL_THRESHOLDS text (other clauses belong to other benchmarks). */
export function parseKalahiThresholds(text: string | undefined, benchmarks: readonly string[] = ['multiloko', 'kalahi']): KalahiGate[] {
  return routeClauses(text, benchmarks, benchmarks[0]!).get('kalahi')!.map(kalahiGate);
}

export function figureLabel(figure: KalahiFigure): string {
  if (figure.task === 'mc') return `${MC_LABELS[figure.figure]}${figure.normalised ? '' : ' (non norm)'}`;
  return `${KALAHI_FIGURE_LABELS[figure.metric]} ${figure.stat}`;
}

function figureValue(group: KalahiGroupFigures, figure: KalahiFigure): number | null | undefined {
  if (figure.task === 'mc') return group.mc?.[figure.normalised ? 'normalised' : 'nonNormalised'][figure.figure];
  return group.generation?.metrics[figure.metric]?.[figure.stat];
}

/** The run a gate is judged on. */
export type JudgedSuite = Pick<KalahiSuiteAggregate, 'variant' | 'tasks' | 'overall' | 'byCategory' | 'notComputed'>;

/**
 * Judges every gate on every suite it names. A gate whose variant, category or task is not in the run is not applied
 * (listed); a learned metric that could not be computed, or a figure with no value, fails: a gate must see its figure.
 */
export function judgeKalahi(gates: readonly KalahiGate[], suites: readonly JudgedSuite[]): { outcomes: GateOutcome[]; notApplied: string[] } {
  const outcomes: GateOutcome[] = [];
  const notApplied: string[] = [];
  for (const gate of gates) {
    let applied = false;
    for (const suite of suites) {
      if (gate.variant !== undefined && gate.variant !== suite.variant) continue;
      if (!suite.tasks.includes(gate.figure.task as KalahiTask)) continue;
      const entry = gate.category === undefined ? (['', suite.overall] as const) : Object.entries(suite.byCategory).find(([c]) => categoryKey(c) === gate.category);
      if (!entry) continue;
      applied = true;
      const [category, group] = entry;
      const name = `Kalahi ${suite.variant}${category ? ` · ${category}` : ''} ${figureLabel(gate.figure)}`;
      const value = figureValue(group, gate.figure);
      if (value === null || value === undefined) {
        const learned = gate.figure.task === 'generation' ? suite.notComputed[gate.figure.metric as KalahiLearnedMetric] : undefined;
        const why = learned ? `not computed (${learned})` : 'no value (nothing was scored)';
        outcomes.push(unmeasured(gate.clause, name, gate.op, gate.bound, why));
        continue;
      }
      outcomes.push(judge(gate.clause, name, value, gate.op, gate.bound));
    }
    if (!applied) notApplied.push(gate.clause);
  }
  return { outcomes, notApplied };
}
