// runCancel: the worker-wide cancel reaches every item, also one that starts after it; a new run starts uncancelled.
import { describe, expect, test } from 'vitest';
import { cancelRun, itemStop, startRun } from '../../src/vitest/runCancel.ts';

describe('itemStop', () => {
  test("aborts with the test's own signal, with the run's cancel, and for an item starting after the cancel", () => {
    startRun();
    const ownTest = new AbortController();
    const own = itemStop(ownTest.signal);
    const running = itemStop(new AbortController().signal);
    const timeout = new Error('Test timed out');
    ownTest.abort(timeout);
    expect(own.signal.reason).toBe(timeout);
    expect(running.signal.aborted).toBe(false);
    cancelRun('keyboard-input');
    expect(running.signal.aborted).toBe(true);
    expect((running.signal.reason as Error).message).toBe('the run was cancelled (keyboard-input)');
    // The item whose turn comes after the cancel is stopped before it asks anything.
    const late = itemStop(new AbortController().signal);
    expect(late.signal.reason).toBe(running.signal.reason);
    for (const stop of [own, running, late]) stop.release();
    // The next run of this worker (watch mode) starts uncancelled.
    startRun();
    const next = itemStop(new AbortController().signal);
    expect(next.signal.aborted).toBe(false);
    next.release();
  });

  test('a released item is not aborted by a later cancel, and no longer listens to its test', () => {
    startRun();
    const ownTest = new AbortController();
    const stop = itemStop(ownTest.signal);
    stop.release();
    ownTest.abort(new Error('late'));
    cancelRun('test-failure');
    expect(stop.signal.aborted).toBe(false);
    startRun();
  });
});
