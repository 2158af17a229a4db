// The ks a trial table reports pass@k and pass^k at: 1 and the largest power of two within the fewest trials an item
// holds (docs/trials.md: pass@k is defined for k ≤ n only).

/** [1] for n = 1, else [1, 2^⌊log₂ n⌋] (n = 4 → [1, 4]; n = 10 → [1, 8]). */
export function reportedKs(n: number): number[] {
  const top = 2 ** Math.floor(Math.log2(n));
  return top > 1 ? [1, top] : [1];
}
