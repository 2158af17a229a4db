// runCancel: the worker-wide cancel reaches every item, also one that starts after it; a new run starts uncancelled.
import { getEventListeners } from 'node:events';
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

  test("tells it is stopped without making its signal, which listens to the test's signal only once made", () => {
    startRun();
    const ownTest = new AbortController();
    const stop = itemStop(ownTest.signal);
    const other = itemStop(new AbortController().signal);
    expect(getEventListeners(ownTest.signal, 'abort')).toHaveLength(0);
    expect(stop.aborted).toBe(false);
    ownTest.abort(new Error('Test timed out'));
    expect(stop.aborted).toBe(true);
    expect(other.aborted).toBe(false);
    cancelRun('keyboard-input');
    expect(other.aborted).toBe(true);
    // Made after the stop, the signal is born aborted with the reason.
    expect((other.signal.reason as Error).message).toBe('the run was cancelled (keyboard-input)');
    for (const one of [stop, other]) one.release();
    startRun();
    const listening = new AbortController();
    const made = itemStop(listening.signal);
    expect(made.signal.aborted).toBe(false);
    expect(getEventListeners(listening.signal, 'abort')).toHaveLength(1);
    made.release();
    expect(getEventListeners(listening.signal, 'abort')).toHaveLength(0);
    // Released unstopped and never made, it stays unstopped through a later cancel.
    const quiet = itemStop(new AbortController().signal);
    quiet.release();
    cancelRun('test-failure');
    expect(quiet.aborted).toBe(false);
    expect(quiet.signal.aborted).toBe(false);
    startRun();
  });
});
