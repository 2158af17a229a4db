// Vitest's default reporter, quiet about item tests: a passed item is never listed (a model's item takes longer than
// Vitest's 300 ms slow threshold, and a real model's run listed 37k of them as slow, or every one of a file that had a
// failure), and an item that failed with one line (src/vitest/itemFailure.ts: a wrong answer in strict mode or Vitest
// UI, a failure its benchmark reported) is that one line in the failure summary, not a block with a stack and a diff.
// Everything else (gate and summary tests, a file's errors, other projects' tests) is printed as Vitest prints it.
import type { Task } from '@vitest/runner';
import { DefaultReporter, type TestCase, type TestModuleState } from 'vitest/node';
import { ITEM_FAILURE } from '../src/vitest/itemFailure.ts';
import '../src/vitest/meta.ts';

/** The one line an item test failed with: undefined unless it is an item test and its every error is an item failure. */
function oneLineFailure(meta: { lokalItemTest?: boolean }, errors: ReadonlyArray<{ message: string }> | undefined): string | undefined {
  if (meta.lokalItemTest !== true || !errors || errors.length === 0) return undefined;
  if (!errors.every((e) => (e as unknown as Record<string, unknown>)[ITEM_FAILURE] === true)) return undefined;
  return errors.map((e) => e.message).join(' · ');
}

type PrintTaskErrors = (tasks: Task[], errorDivider: () => void) => void;

export default class LokalConsoleReporter extends DefaultReporter {
  constructor(...args: ConstructorParameters<typeof DefaultReporter>) {
    super(...args);
    // The failure summary's per-task printer is private to Vitest's BaseReporter (4.1.12, pinned by the peer dependency):
    // one-line item failures are printed here, one line each, and the other tasks go to it as before.
    const self = this as unknown as { printTaskErrors: PrintTaskErrors };
    const printTaskErrors = self.printTaskErrors.bind(this);
    self.printTaskErrors = (tasks, errorDivider) => {
      const rest: Task[] = [];
      for (const task of tasks) {
        const message = task.type === 'test' && task.result?.state === 'fail' ? oneLineFailure(task.meta, task.result.errors) : undefined;
        if (message === undefined) rest.push(task);
        else this.ctx.logger.error(` FAIL  ${this.getFullName(task, ' > ')} · ${message}`);
      }
      if (rest.length > 0) printTaskErrors(rest, errorDivider);
    };
  }

  protected override printTestCase(moduleState: TestModuleState, test: TestCase): void {
    // Item tests: a failed one is in the failure summary; a passed or skipped one is not listed, slow or not.
    const result = test.result();
    if (test.meta().lokalItemTest === true && (result.state !== 'failed' || oneLineFailure(test.meta(), result.errors) !== undefined)) return;
    super.printTestCase(moduleState, test);
  }
}
