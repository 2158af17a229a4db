// eval.py's per-language means (docs/metrics.md#means-and-group-metrics): per metric a plain `+=` fold in record order, divided by the count.
import { MetricsError } from '../../../metrics/errors.ts';
import { ALL_METRICS, type AnyMetric, type ExampleScores } from './metricNames.ts';

/** Mean of every metric (official ones, then edit_distance_first) over the records, in order. */
export function languageMeans(records: ReadonlyArray<ExampleScores>): Record<AnyMetric, number> {
  if (records.length === 0) {
    throw new MetricsError('languageMeans: no records (the reference divides by a count of 0: ZeroDivisionError)', 'records');
  }
  const means = {} as Record<AnyMetric, number>;
  for (const metric of ALL_METRICS) {
    let sum = 0;
    // Indexed, not for-of: before V8 optimises a loop, each for-of step allocates an iterator result.
    for (let i = 0; i < records.length; i++) sum += records[i]![metric];
    means[metric] = sum / records.length;
  }
  return means;
}
