// Test annotations for generated tests (the verdict Vitest UI shows on each item).
import type { TestContext } from 'vitest';

/**
 * `annotate` without the stack Vitest captures to place the annotation in the test file: item tests run from
 * src/vitest, so the eval file is never on that stack and no location is found anyway (as Vitest does at test
 * declaration, the limit is lowered only around the synchronous call).
 */
export function annotateWithoutLocation(annotate: TestContext['annotate'], message: string, type: string): Promise<unknown> {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return annotate(message, type);
  } finally {
    Error.stackTraceLimit = limit;
  }
}
