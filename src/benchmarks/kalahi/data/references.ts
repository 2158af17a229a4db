// Kalahi reference strings (docs/metrics.md#reference-answers; aisingapore/kalahi utilities.py split_multi_answer / format_best @2beb3ef).
import { pythonStrip } from '../../../core/python/pythonWhitespace.ts';

export class KalahiReferenceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KalahiReferenceError';
  }
}

/** A period is appended unless the answer already ends with one (so `?`/`!` endings get one too). */
function closeWithPeriod(answer: string): string {
  return answer.endsWith('.') ? answer : `${answer}.`;
}

/** split_multi_answer: strip, split on `;`, strip each part, drop empty parts, close each with a period. */
export function splitMultiAnswer(field: string): string[] {
  return pythonStrip(field)
    .split(';')
    .map(pythonStrip)
    .filter((part) => part.length > 0)
    .map(closeWithPeriod);
}

/** format_best: strip and close with a period; the reference raises IndexError on an empty best answer. */
export function formatBestAnswer(field: string): string {
  const best = pythonStrip(field);
  if (best.length === 0) throw new KalahiReferenceError('the best answer is empty (the reference raises IndexError on it)');
  return closeWithPeriod(best);
}

/** Index of the formatted best answer among the formatted relevant answers (Python list.index: the first equal one). */
export function bestAnswerIndex(bestAnswer: string, relevantAnswers: readonly string[]): number {
  const index = relevantAnswers.indexOf(bestAnswer);
  if (index < 0) {
    throw new KalahiReferenceError(
      `the formatted best answer ${JSON.stringify(bestAnswer)} is not among the ${relevantAnswers.length} formatted relevant answers (the reference raises ValueError)`,
    );
  }
  return index;
}
