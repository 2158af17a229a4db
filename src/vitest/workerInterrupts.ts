// Ctrl-C in a terminal signals every process of the foreground group, Vitest's forked workers too: by default a worker
// dies at once, Vitest reports "Worker exited unexpectedly" as an unhandled error, and the answers in flight are lost,
// while the main process is cancelling the run to write what finished (src/run/interrupt.ts). A worker of an evals
// run leaves SIGINT to the main process (which stops it after its grace period) and ends itself only when that is gone.

let installed = false;

/** In a forked worker (Vitest's default pool), once per process: SIGINT is the main process's to handle. */
export function leaveInterruptsToMainProcess(): void {
  if (installed || typeof process.send !== 'function') return;
  installed = true;
  process.on('SIGINT', () => {
    if (!process.connected) process.exit(130);
  });
  // The main process exited (a second Ctrl-C, or Vitest's own handler outside `vitest run`): nothing is left to report to.
  process.once('disconnect', () => process.exit(130));
}
