// eval.py exact_match: 1.0 if the (normalised) prediction equals any (normalised) target, else 0.0.
import { requireTargets } from './requireTargets.ts';

export function exactMatch(pred: string, targets: readonly string[]): number {
  requireTargets(targets, 'exactMatch');
  for (let t = 0; t < targets.length; t++) if (pred === targets[t]) return 1.0;
  return 0.0;
}
