// MultiLoKo's charts in the report, `lokal compare` and Vitest UI's summary: bar data from the views (this run, a
// baseline, several runs side by side) and their rendering.
import { barChartSpec, renderChart, type BarDatum } from '../../../../report/charts.ts';
import type { Effect, MultiLoKoView } from './reportView.ts';

export function emChartData(view: MultiLoKoView, baseline: MultiLoKoView | undefined): BarDatum[] {
  const data: BarDatum[] = [];
  const baseByKey = new Map((baseline?.subsets ?? []).map((s) => [s.key, s]));
  for (const r of view.languages) {
    if (!r.subset.em) continue;
    const e = r.subset.em;
    data.push({ row: r.language, ...(baseline ? { series: 'this run' } : {}), value: 100 * e.value, low: 100 * e.low, high: 100 * e.high });
    const b = baseByKey.get(r.subset.key)?.em;
    if (baseline && b) data.push({ row: r.language, series: 'baseline', value: 100 * b.value, low: 100 * b.low, high: 100 * b.high });
  }
  return data;
}

export function effectsChartData(view: MultiLoKoView): BarDatum[] {
  const data: BarDatum[] = [];
  for (const r of view.languages) {
    const add = (series: string, e: Effect | undefined) => e && data.push({ row: r.language, series, value: 100 * e.value, low: 100 * e.low, high: 100 * e.high });
    add('MTE human', r.mte.human);
    add('MTE machine', r.mte.machine);
    add('LE human', r.le.human);
    add('LE machine', r.le.machine);
  }
  return data;
}

/** EM per language of several runs, one series per run (labelled), languages in the first run's order then the rest. */
export function runsEmChartData(runs: ReadonlyArray<{ label: string; view: MultiLoKoView }>): BarDatum[] {
  const data: BarDatum[] = [];
  const languages = [...new Set(runs.flatMap((r) => r.view.languages.map((l) => l.language)))];
  for (const language of languages) {
    for (const { label, view } of runs) {
      const e = view.languages.find((l) => l.language === language)?.subset.em;
      if (e) data.push({ row: language, series: label, value: 100 * e.value, low: 100 * e.low, high: 100 * e.high });
    }
  }
  return data;
}

const EM_AXIS = { axis: 'EM × 100', domain: [0, 100] as [number, number], description: 'Bar chart of exact match per language with 95% Wilson intervals' };

export function emChart(data: BarDatum[]): Promise<string> | undefined {
  return data.length ? renderChart(barChartSpec(data, { title: 'MultiLoKo EM per language (local questions)', ...EM_AXIS })) : undefined;
}

export function effectsChart(data: BarDatum[]): Promise<string> | undefined {
  return data.length
    ? renderChart(barChartSpec(data, { title: 'Mother tongue and locality effects', axis: 'EM difference × 100', description: 'Bar chart of MTE and LE per language with 95% intervals', colors: ['#3b6ea8', '#8fb1d9', '#d08c3c', '#ecc08e'] }))
    : undefined;
}
