// eval.py's group_metrics (docs/metrics.md#means-and-group-metrics): across languages, average (builtin sum / count), max, min, gap = max - min.
import { MetricsError } from '../../../metrics/errors.ts';
import { ALL_METRICS, LANGUAGE_METRICS, MULTILOKO_METRICS } from '../../../metrics/metricNames.ts';
import { pythonSum, type PythonSumMode } from '../../../core/python/pythonSum.ts';

export interface GroupMetricsOptions {
  /** Python ≤ 3.11 'fold' (default) or ≥ 3.12 'neumaier' summation for the averages. */
  sum?: PythonSumMode;
  /** Metrics to aggregate; default: the official six, plus edit_distance_first and f1_words each when every entry has it. */
  metrics?: readonly string[];
}

/** `average_<m>`, `max_<m>`, `min_<m>`, `gap_<m>` for each metric, in eval.py's key order. */
export function groupMetrics(means: ReadonlyArray<Readonly<Record<string, number>>>, opts: GroupMetricsOptions = {}):
  Record<string, number> {
  if (means.length === 0) {
    throw new MetricsError('groupMetrics: no languages (the reference divides by 0 and takes max() of nothing)', 'means');
  }
  const metrics = opts.metrics ?? [
    ...(means.every((m) => typeof m.edit_distance_first === 'number') ? ALL_METRICS : MULTILOKO_METRICS),
    ...LANGUAGE_METRICS.filter((metric) => means.every((m) => typeof m[metric] === 'number')),
  ];
  const out: Record<string, number> = {};
  for (const metric of metrics) {
    const values = means.map((m, i) => {
      const v = m[metric];
      if (typeof v !== 'number') throw new MetricsError(`groupMetrics: language #${i} has no number for ${metric}`, metric);
      return v;
    });
    // Python max()/min(): the first extreme wins, compared with > and < (not Math.max, which differs on -0 and NaN).
    let max = values[0]!;
    let min = values[0]!;
    for (let i = 1; i < values.length; i++) {
      if (values[i]! > max) max = values[i]!;
      if (values[i]! < min) min = values[i]!;
    }
    out[`average_${metric}`] = pythonSum(values, opts.sum ?? 'fold') / values.length;
    out[`max_${metric}`] = max;
    out[`min_${metric}`] = min;
    out[`gap_${metric}`] = max - min;
  }
  return out;
}
