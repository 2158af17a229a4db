// Ids eval.py's results layout cannot hold: a language's object keeps each item under its id beside the language's
// means (`em`, `f1`, …), so an item with such an id would be overwritten by the mean, and `__proto__` is no plain key.
import { ALL_METRICS } from '../../../metrics/metricNames.ts';

export const RESERVED_ITEM_IDS: ReadonlySet<string> = new Set(['__proto__', ...ALL_METRICS]);

/** Top-level keys a MultiLoKo results file keeps for itself: eval.py's aggregates, a run's summary, lokal's own section. */
const RESULTS_KEYS = ['group_metrics', 'summary', 'lokal'];

/**
 * Why a language key cannot be one, or undefined: a results file's own keys would be overwritten (or skipped as a
 * baseline), and a name every JavaScript object has (`__proto__`, `constructor`, `toString`, …) is no plain key.
 */
export function reservedLanguageKey(key: string): string | undefined {
  if (RESULTS_KEYS.includes(key)) return `the results file keeps its own "${key}" beside the languages (${RESULTS_KEYS.join(', ')})`;
  if (Object.getOwnPropertyNames(Object.prototype).includes(key)) return 'every JavaScript object already has a member of that name';
  return undefined;
}
