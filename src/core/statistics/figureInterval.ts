// The interval of a figure that is a mean of per-item scores: Wilson's for 0/1 scores (a proportion), the t-interval
// of the mean otherwise.
import { meanInterval, wilsonInterval } from './intervals.ts';

export interface ItemMeanInterval {
  low: number;
  high: number;
  se: number | null;
  n: number;
  method: 'wilson' | 't';
}

/**
 * Wilson for a proportion (a figure scored 0 or 1 per item: every value must be), else the t-interval; undefined
 * without scores. A continuous score that happens to be 0/1 everywhere is still a mean, hence the explicit kind.
 */
export function itemMeanInterval(values: readonly number[], kind: 'proportion' | 'mean', confidence = 0.95): ItemMeanInterval | undefined {
  if (values.length === 0) return undefined;
  if (kind === 'proportion' && values.every((v) => v === 0 || v === 1)) {
    const { low, high, se, n } = wilsonInterval(values.filter((v) => v === 1).length, values.length, confidence);
    return { low, high, se, n, method: 'wilson' };
  }
  const { low, high, se, n } = meanInterval(values, confidence);
  return { low, high, se, n, method: 't' };
}
