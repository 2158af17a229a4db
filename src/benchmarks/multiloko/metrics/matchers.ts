// Custom matchers (Vitest's expect.extend shape) on short answers, scored exactly as MultiLoKo's eval.py (normalised strings, docs/metrics.md#multiloko):
// `expect(answer).toExactMatch(['Roma'])`. Each records its score in the running test's meta (`lokalScores`), using the
// test that owns the `expect` — so concurrent tests record into their own task.
import { chrfScore } from '../../../metrics/chrfScore.ts';
import { editDistance } from '../../../metrics/editDistance.ts';
import { editSimilarity } from '../../../metrics/editSimilarity.ts';
import { exactMatch } from '../../../metrics/exactMatch.ts';
import { normalizeAnswer } from '../../../metrics/normalizeAnswer.ts';
import { sentenceBleu } from '../../../metrics/sentenceBleu.ts';
import { tokenF1 } from '../../../metrics/tokenF1.ts';
import { terminalText } from '../../../data/terminalText.ts';
import { summariseList } from '../../../data/errors.ts';

export type Targets = string | readonly string[];

// Typing: the Vitest layer merges BenchmarkMatchers into Vitest's Matchers.
declare module '../benchmark.ts' {
  interface BenchmarkMatchers<R> extends LokalMatchers<R> {}
}

export interface LokalMatchers<R = unknown> {
  /** The normalised answer equals a normalised target (EM = 1). */
  toExactMatch(targets: Targets): R;
  /** Token F1 (best target) of at least `atLeast` (default 1), 0–1 scale. */
  toHaveF1(targets: Targets, options?: { atLeast?: number }): R;
  /** sacrebleu sentence chrF of at least `atLeast` (default 100), 0–100 scale. */
  toHaveChrF(targets: Targets, options?: { atLeast?: number }): R;
  /** sacrebleu sentence BLEU of at least `atLeast` (default 100), 0–100 scale. */
  toHaveBleu(targets: Targets, options?: { atLeast?: number }): R;
  /** Levenshtein distance in code points to the nearest target of at most `maxDistance`. */
  toBeWithinEditDistance(targets: Targets, maxDistance: number): R;
  /** difflib ratio (best target) of at least `atLeast` (default 1), 0–1 scale. */
  toHaveEditSimilarity(targets: Targets, options?: { atLeast?: number }): R;
}

type Result = { pass: boolean; message: () => string; actual?: unknown; expected?: unknown };

/** The part of Vitest's matcher state these use, with the test the assertion belongs to (set by Vitest, not typed there). */
interface State {
  isNot: boolean;
  task?: { meta: { lokalScores?: Record<string, number> } };
}

class MatcherInputError extends TypeError {}

function inputs(matcher: string, received: unknown, targets: unknown): { raw: string; rawTargets: string[]; pred: string; norm: string[] } {
  if (typeof received !== 'string') {
    throw new MatcherInputError(`${matcher}: the answer must be a string, got ${received === null ? 'null' : typeof received}`);
  }
  const list = typeof targets === 'string' ? [targets] : targets;
  if (!Array.isArray(list) || list.length === 0 || !list.every((t) => typeof t === 'string')) {
    throw new MatcherInputError(`${matcher}: targets must be a string or a non-empty array of strings`);
  }
  return { raw: received, rawTargets: [...list], pred: normalizeAnswer(received), norm: list.map((t) => normalizeAnswer(t)) };
}

function bound(matcher: string, name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || Number.isNaN(value)) throw new MatcherInputError(`${matcher}: ${name} must be a number`);
  return value;
}

function record(state: State, metric: string, value: number): void {
  const task = state.task;
  if (!task) return;
  (task.meta.lokalScores ??= {})[metric] = value;
}

function strings(i: ReturnType<typeof inputs>): string {
  // JSON quoting escapes C0; terminalText the rest a terminal would act on (DEL, C1, bidi overrides).
  const q = (s: string) => terminalText(JSON.stringify(s));
  return (
    `  answer:  ${q(i.raw)} → normalised ${q(i.pred)}\n` +
    `  targets: ${summariseList(i.rawTargets, q, 10)} → normalised ${summariseList(i.norm, q, 10)}`
  );
}

function show(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(6)));
}

/** A score-at-least matcher: computes, records, and explains with the normalised strings. */
function atLeastMatcher(name: string, metric: string, label: string, score: (pred: string, targets: string[]) => number, fallback: number) {
  return function (this: State, received: unknown, targets: Targets, options?: { atLeast?: number }): Result {
    const i = inputs(name, received, targets);
    const min = bound(name, 'atLeast', options?.atLeast, fallback);
    const value = score(i.pred, i.norm);
    record(this, metric, value);
    const pass = value >= min;
    return {
      pass,
      message: () =>
        `expected answer ${this.isNot ? 'not ' : ''}to have ${label} ≥ ${show(min)}, got ${show(value)}\n${strings(i)}`,
      actual: value,
      expected: min,
    };
  };
}

export const lokalMatchers = {
  toExactMatch(this: State, received: unknown, targets: Targets): Result {
    const i = inputs('toExactMatch', received, targets);
    const value = exactMatch(i.pred, i.norm);
    record(this, 'em', value);
    return {
      pass: value === 1,
      message: () => `expected answer ${this.isNot ? 'not ' : ''}to exact-match a target (EM ${show(value)})\n${strings(i)}`,
      actual: terminalText(i.pred),
      expected: i.norm.map(terminalText),
    };
  },
  toHaveF1: atLeastMatcher('toHaveF1', 'f1', 'token F1', (p, t) => tokenF1(p, t), 1),
  toHaveChrF: atLeastMatcher('toHaveChrF', 'chrf', 'chrF', (p, t) => chrfScore(p, t), 100),
  toHaveBleu: atLeastMatcher('toHaveBleu', 'bleu', 'BLEU', (p, t) => sentenceBleu(p, t), 100),
  toHaveEditSimilarity: atLeastMatcher(
    'toHaveEditSimilarity',
    'edit_similarity',
    'edit similarity',
    (p, t) => t.reduce((best, target) => Math.max(best, editSimilarity(p, target)), -Infinity),
    1,
  ),
  toBeWithinEditDistance(this: State, received: unknown, targets: Targets, maxDistance: number): Result {
    const i = inputs('toBeWithinEditDistance', received, targets);
    if (typeof maxDistance !== 'number' || !(maxDistance >= 0)) {
      throw new MatcherInputError('toBeWithinEditDistance: maxDistance must be a number ≥ 0');
    }
    const value = i.norm.reduce((best, target) => Math.min(best, editDistance(i.pred, target)), Infinity);
    record(this, 'edit_distance', value);
    return {
      pass: value <= maxDistance,
      message: () =>
        `expected answer ${this.isNot ? 'not ' : ''}to be within edit distance ${show(maxDistance)} of a target, nearest is ${show(value)}\n${strings(i)}`,
      actual: value,
      expected: maxDistance,
    };
  },
};

