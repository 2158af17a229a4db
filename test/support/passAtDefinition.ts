// pass@j and pass^j of an item with c of n trials right, straight from their definitions in docs/trials.md
// (C(n − c, j) / C(n, j): the chance that j trials drawn without replacement are all wrong; C(c, j) / C(n, j): all
// right), with C(n, j) as a plain product: the independent values the trial tests compare against.

/** C(n, j) as the product of (n − i) / (i + 1) for i < j; 0 outside 0 ≤ j ≤ n. */
export const choose = (n: number, j: number): number => (j < 0 || j > n ? 0 : Array.from({ length: j }, (_, i) => (n - i) / (i + 1)).reduce((a, b) => a * b, 1));

/** At least one of j trials drawn from the n right: 1 − C(n − c, j) / C(n, j). */
export const passAtDefinition = (n: number, c: number, j: number): number => 1 - choose(n - c, j) / choose(n, j);

/** All j trials drawn from the n right: C(c, j) / C(n, j). */
export const passHatDefinition = (n: number, c: number, j: number): number => choose(c, j) / choose(n, j);
