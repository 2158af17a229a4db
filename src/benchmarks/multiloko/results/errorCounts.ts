// A subset's error categories: per item (stored by the item test, or worked out from the record's normalised strings
// for records written before categories existed) and counted over the items that enter eval.py's means.
import { MULTILOKO_METRICS } from '../../../metrics/metricNames.ts';
import { countErrorCategories, errorCategory, type ErrorCategory } from '../../../metrics/errorCategory.ts';
import type { LokalItemRecord } from '../run/records.ts';

/** The record's category; undefined for a record without its normalised strings. */
export function itemError(record: Pick<LokalItemRecord, 'error' | 'prediction' | 'targets' | 'scores'>): ErrorCategory | undefined {
  if (record.error !== undefined) return record.error;
  if (typeof record.prediction !== 'string' || !Array.isArray(record.targets) || typeof record.scores?.edit_similarity !== 'number') return undefined;
  return errorCategory(record.prediction, record.targets, record.scores.edit_similarity);
}

/** Items per category over the records eval.py averages (it skips an id equal to a metric name); null without items. */
export function errorCounts(records: readonly LokalItemRecord[]): Record<ErrorCategory, number> | null {
  const categories: ErrorCategory[] = [];
  for (const r of records) {
    if (typeof r.id === 'string' && (MULTILOKO_METRICS as readonly string[]).includes(r.id)) continue;
    const category = itemError(r);
    if (category !== undefined) categories.push(category);
  }
  return categories.length === 0 ? null : countErrorCategories(categories);
}
