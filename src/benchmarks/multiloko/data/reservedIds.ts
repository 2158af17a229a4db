// Ids eval.py's results layout cannot hold: a language's object keeps each item under its id beside the language's
// means (`em`, `f1`, …), so an item with such an id would be overwritten by the mean, and `__proto__` is no plain key.
import { ALL_METRICS } from '../metrics/metricNames.ts';

export const RESERVED_ITEM_IDS: ReadonlySet<string> = new Set(['__proto__', ...ALL_METRICS]);
