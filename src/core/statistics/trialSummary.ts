// One item's trials summed up: each metric's mean over the trials, pass@k and pass^k for every k ≤ n, the majority
// answer, how consistently it was given, and whether the trials disagree on correctness (a flaky item).
import { passAtK, passHatK } from './passAtK.ts';

/** One trial of an item: the answer as compared (the caller normalises it), its verdict and its metrics (null: undefined). */
export interface Trial {
  answer: string;
  correct: boolean;
  metrics: Readonly<Record<string, number | null>>;
}

export interface TrialSummary {
  /** Trials summed up. */
  n: number;
  /** Trials that were right. */
  correct: number;
  /** Mean of each metric over the trials where it is a number; null where no trial has one. */
  means: Record<string, number | null>;
  /** passAt[k − 1] is pass@k, k = 1 … n. */
  passAt: number[];
  /** passHat[k − 1] is pass^k, k = 1 … n. */
  passHat: number[];
  /** Each distinct answer with its trials, in the order first given. */
  answers: Array<{ answer: string; count: number }>;
  /** The answer given most often; among equally frequent ones, the one given first. */
  majority: string;
  /** Share of the trials that gave the majority answer. */
  consistency: number;
  /** Some trials were right and some wrong. */
  flaky: boolean;
}

/** The summary of one item's trials (at least one). */
export function summariseTrials(trials: readonly Trial[]): TrialSummary {
  const n = trials.length;
  if (n === 0) throw new RangeError('summariseTrials: no trials');
  const correct = trials.filter((t) => t.correct).length;
  const sums = new Map<string, { sum: number; count: number }>();
  for (const trial of trials) {
    for (const [name, value] of Object.entries(trial.metrics)) {
      const entry = sums.get(name) ?? { sum: 0, count: 0 };
      if (value !== null && !Number.isNaN(value)) {
        entry.sum += value;
        entry.count++;
      }
      sums.set(name, entry);
    }
  }
  const means: Record<string, number | null> = {};
  for (const [name, { sum, count }] of sums) means[name] = count === 0 ? null : sum / count;
  const counts = new Map<string, number>();
  for (const trial of trials) counts.set(trial.answer, (counts.get(trial.answer) ?? 0) + 1);
  const answers = [...counts].map(([answer, count]) => ({ answer, count }));
  // A Map keeps insertion order, so the first strictly larger count wins and ties keep the answer given first.
  let top = answers[0]!;
  for (const entry of answers) if (entry.count > top.count) top = entry;
  const ks = Array.from({ length: n }, (_, i) => i + 1);
  return {
    n,
    correct,
    means,
    passAt: ks.map((k) => passAtK(n, correct, k)),
    passHat: ks.map((k) => passHatK(n, correct, k)),
    answers,
    majority: top.answer,
    consistency: top.count / n,
    flaky: correct > 0 && correct < n,
  };
}
