// eval.py takes max()/min() over the targets, which raises on an empty list; we raise a typed error instead.
import { MetricsError } from './errors.ts';

/** Throws unless `targets` is a non-empty array of strings (a plain string would be scored character by character). */
export function requireTargets(targets: readonly string[], metric: string): void {
  if (!Array.isArray(targets)) {
    throw new MetricsError(`${metric}: targets must be an array of strings, got ${typeof targets}`, 'targets');
  }
  if (targets.length === 0) {
    throw new MetricsError(`${metric}: targets is empty (the reference raises ValueError from max() over no targets)`, 'targets');
  }
}
