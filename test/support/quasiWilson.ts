// The quasi-Wilson interval of a bounded mean, found the slow way: bisection for the edges of the set of μ in [0, 1]
// that (x̄ − μ)² ≤ t²·s²·μ(1 − μ) / (n·x̄(1 − x̄)) accepts — the independent value the report and table tests compare
// against (src/core/statistics/boundedMean.ts solves the quadratic). `t` is Student's quantile from a table.
export function quasiWilsonByBisection(values: readonly number[], top: number, t: number): [number, number] {
  const unit = values.map((v) => v / top);
  const n = unit.length;
  const m = unit.reduce((a, b) => a + b, 0) / n;
  const variance = unit.reduce((a, v) => a + (v - m) ** 2, 0) / (n - 1);
  const accepts = (mu: number) => (m - mu) ** 2 <= ((t * t * variance) / (n * m * (1 - m))) * mu * (1 - mu);
  // The accepted set is an interval around x̄: walk each edge in from the bound it is nearer.
  const edge = (outside: number, inside: number) => {
    let [out, into] = [outside, inside];
    for (let i = 0; i < 200; i++) {
      const mid = (out + into) / 2;
      if (accepts(mid)) into = mid;
      else out = mid;
    }
    return into;
  };
  const low = accepts(0) ? 0 : edge(0, m);
  const high = accepts(1) ? 1 : edge(1, m);
  return [low * top, high * top];
}
