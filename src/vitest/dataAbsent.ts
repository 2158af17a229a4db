// A benchmark whose data was never configured and is not in data/ is skipped (visibly), not failed: a user with
// only one dataset can still run `npx vitest run evals`. A configured location that is wrong still fails.
import { describe, test } from 'vitest';
import { NO_DATA_SUITE_SUFFIX } from './noData.ts';
import { DataError } from '../data/errors.ts';

/** True when `error` means "default data location absent" and `configured` is false; then declares a skipped test. */
export function skipIfDataAbsent(benchmark: string, configured: boolean, error: unknown, how: string): boolean {
  if (configured || !(error instanceof DataError) || error.code !== 'not-found') return false;
  skipBenchmark(benchmark, `${benchmark} data not found in data/ — ${how}`);
  return true;
}

/** Leaves a benchmark out of the run: one line saying why, and a skipped test of that name (the file declares one). */
export function skipBenchmark(benchmark: string, reason: string): void {
  console.warn(`lokal: skipping ${benchmark}: ${reason}`);
  describe(`${benchmark}${NO_DATA_SUITE_SUFFIX}`, () => {
    test.skip(reason, () => {});
  });
}
