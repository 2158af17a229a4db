// The average over strata (languages) of each stratum's mean item value, with a percentile bootstrap interval that
// resamples items within their stratum — how a cross-language figure is averaged, as the headline averages EM.
import { stratifiedBootstrap, type StratifiedBootstrapOptions } from './stratifiedBootstrap.ts';

export interface StratumAverage {
  value: number;
  low: number;
  high: number;
  se: number;
}

/** strata[s][i] = item i of stratum s's value; every stratum holds at least one item. */
export function stratumAverage(strata: ReadonlyArray<readonly number[]>, options: StratifiedBootstrapOptions = {}): StratumAverage {
  if (strata.length === 0 || strata.some((s) => s.length === 0)) throw new RangeError('stratumAverage: every stratum needs an item');
  const meanOf = (values: ArrayLike<number>) => {
    let sum = 0;
    for (let i = 0; i < values.length; i++) sum += values[i]!;
    return sum / values.length;
  };
  const value = meanOf(strata.map(meanOf));
  const sizes = strata.map((s) => s.length);
  const { intervals } = stratifiedBootstrap(
    sizes,
    ['average'],
    (sample, out) => {
      let position = 0;
      let total = 0;
      for (const stratum of strata) {
        let sum = 0;
        for (let i = 0; i < stratum.length; i++) sum += stratum[sample[position++]!]!;
        total += sum / stratum.length;
      }
      out[0] = total / strata.length;
    },
    options,
  );
  const interval = intervals.average!;
  return { value, low: interval.low, high: interval.high, se: interval.se };
}
