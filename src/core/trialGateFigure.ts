// Gates on trial figures (docs/trials.md): a clause's `pass@k` or `pass^k` parsed, and judged over items' per-trial
// 0/1 scores — one subset's items, or the average over several subsets (languages) — with its bootstrap interval.
import { judge, ThresholdError, unmeasured, type GateOp, type GateOutcome } from './gates.ts';
// The most trials LOKAL_TRIALS allows is the largest k a gate can ask for.
import { MAX_TRIALS } from './settings.ts';
import { passAtK, passHatK } from './statistics/passAtK.ts';
import { stratumAverage } from './statistics/stratumAverage.ts';

/** `pass@k` (at least one of k trials right) or `pass^k` (all k right). */
export interface TrialFigureName {
  kind: 'at' | 'hat';
  k: number;
  /** As written in messages: `pass@4`, `pass^2`. */
  name: string;
}

/** `pass@4` / `pass^2` as a trial figure (k from 1 to 1000, else an error naming the clause); undefined for any other figure. */
export function parseTrialFigure(figure: string, clause: string): TrialFigureName | undefined {
  const match = /^pass([@^])(\d+)$/iu.exec(figure);
  if (!match) return undefined;
  const k = Number(match[2]);
  const name = `pass${match[1]}${match[2]}`;
  if (!Number.isInteger(k) || k < 1 || k > MAX_TRIALS) throw new ThresholdError(clause, `${name}: k must be an integer from 1 to ${MAX_TRIALS} (the trials LOKAL_TRIALS allows)`);
  return { kind: match[1] === '@' ? 'at' : 'hat', k, name: `pass${match[1]}${k}` };
}

/** One stratum (a subset, a language) of the items judged: each item's per-trial scores (1 right, else 0). */
export interface TrialStratum {
  name: string;
  items: ReadonlyArray<readonly number[]>;
}

/**
 * The outcome of `gate` on `figure` over the strata's items: the mean over items of each item's pass@k (or pass^k) in
 * each stratum, averaged over the strata, with its 95% percentile bootstrap interval (items resampled within their
 * stratum, trials kept with their item). `trials` says whether the run asked more than one answer per item: without
 * them (or with fewer trials of some item than k) the gate fails with one line saying so.
 */
export function judgeTrialFigure(gate: string, figure: string, trial: TrialFigureName, strata: readonly TrialStratum[], trials: boolean, op: GateOp, bound: number): GateOutcome {
  const used = strata.filter((s) => s.items.length > 0);
  if (used.length === 0) return unmeasured(gate, figure, op, bound, 'no item was scored');
  if (!trials && trial.k > 1) return unmeasured(gate, figure, op, bound, `the run asked one answer per item, and ${trial.name} needs ${trial.k} trials of each (set LOKAL_TRIALS to ${trial.k} or more)`);
  let fewest = { name: '', trials: Infinity };
  for (const s of used) for (const item of s.items) if (item.length < fewest.trials) fewest = { name: s.name, trials: item.length };
  if (trial.k > fewest.trials) return unmeasured(gate, figure, op, bound, `${trial.name} needs ${trial.k} trials of every item, and an item of ${fewest.name} has ${fewest.trials}`);
  const perItem = (item: readonly number[]) => {
    let right = 0;
    for (const y of item) if (y === 1) right++;
    return trial.kind === 'at' ? passAtK(item.length, right, trial.k) : passHatK(item.length, right, trial.k);
  };
  const value = stratumAverage(used.map((s) => s.items.map(perItem)));
  return judge(gate, figure, value.value, op, bound, value);
}
