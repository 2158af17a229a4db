// Ctrl-C (SIGINT) or SIGTERM during an evals run: Vitest's own handler exits a millisecond later, before any reporter
// hears of it, and every finished item is lost. While the tests run this takes the signals over: the first one cancels
// the run (the workers' answers already given stay in the response cache, which is written as each one arrives), so
// the reporter's end of run writes `<benchmark>.incomplete.json` and says what it kept; a second one exits at once.
import { constants } from 'node:os';

type Signal = 'SIGINT' | 'SIGTERM';
const SIGNALS: readonly Signal[] = ['SIGINT', 'SIGTERM'];

/** How long a cancelled run may take to let its in-flight tests end before its workers are stopped. */
const CANCEL_GRACE_MS = 10_000;

/** The exit code of a process ended by the signal (as a shell reports it): 130 for SIGINT, 143 for SIGTERM. */
export function signalExitCode(signal: Signal): number {
  return 128 + constants.signals[signal];
}

interface InterruptHooks {
  /** Cancels the run (Vitest's cancelCurrentRun); called again after the grace period to stop the workers. */
  cancel(): void;
  log(line: string): void;
  /** Ends the process now (the second signal). */
  exit(code: number): void;
}

export class RunInterrupt {
  readonly #hooks: InterruptHooks;
  /** The listeners that were there before (Vitest's exit-on-signal), handed back when the run ends. */
  #saved = new Map<Signal, Array<(...args: unknown[]) => void>>();
  #armed = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** The first signal received during the run, if any. */
  signal: Signal | undefined;

  constructor(hooks: InterruptHooks) {
    this.#hooks = hooks;
  }

  readonly #onSignal = (signal: Signal): void => {
    if (this.signal !== undefined) {
      this.#hooks.log(`lokal: ${signal} again: exiting at once; the results of this run are not written`);
      this.#hooks.exit(signalExitCode(signal));
      return;
    }
    this.signal = signal;
    this.#hooks.log(`lokal: ${signal}: stopping the run; the items that finished go to <benchmark>.incomplete.json (${signal === 'SIGINT' ? 'Ctrl-C' : 'SIGTERM'} again exits at once)`);
    this.#hooks.cancel();
    // Tests in flight may wait on a slow model: after the grace period their workers are stopped.
    this.#timer = setTimeout(() => this.#hooks.cancel(), CANCEL_GRACE_MS);
    this.#timer.unref();
  };

  /** Takes SIGINT and SIGTERM over until disarm(). */
  arm(): void {
    if (this.#armed) return;
    this.#armed = true;
    this.signal = undefined;
    for (const signal of SIGNALS) {
      // Raw listeners: a `once` one handed back keeps its once-ness.
      this.#saved.set(signal, process.rawListeners(signal) as Array<(...args: unknown[]) => void>);
      process.removeAllListeners(signal);
      process.on(signal, this.#onSignal);
    }
  }

  /** Hands the signals back to the listeners that had them. */
  disarm(): void {
    if (!this.#armed) return;
    this.#armed = false;
    if (this.#timer) clearTimeout(this.#timer);
    for (const signal of SIGNALS) {
      process.off(signal, this.#onSignal);
      for (const listener of this.#saved.get(signal) ?? []) process.on(signal, listener);
    }
    this.#saved.clear();
  }
}
