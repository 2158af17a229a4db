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

export interface ItemStop {
  /** Whether the item is stopped: its test's signal aborted (a cancel, its timeout) or the run was cancelled. */
  readonly aborted: boolean;
  /** Aborts with the test's own signal or when the run is cancelled; made on first use (a replay never asks for it). */
  readonly signal: AbortSignal;
  /** The item has ended: forget it. */
  release(): void;
}

/**
 * One item test's stop. Its AbortController, and its listener on the test's signal, are made only when a request
 * needs the signal: a full replay's 37,750 items check `aborted` and never send a request.
 */
export function itemStop(testSignal: AbortSignal): ItemStop {
  const run = state();
  let controller: AbortController | undefined;
  let onAbort: (() => void) | undefined;
  let released = false;
  // Why it stopped, as it stood when released (undefined: it had not).
  let reasonAtRelease: unknown;
  let stoppedAtRelease = false;
  const stopped = () => run.reason !== undefined || testSignal.aborted;
  const reason = () => run.reason ?? testSignal.reason;
  return {
    get aborted() {
      if (controller) return controller.signal.aborted;
      return released ? stoppedAtRelease : stopped();
    },
    get signal() {
      if (controller) return controller.signal;
      controller = new AbortController();
      if (released) {
        if (stoppedAtRelease) controller.abort(reasonAtRelease);
        return controller.signal;
      }
      const own = controller;
      onAbort = () => own.abort(testSignal.reason);
      if (run.reason) own.abort(run.reason);
      else if (testSignal.aborted) onAbort();
      else testSignal.addEventListener('abort', onAbort, { once: true });
      run.items.add(own);
      return own.signal;
    },
    release: () => {
      if (released) return;
      released = true;
      if (controller) {
        run.items.delete(controller);
        if (onAbort) testSignal.removeEventListener('abort', onAbort);
        return;
      }
      stoppedAtRelease = stopped();
      if (stoppedAtRelease) reasonAtRelease = reason();
    },
  };
}
