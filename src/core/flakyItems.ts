// Flaky items (docs/trials.md#per-item): those whose trials disagree, some right and some wrong, with how consistently
// the majority answer was given and the answers given — one row each for the terminal, the step summary and the report.
import { shorten } from './shorten.ts';
import { summariseTrials } from './statistics/trialSummary.ts';

export interface FlakyItem {
  id: string;
  /** Trials right, of `trials`. */
  right: number;
  trials: number;
  /** Share of the trials that gave the majority answer. */
  consistency: number;
  /** Each distinct answer with its trials, in the order first given. */
  answers: Array<{ answer: string; count: number }>;
}

/** The item's row when its trials disagree (`answer`: the normalised answer compared); undefined when they agree. */
export function flakyItem(id: string, trials: ReadonlyArray<{ answer: string; correct: boolean }>): FlakyItem | undefined {
  if (trials.length < 2) return undefined;
  const summary = summariseTrials(trials.map((t) => ({ answer: t.answer, correct: t.correct, metrics: {} })));
  if (!summary.flaky) return undefined;
  return { id, right: summary.correct, trials: summary.n, consistency: summary.consistency, answers: summary.answers };
}

/** Distinct answers shown per item; the rest are counted. */
const ANSWERS_SHOWN = 3;
/** Code points an answer keeps (a runaway reply stays one cell). */
const ANSWER_WIDTH = 24;

/** `"roma" ×5, "milano" ×2, "" ×1 (+1 more)`: the answers given, most frequent first (ties in the order given), shortened. */
export function answersText(answers: ReadonlyArray<{ answer: string; count: number }>): string {
  const sorted = answers.map((a, i) => ({ ...a, i })).sort((a, b) => b.count - a.count || a.i - b.i);
  const shown = sorted.slice(0, ANSWERS_SHOWN).map((a) => `${JSON.stringify(shorten(a.answer, ANSWER_WIDTH))} ×${a.count}`);
  const rest = sorted.length - ANSWERS_SHOWN;
  return shown.join(', ') + (rest > 0 ? ` (+${rest} more)` : '');
}
