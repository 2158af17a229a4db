// Tests share their worker (isolate: false): a provider that turned V8's concurrent marking off
// (src/models/concurrentMarking.ts) has it turned back on, so later test files run as they would alone.
import v8 from 'node:v8';
import type { ConcurrentMarking } from '../../src/models/concurrentMarking.ts';

export function restoreConcurrentMarking(provider: { concurrentMarking?: ConcurrentMarking }): void {
  if (provider.concurrentMarking === 'stopped') v8.setFlagsFromString('--concurrent-marking');
}
