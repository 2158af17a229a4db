// eval.py f1: max over targets of SQuAD-style token F1 on Python-whitespace tokens (docs/metrics.md#token-f1).
// No common token gives the int 0 (also for empty vs empty); JS has one number type, so that is plain 0.
import { pythonSplit } from '../core/python/pythonWhitespace.ts';
import { requireTargets } from './requireTargets.ts';

function countTokens(tokens: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

/** Lists up to this many tokens are compared directly (no Maps: cheaper for the short answers MultiLoKo has). */
const SHORT_TOKENS = 24;

/** The size of the multiset intersection (Counter(a) & Counter(b)), by direct comparison. */
function commonTokensDirect(predTokens: readonly string[], targetTokens: readonly string[]): number {
  let same = 0;
  next: for (let i = 0; i < predTokens.length; i++) {
    const token = predTokens[i];
    // Each distinct prediction token once, at its first position.
    for (let p = 0; p < i; p++) if (predTokens[p] === token) continue next;
    let count = 1;
    for (let p = i + 1; p < predTokens.length; p++) if (predTokens[p] === token) count++;
    let other = 0;
    for (let p = 0; p < targetTokens.length; p++) if (targetTokens[p] === token) other++;
    same += count < other ? count : other;
  }
  return same;
}

/** Token F1 of one prediction/target token pair, exactly as `_f1` computes it. */
export function tokenF1Single(predTokens: readonly string[], targetTokens: readonly string[]): number {
  if (predTokens.length === 0 || targetTokens.length === 0) return 0;
  let same = 0;
  if (predTokens.length <= SHORT_TOKENS && targetTokens.length <= SHORT_TOKENS) {
    same = commonTokensDirect(predTokens, targetTokens);
  } else {
    const targetCounts = countTokens(targetTokens);
    for (const [token, count] of countTokens(predTokens)) {
      const other = targetCounts.get(token);
      if (other !== undefined) same += count < other ? count : other;
    }
  }
  if (same === 0) return 0;
  const precision = same / predTokens.length;
  const recall = same / targetTokens.length;
  return (2 * precision * recall) / (precision + recall);
}

/** tokenF1 on token lists already split (Python whitespace): max over the targets' lists. */
export function tokenF1OfTokens(predTokens: readonly string[], targetTokens: ReadonlyArray<readonly string[]>): number {
  let best = -Infinity;
  for (let t = 0; t < targetTokens.length; t++) {
    const f = tokenF1Single(predTokens, targetTokens[t]!);
    if (f > best) best = f;
  }
  return best;
}

/** Max over targets of token F1 (on normalised strings). */
export function tokenF1(pred: string, targets: readonly string[]): number {
  requireTargets(targets, 'tokenF1');
  const predTokens = pythonSplit(pred);
  let best = -Infinity;
  for (const t of targets) {
    const f = tokenF1Single(predTokens, pythonSplit(t));
    if (f > best) best = f;
  }
  return best;
}
