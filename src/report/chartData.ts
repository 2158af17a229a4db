// The report's charts: bar data from the views (this run, a baseline, several runs side by side) and their rendering.
import type { Interval } from '../core/statistics/index.ts';
import { barChartSpec, renderChart, type BarDatum } from './charts.ts';
import { KALAHI_METRICS, type KalahiView } from './kalahi.ts';
import type { Effect, MultiLoKoView } from './multiloko.ts';

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

export function kalahiChart(data: BarDatum[]): Promise<string> | undefined {
  return data.length
    ? renderChart(barChartSpec(data, { title: 'Kalahi per variant', axis: 'score', domain: [0, 1], digits: 3, description: 'Bar chart of Kalahi MC and generation figures per variant with 95% intervals' }))
    : undefined;
}

/** An inline chart as a standalone SVG document (what an <img> or a .svg file needs: the namespace declaration). */
export function standaloneSvg(svg: string): string {
  return svg.replace(/^<svg\b/u, '<svg xmlns="http://www.w3.org/2000/svg"');
}
