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

/** An item's stop as a class: its accessors live on the prototype, not made again for each of 37,750 items. */
class LazyItemStop implements ItemStop {
  private controller: AbortController | undefined;
  private onAbort: (() => void) | undefined;
  private released = false;
  /** Whether it had stopped when released, and why (kept for a signal made after the release). */
  private stoppedAtRelease = false;
  private reasonAtRelease: unknown;

  constructor(
    private readonly run: RunCancelState,
    private readonly testSignal: AbortSignal,
  ) {}

  private stopped(): boolean {
    return this.run.reason !== undefined || this.testSignal.aborted;
  }

  get aborted(): boolean {
    if (this.controller) return this.controller.signal.aborted;
    return this.released ? this.stoppedAtRelease : this.stopped();
  }

  get signal(): AbortSignal {
    if (this.controller) return this.controller.signal;
    const controller = new AbortController();
    this.controller = controller;
    if (this.released) {
      if (this.stoppedAtRelease) controller.abort(this.reasonAtRelease);
      return controller.signal;
    }
    const testSignal = this.testSignal;
    const onAbort = () => controller.abort(testSignal.reason);
    this.onAbort = onAbort;
    if (this.run.reason) controller.abort(this.run.reason);
    else if (testSignal.aborted) onAbort();
    else testSignal.addEventListener('abort', onAbort, { once: true });
    this.run.items.add(controller);
    return controller.signal;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    if (this.controller) {
      this.run.items.delete(this.controller);
      if (this.onAbort) this.testSignal.removeEventListener('abort', this.onAbort);
      return;
    }
    this.stoppedAtRelease = this.stopped();
    if (this.stoppedAtRelease) this.reasonAtRelease = this.run.reason ?? this.testSignal.reason;
  }
}

/**
 * One item test's stop. Its AbortController, and its listener on the test's signal, are made only when a request
 * needs the signal: a full replay's 37,750 items check `aborted` and never send a request.
 */
export function itemStop(testSignal: AbortSignal): ItemStop {
  return new LazyItemStop(state(), testSignal);
}
