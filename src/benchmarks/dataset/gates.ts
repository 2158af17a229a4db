// A dataset benchmark's gates: `<name>.<metric><op><bound>` over every item of the run, `<name>.<group>.<metric>…`
// over one group; the metric must be one the benchmark names and the group one its data has.
import { closest } from 'fastest-levenshtein';
import { judge, requireKnownScope, ThresholdError, unmeasured, type GateOutcome, type ParsedClause } from '../../core/gates.ts';
import type { DatasetMetric } from './options.ts';
import type { DatasetAggregate } from './records.ts';
import { METRIC_INFO } from './scoring.ts';

interface DatasetGate extends ParsedClause {
  metric: DatasetMetric;
  /** The group as the clause names it (any case), undefined for the whole run. */
  group: string | undefined;
}

/**
 * The clauses checked against the benchmark's metrics and groups (`groups`: every group of the data, selected or not;
 * empty on the reporter's side, where the test workers have already checked the scopes against the data).
 */
export function datasetGates(clauses: readonly ParsedClause[], name: string, metrics: readonly DatasetMetric[], groups: readonly string[]): DatasetGate[] {
  return clauses.map((c) => {
    const metric = metrics.find((m) => m === c.figure.toLowerCase());
    if (!metric) throw new ThresholdError(c.clause, `${name} measures ${metrics.join(', ')}; did you mean "${closest(c.figure.toLowerCase(), [...metrics])}"?`);
    if (c.scopes.length > 1) throw new ThresholdError(c.clause, `expected ${name}.[<group>.]<metric><op><number>`);
    const scope = c.scopes[0];
    if (scope !== undefined) requireKnownScope(c.clause, scope, groups.map((g) => g.toLowerCase()), `a group of ${name}`);
    const top = METRIC_INFO[metric].top;
    if (c.bound < 0 || c.bound > top) throw new ThresholdError(c.clause, `${METRIC_INFO[metric].label} is on a 0–${top} scale, ${c.boundText} is out of range`);
    return { ...c, metric, group: scope };
  });
}

/** A metric's mean over the scored items of `groups` (each group's mean weighted by its items); undefined when none. */
function pooledMean(groups: readonly DatasetAggregate[], metric: DatasetMetric): number | undefined {
  const scored = groups.filter((g) => g.scored > 0 && g.means[metric] !== null && g.means[metric] !== undefined);
  const n = scored.reduce((sum, g) => sum + g.scored, 0);
  return n === 0 ? undefined : scored.reduce((sum, g) => sum + g.means[metric]! * g.scored, 0) / n;
}

/**
 * Outcomes of the gates over the groups given; a gate over a group not among them is not applied (returned by
 * name), and a gate whose groups scored nothing fails.
 */
export function judgeDatasetGates(gates: readonly DatasetGate[], title: string, groups: readonly DatasetAggregate[]): { outcomes: GateOutcome[]; notApplied: string[] } {
  const outcomes: GateOutcome[] = [];
  const notApplied: string[] = [];
  for (const gate of gates) {
    const chosen = gate.group === undefined ? groups : groups.filter((g) => g.key.toLowerCase() === gate.group!.toLowerCase());
    if (chosen.length === 0) {
      notApplied.push(gate.clause);
      continue;
    }
    const figure = `${title} ${chosen.length === 1 && gate.group !== undefined ? chosen[0]!.key : 'all'} ${METRIC_INFO[gate.metric].label}`;
    const value = pooledMean(chosen, gate.metric);
    outcomes.push(value === undefined ? unmeasured(gate.clause, figure, gate.op, gate.bound, 'no item was scored') : judge(gate.clause, figure, value, gate.op, gate.bound));
  }
  return { outcomes, notApplied };
}
