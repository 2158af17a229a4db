// Kalahi's part of the step summary (GITHUB_STEP_SUMMARY): per variant MC1, MC2 and each generation metric's acc
// with their intervals, the gates and, against a baseline, the changes its paired tests call significant.
import { changeLines, gateLines, table, withInterval } from '../../../../report/markdownParts.ts';
import { markdownCell } from '../../../../report/markdownCell.ts';
import type { SectionOptions } from '../../../../report/section.ts';
import { compareKalahi } from './reportCompare.ts';
import { KALAHI_METRICS, kalahiView, type KalahiView } from './reportView.ts';
import type { KalahiResultsJson } from '../../resultsSchema.ts';
import { positionLine } from '../trialFigures.ts';

function kalahiMarkdown(view: KalahiView, baseline: KalahiView | undefined, confidence: number, alpha: number): string[] {
  const lines = ['### Kalahi', ''];
  const columns = ['MC1', 'MC2', ...KALAHI_METRICS.map(([, label]) => `${label} acc`)];
  lines.push(
    ...table(
      ['Variant', 'Model', 'Prompts', ...columns],
      view.variants.map((v) => [
        markdownCell(v.key),
        markdownCell(v.model),
        String(v.overall.prompts),
        withInterval(v.overall.mc?.mc1, 3, 1),
        withInterval(v.overall.mc?.mc2_normalised, 3, 1),
        ...KALAHI_METRICS.map(([m]) => withInterval(v.overall.generation?.acc[m], 3, 1)),
      ]),
      // Prompts (column 2) and every figure column after it are numbers.
      new Set(columns.map((_, i) => i + 3).concat([2])),
    ),
    ...view.variants.flatMap((v) => (v.trials?.mc?.by_position ? ['', `${markdownCell(v.key)}, ${v.trials.asked ?? '?'} trials per prompt · ${positionLine(v.trials.mc.by_position)}`] : [])),
    '',
    '**Gates**',
    '',
    ...gateLines(view.gates, view.gatesNotApplied),
  );
  if (baseline) {
    const c = compareKalahi(view.variants, baseline.variants, confidence);
    lines.push('', '**Against the baseline** (prompts paired by id)', '', ...changeLines(c.rows, undefined, 1, 3, alpha));
  }
  return lines;
}

/** The part of a run's results, against the baseline's when given. */
export function kalahiStepSummary(results: KalahiResultsJson, baseline: KalahiResultsJson | undefined, { confidence, alpha }: SectionOptions & { alpha: number }): string[] {
  const base = baseline ? kalahiView(baseline, confidence) : undefined;
  return kalahiMarkdown(kalahiView(results, confidence), base, confidence, alpha);
}
