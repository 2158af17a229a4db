// What kind of answer an item got, from its normalised prediction and targets (eval.py's normalize_answer strings) and
// its edit similarity: the first rule of ERROR_CATEGORIES that holds.
import { dominantScript } from './dominantScript.ts';

/** The categories in rule order: the first that holds is the item's. */
export const ERROR_CATEGORIES = ['correct', 'empty', 'verbose', 'truncated', 'near', 'wrong_script', 'wrong'] as const;
export type ErrorCategory = (typeof ERROR_CATEGORIES)[number];

/** `near`: an edit similarity (eval.py's SequenceMatcher ratio against the closest target) of at least this. */
const NEAR_SIMILARITY = 0.7;

/**
 * The item's category: `correct` (the prediction equals a target: EM 1), `empty` (no prediction), `verbose` (a
 * non-empty target inside the prediction), `truncated` (the prediction inside a target), `near` (edit similarity ≥
 * NEAR_SIMILARITY), `wrong_script` (its letters mostly in another Script than the first target's; a text without
 * letters has no script and never differs), else `wrong`.
 */
export function errorCategory(prediction: string, targets: readonly string[], editSimilarity: number): ErrorCategory {
  if (targets.includes(prediction)) return 'correct';
  if (prediction === '') return 'empty';
  // Plain loops: a callback per rule would cost more than the test itself on short answers.
  for (let t = 0; t < targets.length; t++) if (targets[t] !== '' && prediction.includes(targets[t]!)) return 'verbose';
  for (let t = 0; t < targets.length; t++) if (targets[t]!.includes(prediction)) return 'truncated';
  if (editSimilarity >= NEAR_SIMILARITY) return 'near';
  const script = dominantScript(prediction);
  const targetScript = targets.length > 0 ? dominantScript(targets[0]!) : null;
  if (script !== null && targetScript !== null && script !== targetScript) return 'wrong_script';
  return 'wrong';
}

/** Items per category, every category present (0 when none). */
export function countErrorCategories(categories: Iterable<ErrorCategory>): Record<ErrorCategory, number> {
  const counts = Object.fromEntries(ERROR_CATEGORIES.map((c) => [c, 0])) as Record<ErrorCategory, number>;
  for (const c of categories) counts[c]++;
  return counts;
}
