// A cancelled run (Ctrl-C, SIGTERM, --bail) in a worker. Vitest aborts the signals of the tests it lists as running,
// but in @vitest/runner 4.1 that list loses concurrent tests (a test that finishes removes itself and every test listed
// after it: `splice(indexOf(test))`), so some item tests of a cancelled run went on asking the model and failed on
// their annotation. The lokal runner's cancel reaches every item through this worker-wide state instead.

interface RunCancelState {
  /** Why the run was cancelled; undefined while it runs. */
  reason: Error | undefined;
  /** The stop controllers of the items now running. */
  items: Set<AbortController>;
}

// On globalThis: the runner and the eval files' modules may be separate copies of this module in one worker.
const KEY = Symbol.for('vitest-lokal.runCancel');

function state(): RunCancelState {
  const holder = globalThis as { [KEY]?: RunCancelState };
  return (holder[KEY] ??= { reason: undefined, items: new Set() });
}

/** A new run in this worker: nothing is cancelled. */
export function startRun(): void {
  state().reason = undefined;
}

/** The run is cancelled: every running item's stop signal aborts, and every item starting from now on is stopped. */
export function cancelRun(why: string): void {
  const run = state();
  run.reason ??= new Error(`the run was cancelled (${why})`);
  for (const controller of run.items) controller.abort(run.reason);
}

interface ItemStop {
  /** Aborts with the test's own signal (a cancel, its timeout) or when the run is cancelled. */
  signal: AbortSignal;
  /** The item has ended: forget it. */
  release(): void;
}

/** One item test's stop signal. */
export function itemStop(testSignal: AbortSignal): ItemStop {
  const run = state();
  const controller = new AbortController();
  const onAbort = () => controller.abort(testSignal.reason);
  if (run.reason) controller.abort(run.reason);
  else if (testSignal.aborted) onAbort();
  else testSignal.addEventListener('abort', onAbort, { once: true });
  run.items.add(controller);
  return {
    signal: controller.signal,
    release: () => {
      run.items.delete(controller);
      testSignal.removeEventListener('abort', onAbort);
    },
  };
}
