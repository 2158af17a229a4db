// Python's builtin sum() over floats (docs/metrics.md#python-conventions): a plain left fold up to 3.11, Neumaier compensation from 3.12.

export type PythonSumMode = 'fold' | 'neumaier';

/** `sum(values)` as CPython ≤ 3.11 ('fold', default) or ≥ 3.12 ('neumaier') computes it; `sum([])` is 0. */
export function pythonSum(values: readonly number[], mode: PythonSumMode = 'fold'): number {
  // The int start 0 is added first (0 + -0.0 is 0.0 in Python and JS alike).
  if (mode === 'fold') {
    let s = 0;
    for (let i = 0; i < values.length; i++) s += values[i]!;
    return s;
  }
  if (mode !== 'neumaier') throw new TypeError(`pythonSum: mode must be 'fold' or 'neumaier', got ${String(mode)}`);
  if (values.length === 0) return 0;
  let s = 0 + values[0]!;
  let c = 0.0;
  for (let i = 1; i < values.length; i++) {
    const x = values[i]!;
    const t = s + x;
    if (Math.abs(s) >= Math.abs(x)) c += s - t + x;
    else c += x - t + s;
    s = t;
  }
  if (c !== 0 && Number.isFinite(c)) s += c;
  return s;
}
