// eval.py's per-language means (docs/metrics.md#means-and-group-metrics): per metric a plain `+=` fold in record order, divided by the count.
import { MetricsError } from '../../../metrics/errors.ts';
import { ALL_METRICS, LANGUAGE_METRICS, type AnyMetric, type ExampleScores, type LanguageMetric } from '../../../metrics/metricNames.ts';

/** Mean of every metric (official ones, then edit_distance_first, then f1_words when every record has it), in order. */
export function languageMeans(records: ReadonlyArray<ExampleScores>): Record<AnyMetric, number> & Partial<Record<LanguageMetric, number>> {
  if (records.length === 0) {
    throw new MetricsError('languageMeans: no records (the reference divides by a count of 0: ZeroDivisionError)', 'records');
  }
  const means = {} as Record<AnyMetric, number> & Partial<Record<LanguageMetric, number>>;
  for (const metric of ALL_METRICS) {
    let sum = 0;
    // Indexed, not for-of: before V8 optimises a loop, each for-of step allocates an iterator result.
    for (let i = 0; i < records.length; i++) sum += records[i]![metric];
    means[metric] = sum / records.length;
  }
  for (const metric of LANGUAGE_METRICS) {
    let sum = 0;
    let i = 0;
    for (; i < records.length; i++) {
      const v = records[i]![metric];
      if (typeof v !== 'number') break;
      sum += v;
    }
    if (i === records.length) means[metric] = sum / records.length;
  }
  return means;
}
