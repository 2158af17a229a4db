// The error function in float64 (JavaScript has no Math.erf): GELU of the tiny encoder's reference network needs it.

const TWO_OVER_SQRT_PI = 2 / Math.sqrt(Math.PI);

/**
 * erf(x) to ~1e-14: the Maclaurin series below |x| = 2.5 (little cancellation there), above it 1 − erfc(x) with
 * erfc from its continued fraction (Abramowitz & Stegun 7.1.14) evaluated bottom-up to a fixed depth.
 */
export function erf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  const ax = Math.abs(x);
  if (ax < 2.5) {
    const x2 = x * x;
    let term = x; // (-1)^n x^(2n+1) / n!
    let sum = x;
    for (let n = 1; n < 200; n++) {
      term *= -x2 / n;
      const add = term / (2 * n + 1);
      sum += add;
      if (Math.abs(add) < 1e-17 * Math.abs(sum)) break;
    }
    return TWO_OVER_SQRT_PI * sum;
  }
  if (ax > 6.5) return Math.sign(x); // erfc(6.5) < 1e-19: below half an ulp of 1
  let f = ax;
  for (let k = 80; k >= 1; k--) f = ax + k / 2 / f;
  const erfc = Math.exp(-ax * ax) / Math.sqrt(Math.PI) / f;
  return Math.sign(x) * (1 - erfc);
}
