// Plain Levenshtein DP (unit insert/delete/substitute) on code-point arrays: the fallback and the tests' second method.

/** Levenshtein distance between two sequences, O(|a|·|b|) time, O(|b|) memory. */
export function levenshteinDp(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const m = b.length;
  if (a.length === 0) return m;
  if (m === 0) return a.length;
  let prev = new Int32Array(m + 1);
  let cur = new Int32Array(m + 1);
  for (let j = 0; j <= m; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    const ai = a[i - 1];
    for (let j = 1; j <= m; j++) {
      const sub = prev[j - 1]! + (ai === b[j - 1] ? 0 : 1);
      const del = prev[j]! + 1;
      const ins = cur[j - 1]! + 1;
      cur[j] = sub < del ? (sub < ins ? sub : ins) : del < ins ? del : ins;
    }
    [prev, cur] = [cur, prev];
  }
  return prev[m]!;
}
