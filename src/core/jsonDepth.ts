// Results and baseline files are walked recursively by their readers and writers: a value nested deeper than any
// results file is (a hostile or broken file, 10^6 brackets) would overflow the stack with a message naming no file.
// Checked right after parsing, without recursion.

/** Deeper than any file this package writes (about 8 levels), far below what the recursive walks can take. */
export const MAX_JSON_DEPTH = 64;

/** The dotted path of the first value nested deeper than `limit`, or undefined when the value is within it. */
export function tooDeep(value: unknown, limit = MAX_JSON_DEPTH): string | undefined {
  const stack: Array<{ value: unknown; depth: number; path: string }> = [{ value, depth: 0, path: '' }];
  while (stack.length > 0) {
    const { value: current, depth, path } = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth >= limit) return path || '(top)';
    const entries = Array.isArray(current) ? current.map((v, i) => [`[${i}]`, v] as const) : Object.entries(current).map(([k, v]) => [`.${k}`, v] as const);
    for (const [key, child] of entries) stack.push({ value: child, depth: depth + 1, path: `${path}${key}` });
  }
  return undefined;
}

/** Throws naming the file when a parsed value nests deeper than MAX_JSON_DEPTH. */
export function requireShallow(value: unknown, file: string): void {
  const at = tooDeep(value);
  if (at !== undefined) throw new Error(`${file}: nested more than ${MAX_JSON_DEPTH} levels deep (at ${at.replace(/^\./u, '').slice(0, 120)}); not a results file`);
}
