// The interval of a mean of per-item scores bounded to [0, top] (F1, chrF, MC2): Wilson's score interval with the
// quasi-binomial variance. A score in [0, 1] with mean μ has variance at most μ(1 − μ) (Bhatia & Davis, "A better bound
// on the variance", Amer. Math. Monthly 107(4), 2000), so the variance is modelled as φ·μ(1 − μ) with the dispersion φ
// estimated from the items (Wedderburn, "Quasi-likelihood functions…", Biometrika 61(3), 1974; McCullagh & Nelder,
// Generalized Linear Models, 2nd ed., §9.2), and the interval is every μ the data do not reject,
// (x̄ − μ)² ≤ t²·φ·μ(1 − μ)/n (Wilson, JASA 22, 1927). Unlike x̄ ± t·s/√n it never leaves [0, top]; it narrows
// towards a bound as the mean nears it; and scores all at a bound give Wilson's interval of that many 0/1 items.
import { studentTQuantile } from './distributions.ts';
import { wilsonInterval, type Interval } from './intervals.ts';

/** The quasi-Wilson interval of the mean of `values` on [0, top]; one item gives no interval (low = high = value, se null). */
export function boundedMeanInterval(values: readonly number[], top = 1, confidence = 0.95): Interval {
  const n = values.length;
  if (n === 0) throw new RangeError('boundedMeanInterval: no values');
  // Rounding may put a score a hair past its top (chrF 100.00000000000004): it is the top.
  const slack = top * 1e-9;
  const outside = values.find((v) => !(v >= -slack && v <= top + slack));
  if (outside !== undefined) throw new RangeError(`boundedMeanInterval: a score outside [0, ${top}]: ${outside}`);
  const unit = values.map((v) => Math.min(1, Math.max(0, v / top)));
  let sum = 0;
  for (const v of unit) sum += v;
  const m = sum / n;
  const scaled = (i: Interval): Interval => ({ value: i.value * top, low: i.low * top, high: i.high * top, se: i.se === null ? null : i.se * top, n });
  // Every score at the same bound: no spread to estimate φ from; these are 0/1 items, and Wilson's interval is theirs.
  if (m === 0 || m === 1) return scaled(wilsonInterval(Math.round(m * n), n, confidence));
  if (n < 2) return scaled({ value: m, low: m, high: m, se: null, n });
  let squares = 0;
  for (const v of unit) squares += (v - m) * (v - m);
  const variance = squares / (n - 1);
  const t = studentTQuantile(1 - (1 - confidence) / 2, n - 1);
  // k = t²·φ/n with φ = s² / (x̄(1 − x̄)); the roots of (x̄ − μ)² = k·μ(1 − μ) bound the interval.
  const k = (t * t * variance) / (n * m * (1 - m));
  const centre = (2 * m + k) / (2 * (1 + k));
  const half = Math.sqrt(k * k + 4 * k * m * (1 - m)) / (2 * (1 + k));
  return scaled({ value: m, low: Math.max(0, centre - half), high: Math.min(1, centre + half), se: Math.sqrt(variance / n), n });
}
