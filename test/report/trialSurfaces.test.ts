// A results file with trials in the report and the step summary: the item list's trials filter and marks, the flaky
// table, the headline's trial figures and the baseline gate's MDE for the k used — and none of them without trials.
import { describe, expect, test } from 'vitest';
import { multilokoHtml } from '../../src/benchmarks/multiloko/results/section/reportHtml.ts';
import { multilokoStepSummary } from '../../src/benchmarks/multiloko/results/section/reportMarkdown.ts';
import type { MultiLoKoResultsJson } from '../../src/benchmarks/multiloko/resultsSchema.ts';
import { multilokoSummaryText } from '../../src/benchmarks/multiloko/results/section/uiSummary.ts';
import { multilokoView } from '../../src/benchmarks/multiloko/results/section/reportView.ts';
import { drillRowsOf } from './drillRows.ts';

const trial = (em: number, prediction: string) => ({ em, prediction });
const record = (trials: Array<{ em: number; prediction: string }>) => {
  const em = trials.reduce((s, t) => s + t.em, 0) / trials.length;
  return { em, f1: em, chrf: 100 * em, targets: ['roma'], prediction: 'roma', trials };
};
const figure = (value: number) => ({ value, low: value - 0.1, high: Math.min(1, value + 0.1) });

/** Two Italian items: q0 3 of 4 right (flaky), q1 4 of 4; a baseline comparison with its MDE. */
function withTrials(): Record<string, any> {
  return {
    italian: {
      q0: record([trial(1, 'roma'), trial(0, 'milano'), trial(1, 'roma'), trial(1, 'roma')]),
      q1: record([trial(1, 'roma'), trial(1, 'roma'), trial(1, 'roma'), trial(1, 'roma')]),
      em: 0.875,
      f1: 0.875,
      chrf: 87.5,
    },
    summary: {
      model: 'openai:toy',
      headline: {
        languages: 1, em: 0.875, em_2se: null, em_min: 0.875, em_max: 0.875, em_gap: 0, em_min_language: 'italian', em_max_language: 'italian',
        trials: { languages: 1, fewest_trials: 4, most_trials: 4, pass_at: { 1: figure(0.875), 4: figure(1) }, pass_hat: { 1: figure(0.875), 4: figure(0.5) } },
      },
      subsets: [{ key: 'italian', name: 'italian · local', language: 'italian', translated: false, trials: { items: 2, fewest_trials: 4, most_trials: 4, flaky: 1 } }],
      baseline: { file: 'base/multiloko.json', mode: 'significance', alpha: 0.05, margin: 0.01, tests: [{ key: 'italian', figure: 'italian · local EM', n: 2, test: 'paired bootstrap', family: 1, mde: 0.1234 }], flips: {} },
      gates: [],
      gates_not_applied: [],
      gates_passed: true,
    },
  };
}

/** The same file as a run of one answer per item writes it: no trials anywhere. */
function withoutTrials(): Record<string, any> {
  const results = withTrials();
  for (const r of [results.italian.q0, results.italian.q1]) delete r.trials;
  delete results.summary.headline.trials;
  delete results.summary.subsets[0].trials;
  return results;
}

const options = { confidence: 0.95 };

describe('report.html with trials', () => {
  test('the item list filters flaky items and marks each item\'s trials; the headline and the MDE are stated', async () => {
    const page = await multilokoHtml(withTrials() as MultiLoKoResultsJson, undefined, options).body();
    const rows = drillRowsOf(page, 'multiloko-items');
    expect(rows.map((r) => [r.filters.trials, r.html.includes('✓✗✓✓ 3/4 · flaky'), r.html.includes('✓✓✓✓ 4/4')])).toEqual([
      ['flaky', true, false],
      ['agree', false, true],
    ]);
    expect(page).toContain('<select data-filter="trials" aria-label="any trials"><option value="">any trials</option><option value="flaky">flaky: trials disagree (1)</option><option value="agree">trials agree (1)</option></select>');
    expect(page).toContain('id="multiloko-headline-trials">Headline over 4 trials per item');
    expect(page).toContain('pass@1 87.5 [77.5, 97.5] · pass@4 100.0 [90.0, 100.0] · pass^4 50.0 [40.0, 60.0]');
    expect(page).toContain('Minimum detectable effect of the baseline gate at k = 4 trials per item');
    expect(page).toMatch(/<tr><td>italian · local EM<\/td><td class="num">2<\/td><td>paired bootstrap<\/td><td class="num">0\.1234<\/td><\/tr>/u);
  });

  test('without trials: no trials filter, no marks, no trial headline, no MDE statement', async () => {
    const page = await multilokoHtml(withoutTrials() as MultiLoKoResultsJson, undefined, options).body();
    expect(drillRowsOf(page, 'multiloko-items').map((r) => 'trials' in r.filters)).toEqual([false, false]);
    for (const absent of ['data-filter="trials"', '4/4', 'multiloko-headline-trials', 'multiloko-mde']) expect(page).not.toContain(absent);
  });
});

describe('the step summary and Vitest UI with trials', () => {
  test('the flaky table per language, the headline\'s trial figures and the MDE table', () => {
    const lines = multilokoStepSummary(withTrials() as MultiLoKoResultsJson, undefined, { ...options, alpha: 0.05 });
    expect(lines).toContain('Over 4 trials per item (× 100, average over 1 local language, 95% intervals): pass@1 87.5 [77.5, 97.5] · pass@4 100.0 [90.0, 100.0] · pass^4 50.0 [40.0, 60.0]');
    expect(lines).toContain('italian: 1 flaky of 2 items');
    expect(lines).toContain('| italian · local | q0 | "roma" ×3, "milano" ×1 | 3/4 | 0.75 |');
    expect(lines.some((l) => l.startsWith('Minimum detectable effect of the baseline gate at k = 4 trials per item'))).toBe(true);
    expect(lines).toContain('| italian · local EM | 2 | paired bootstrap | 0.1234 |');
    const ui = multilokoSummaryText(multilokoView(withTrials() as MultiLoKoResultsJson));
    expect(ui).toContain('Flaky items (trials disagree; search "flaky"): italian 1 of 2.');
  });

  test('without trials none of it', () => {
    const text = multilokoStepSummary(withoutTrials() as MultiLoKoResultsJson, undefined, { ...options, alpha: 0.05 }).join('\n');
    for (const absent of ['Flaky', 'trials per item', 'Minimum detectable effect']) expect(text).not.toContain(absent);
    expect(multilokoSummaryText(multilokoView(withoutTrials() as MultiLoKoResultsJson))).not.toMatch(/trials|Flaky/u);
  });
});
