// Kalahi's chart in the report and Vitest UI's summary: MC1, MC2 (normalised) and each generation metric's acc per
// variant, with their intervals.
import type { Interval } from '../../../../core/statistics/index.ts';
import { barChartSpec, renderChart, type BarDatum } from '../../../../report/charts.ts';
import { KALAHI_METRICS, type KalahiView } from './reportView.ts';

export function kalahiChartData(view: KalahiView): BarDatum[] {
  const data: BarDatum[] = [];
  for (const v of view.variants) {
    const add = (row: string, i: Interval | undefined) => i && data.push({ row, series: v.key, value: i.value, low: i.low, high: i.high });
    add('MC1', v.overall.mc?.mc1);
    add('MC2 (normalised)', v.overall.mc?.mc2_normalised);
    for (const [m, label] of KALAHI_METRICS) add(`${label} acc`, v.overall.generation?.acc[m]);
  }
  return data;
}

export function kalahiChart(data: BarDatum[]): Promise<string> | undefined {
  return data.length
    ? renderChart(barChartSpec(data, { title: 'Kalahi per variant', axis: 'score', domain: [0, 1], digits: 3, description: 'Bar chart of Kalahi MC and generation figures per variant with 95% intervals' }))
    : undefined;
}
