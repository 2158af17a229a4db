// The interval of a figure that is a mean of per-item scores: Wilson's for 0/1 scores (a proportion), the
// quasi-Wilson interval for a mean bounded to [0, top] (boundedMean.ts), the t-interval of a mean without bounds.
import { boundedMeanInterval } from './boundedMean.ts';
import { meanInterval, wilsonInterval } from './intervals.ts';

export type IntervalMethod = 'wilson' | 'quasi-wilson' | 't';

export interface ItemMeanInterval {
  low: number;
  high: number;
  se: number | null;
  n: number;
  method: IntervalMethod;
}

/**
 * Wilson for a proportion (a figure scored 0 or 1 per item: every value must be); for a mean, the quasi-Wilson
 * interval on [0, top] when the scores are bounded (`top`), else the t-interval; undefined without scores. A continuous
 * score that happens to be 0/1 everywhere is still a mean, hence the explicit kind.
 */
export function itemMeanInterval(values: readonly number[], kind: 'proportion' | 'mean', confidence = 0.95, top?: number): ItemMeanInterval | undefined {
  if (values.length === 0) return undefined;
  if (kind === 'proportion' && values.every((v) => v === 0 || v === 1)) {
    const { low, high, se, n } = wilsonInterval(values.filter((v) => v === 1).length, values.length, confidence);
    return { low, high, se, n, method: 'wilson' };
  }
  if (top !== undefined) {
    const { low, high, se, n } = boundedMeanInterval(values, top, confidence);
    return { low, high, se, n, method: 'quasi-wilson' };
  }
  const { low, high, se, n } = meanInterval(values, confidence);
  return { low, high, se, n, method: 't' };
}
