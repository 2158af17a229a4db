// One MultiLoKo item's k trials folded into its record: every trial kept (answer, metrics, seed), the per-item summary
// (docs/trials.md: means, pass@k, pass^k, majority answer, flaky), and the record's scores set to the trial means.
import { summariseTrials } from '../../../core/statistics/trialSummary.ts';
import type { ExampleScores } from '../../../metrics/metricNames.ts';
import { shorten } from '../../../core/shorten.ts';
import type { LokalItemRecord, LokalTrialRecord, LokalTrialSummary } from './records.ts';


/** A trial's record: the fields of an item record that differ from trial to trial, with its index and seed. */
export function trialOf(record: LokalItemRecord, trial: number, seed: number | undefined): LokalTrialRecord {
  return {
    trial,
    ...(seed !== undefined ? { seed } : {}),
    rawPrediction: record.rawPrediction,
    answer: record.answer,
    prediction: record.prediction,
    scores: record.scores,
    ...(record.error !== undefined ? { error: record.error } : {}),
    latencyMs: record.latencyMs,
    cached: record.cached,
    missing: record.missing,
    ...(record.outputTokens !== undefined ? { outputTokens: record.outputTokens } : {}),
  };
}

/**
 * The item's record from its trials' records (in trial order; `indexes`: their trial indexes when some are absent): the majority answer's first trial gives
 * the texts shown, the scores are the means over the trials (so every table reads means), time and tokens are summed.
 */
export function foldTrials(records: readonly LokalItemRecord[], seeds: ReadonlyArray<number | undefined>, indexes: readonly number[] = records.map((_, t) => t)): LokalItemRecord {
  const trials = records.map((record, t) => trialOf(record, indexes[t]!, seeds[t]));
  // Right means EM 1, as eval.py's exact match; the normalised prediction is what majority voting compares.
  const summary = summariseTrials(trials.map((t) => ({ answer: t.prediction, correct: t.scores.em === 1, metrics: { ...t.scores } })));
  const shown = records.find((r) => r.prediction === summary.majority)!;
  const scores = Object.fromEntries(Object.entries(summary.means).filter(([, v]) => v !== null)) as unknown as ExampleScores;
  const tokens = records.map((r) => r.outputTokens);
  return {
    ...shown,
    scores,
    latencyMs: records.reduce((sum, r) => sum + r.latencyMs, 0),
    cached: records.every((r) => r.cached),
    missing: records.every((r) => r.missing),
    outputTokens: tokens.every((n) => typeof n === 'number') ? (tokens as number[]).reduce((a, b) => a + b, 0) : (shown.outputTokens ?? null),
    trials,
    trialSummary: summary,
  };
}

const quote = (text: string) => JSON.stringify(shorten(text, 80));

/**
 * One line for Vitest UI: `✓✗✓✓ 3/4 · EM 0.75 · F1 0.8 · chrF 70.0 · majority "Roma" · targets "roma" · flaky` (flaky
 * when the trials disagree, so the UI's search finds them).
 */
export function trialVerdictLine(record: LokalItemRecord): string {
  const trials = record.trials ?? [];
  const marks = trials.map((t) => (t.missing ? '∅' : t.scores.em === 1 ? '✓' : '✗')).join('');
  const right = trials.filter((t) => t.scores.em === 1).length;
  const { em, f1, chrf } = record.scores;
  const targets = record.targets.slice(0, 3).map(quote).join(' | ') + (record.targets.length > 3 ? ` (+${record.targets.length - 3})` : '');
  const flaky = record.trialSummary?.flaky ? ' · flaky' : '';
  return `${marks} ${right}/${trials.length} · EM ${Number(em.toFixed(2))} · F1 ${Number(f1.toFixed(2))} · chrF ${chrf.toFixed(1)} · majority ${quote(record.answer)} · targets ${targets}${flaky}`;
}
