// Wilson's score interval at 95% by its textbook closed form: the independent value the report and summary tests
// compare against (src/core/statistics computes it its own way).
const Z = 1.959963984540054;

export function wilsonClosedForm(successes: number, n: number): [number, number] {
  const p = successes / n;
  const centre = (p + (Z * Z) / (2 * n)) / (1 + (Z * Z) / n);
  const half = (Z * Math.sqrt((p * (1 - p)) / n + (Z * Z) / (4 * n * n))) / (1 + (Z * Z) / n);
  return [centre - half, centre + half];
}
