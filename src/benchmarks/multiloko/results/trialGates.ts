// MultiLoKo's gates on pass@k and pass^k (`pass@4>=0.6`, `italian.pass@4>=0.6`, `local.pass^2>=0.3`), judged at the
// roll-up over every trial of the items: per subset, or averaged over the local languages as `em>=…` averages EM.
import type { GateOutcome } from '../../../core/gates.ts';
import { judgeTrialFigure, type TrialStratum } from '../../../core/trialGateFigure.ts';
import { appliesTo, type Gate } from '../run/gates.ts';
import type { RolledSubset } from '../run/rolledSubset.ts';

/** An item's per-trial EM (its one answer's EM without trials): 1 right, 0 wrong. */
const trialScores = (s: RolledSubset): TrialStratum => ({
  name: s.aggregate.name,
  items: s.records.map((r) => (r.trials ? r.trials.map((t) => (t.scores.em === 1 ? 1 : 0)) : [r.scores.em === 1 ? 1 : 0])),
});

/** The outcomes of the gates on trial figures; a subset clause naming a subset the run lacks is left to "not applied". */
export function judgeTrialGates(gates: readonly Gate[], subsets: readonly RolledSubset[]): GateOutcome[] {
  const scored = subsets.filter((s) => s.aggregate.means && s.records.length > 0);
  const trials = scored.some((s) => s.records.some((r) => r.trials !== undefined));
  const outcomes: GateOutcome[] = [];
  for (const gate of gates) {
    if (!gate.trial) continue;
    const judged = (figure: string, strata: readonly RolledSubset[]) => judgeTrialFigure(gate.clause, figure, gate.trial!, strata.map(trialScores), trials, gate.op, gate.bound);
    if (gate.scope.kind === 'cross') {
      const local = scored.filter((s) => !s.aggregate.translated);
      if (local.length > 0) outcomes.push(judged(`average ${gate.trial.name} (${local.length} local language${local.length === 1 ? '' : 's'})`, local));
      continue;
    }
    for (const s of scored) if (appliesTo(gate, { key: s.aggregate.key, local: !s.aggregate.translated })) outcomes.push(judged(`${s.aggregate.name} ${gate.trial.name}`, [s]));
  }
  return outcomes;
}
