// Kalahi's Vitest UI summary: per variant MC1, MC2 and each generation metric's acc with their intervals (with trials,
// MC1 by the best answer's position), and the gates, with the chart of those figures per variant.
import { kalahiChart, kalahiChartData } from './reportCharts.ts';
import { KALAHI_METRICS, kalahiView, type KalahiView } from './reportView.ts';
import { intervalText } from '../../../../report/numberText.ts';
import { gatesLine, svgAttachment, type UiSummary } from '../../../../report/summary.ts';
import type { Interval } from '../../../../core/statistics/index.ts';
import type { KalahiResultsJson } from '../../resultsSchema.ts';
import { positionLine } from '../trialFigures.ts';

export function kalahiSummaryText(view: KalahiView): string {
  const lines = ['Kalahi'];
  for (const v of view.variants) {
    const parts: string[] = [];
    const add = (label: string, i: Interval | undefined) => i && parts.push(`${label} ${intervalText(i, 3, 1)}`);
    add('MC1', v.overall.mc?.mc1);
    add('MC2', v.overall.mc?.mc2_normalised);
    for (const [m, label] of KALAHI_METRICS) add(`${label} acc`, v.overall.generation?.acc[m]);
    lines.push(`${v.key} · ${v.model} · ${v.overall.prompts} prompts [95% intervals]: ${parts.join(' · ') || 'nothing scored'}.`);
    // With lettered trials: the trials per prompt and where the best answer was shown (docs/kalahi-trials.md).
    if (v.trials?.mc?.by_position) lines.push(`${v.key} · ${v.trials.asked ?? '?'} trials per prompt · ${positionLine(v.trials.mc.by_position)}.`);
  }
  lines.push(gatesLine(view.gates));
  return lines.join('\n');
}

/** Kalahi's summary text and chart of figures per variant from its results. */
export async function kalahiSummary(results: KalahiResultsJson, confidence = 0.95): Promise<UiSummary> {
  const view = kalahiView(results, confidence);
  const attachment = svgAttachment(await kalahiChart(kalahiChartData(view)));
  return { text: kalahiSummaryText(view), ...(attachment ? { attachment } : {}) };
}
