// Whether a run's group suites finished, as the reporter sees them at the end: a Vitest worker that dies mid-run (the
// OOM killer, a SIGKILL of the fork) leaves its tests "pending", its module unfinished and its suites without the
// runner's aggregates — and Vitest still ends the run with reason "passed". Such a group must not pass for a whole one.
import type { SerializedError, TestModule, TestRunEndReason, TestSuite } from 'vitest/node';

/**
 * finished: every test ended; filtered: the suite and every test in it skipped (a `-t` filter; a failed beforeAll
 * fails the suite instead, so that group still counts); unfinished: a test never ended.
 */
export type GroupStatus = 'finished' | 'filtered' | 'unfinished';

/** The status of one group suite (its describe with nested describes). */
export function groupStatus(suite: TestSuite): GroupStatus {
  const states = [...suite.children.allTests()].map((t) => t.result().state);
  if (suite.state() === 'pending' || states.some((s) => s === 'pending')) return 'unfinished';
  return suite.state() === 'skipped' && states.every((s) => s === 'skipped') ? 'filtered' : 'finished';
}

/** Combines the statuses of suites sharing a group key (the same group in several files). */
export function combineStatus(a: GroupStatus, b: GroupStatus): GroupStatus {
  if (a === 'unfinished' || b === 'unfinished') return 'unfinished';
  return a === 'finished' || b === 'finished' ? 'finished' : 'filtered';
}

/** Eval modules that never finished (collection or run cut short), by path. */
export function unfinishedModules(modules: ReadonlyArray<TestModule>): string[] {
  return modules.filter((m) => m.state() === 'pending' || m.state() === 'queued').map((m) => m.moduleId);
}

const WORKER_EXIT = /worker exited unexpectedly|worker.*(?:terminated|crashed|exited)|channel closed|ERR_IPC_CHANNEL_CLOSED/iu;

function messages(error: unknown, depth = 0): string[] {
  if (typeof error !== 'object' || error === null || depth > 5) return [];
  const { message, cause } = error as { message?: unknown; cause?: unknown };
  return [...(typeof message === 'string' ? [message] : []), ...messages(cause, depth + 1)];
}

/**
 * Why groups did not finish, in words, from what Vitest hands the reporter at the end: the unhandled errors (the pool's
 * "Worker exited unexpectedly", possibly as the cause of a wrapper error) and the run's end reason.
 */
export function incompleteReason(errors: ReadonlyArray<SerializedError>, reason: TestRunEndReason): string {
  const texts = errors.flatMap((e) => messages(e));
  if (texts.some((t) => WORKER_EXIT.test(t))) {
    return 'a Vitest worker exited unexpectedly (killed, e.g. by SIGKILL or the out-of-memory killer) before these groups finished';
  }
  if (reason === 'interrupted') return 'the run was interrupted before these groups finished';
  const first = texts[0];
  if (first !== undefined) return `an error stopped the run before these groups finished: ${first.split('\n')[0]}`;
  return 'these groups did not finish (their tests never reported a result)';
}
