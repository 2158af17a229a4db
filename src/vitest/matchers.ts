// The benchmarks' custom matchers on Vitest's expect: `expect(answer).toExactMatch(['Roma'])` (MultiLoKo's short-answer
// scoring; see src/benchmarks/multiloko/matchers.ts). Each records its score in the running test's `meta.lokalScores`.
import { expect } from 'vitest';
import { lokalMatchers, type LokalMatchers } from '../benchmarks/multiloko/matchers.ts';
import './meta.ts';

export { lokalMatchers, type LokalMatchers, type Targets } from '../benchmarks/multiloko/matchers.ts';

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-explicit-any
  interface Matchers<T = any> extends LokalMatchers<T> {}
}

expect.extend(lokalMatchers);
