// A benchmark whose data was never configured and is not in data/ is skipped (visibly), not failed: a user with
// only one dataset can still run `npx vitest run evals`. A configured location that is wrong still fails.
import { describe, test } from 'vitest';
import { NO_DATA_SUITE_SUFFIX, type SKIPPED_SUITE_SUFFIXES } from './noData.ts';
import { DataError } from '../data/errors.ts';

/** True when `error` means "default data location absent" and `configured` is false; then declares a skipped test. */
export function skipIfDataAbsent(benchmark: string, configured: boolean, error: unknown, how: string): boolean {
  if (configured || !(error instanceof DataError) || error.code !== 'not-found') return false;
  skipBenchmark(benchmark, `${benchmark} data not found in data/ — ${how}`);
  return true;
}

/**
 * Leaves a benchmark out of the run: one line saying why, and a skipped test of that name (the file declares one) in a
 * suite named for the cause (`kalahi · no data`, `kalahi · no rows in the predictions file`).
 */
export function skipBenchmark(benchmark: string, reason: string, suffix: (typeof SKIPPED_SUITE_SUFFIXES)[number] = NO_DATA_SUITE_SUFFIX): void {
  console.warn(`lokal: skipping ${benchmark}: ${reason}`);
  describe(`${benchmark}${suffix}`, () => {
    test.skip(reason, () => {});
  });
}
