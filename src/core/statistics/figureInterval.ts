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

/** Wilson when every score is 0 or 1, else the t-interval; undefined without scores. */
export function itemMeanInterval(values: readonly number[], confidence = 0.95): ItemMeanInterval | undefined {
  if (values.length === 0) return undefined;
  if (values.every((v) => v === 0 || v === 1)) {
    const { low, high, se, n } = wilsonInterval(values.filter((v) => v === 1).length, values.length, confidence);
    return { low, high, se, n, method: 'wilson' };
  }
  const { low, high, se, n } = meanInterval(values, confidence);
  return { low, high, se, n, method: 't' };
}
