// Progress lines on a fake clock: when a benchmark is due a line, and what the line says (figures worked out by hand).
import { describe, expect, test } from 'vitest';
import { BenchmarkProgress, formatDuration, progressLine } from '../../src/vitest/progress.ts';
import { isNonInteractive } from '../../src/vitest/runProgress.ts';

describe('BenchmarkProgress', () => {
  test('a line per running benchmark at most every interval: done/total, items/s, origin of the answers, time left', () => {
    let now = 0;
    const progress = new BenchmarkProgress({ intervalMs: 10_000, now: () => now });
    for (const id of ['a', 'b', 'c', 'd', 'a']) progress.expect('multiloko', id);
    progress.expect('kalahi', 'k1');
    progress.expect('kalahi', 'k2');
    expect(progress.due()).toEqual([]);

    now = 1000;
    progress.started('a');
    progress.started('b');
    now = 5000;
    expect(progress.due()).toEqual([]);
    now = 6000;
    progress.finished('a', { model: 1, cached: 0 });
    now = 8000;
    progress.finished('b', { model: 0, cached: 2 });
    progress.finished('b', { model: 0, cached: 2 });
    progress.finished('unknown', { model: 5, cached: 0 });

    // 10 s after the first start: 2 of 4 done in 10 s = 0.2 items/s; 2 left at that rate = 10 s.
    now = 11_000;
    expect(progress.due()).toEqual(['lokal: multiloko 2/4 items (50%) · 0.20 items/s · 1 asked the model, 1 from the cache · 10 s left']);
    now = 15_000;
    expect(progress.due()).toEqual([]);
    now = 16_000;
    progress.finished('c');
    // 3 done in 20 s = 0.15 items/s; 1 left: 6.67 s, shown as 7 s.
    now = 21_000;
    expect(progress.due()).toEqual(['lokal: multiloko 3/4 items (75%) · 0.15 items/s · 1 asked the model, 1 from the cache · 7 s left']);

    now = 30_000;
    progress.finished('d', { model: 1, cached: 1 });
    progress.started('k1');
    // A finished benchmark says nothing more; one without a finished item says how long it has waited.
    now = 45_000;
    expect(progress.due()).toEqual(['lokal: kalahi 0/2 items (0%) · 0.00 items/s · no item done in 15 s']);
  });

  test('an interval of 0 lines on every call; a benchmark never started stays silent', () => {
    let now = 0;
    const progress = new BenchmarkProgress({ intervalMs: 0, now: () => now });
    progress.expect('toy', 'x');
    progress.expect('toy', 'y');
    progress.expect('idle', 'z');
    progress.started('x');
    now = 500;
    progress.finished('x');
    // 1 done in 0.5 s = 2 items/s; 1 left: 0.5 s, rounded to 1 s.
    expect(progress.due()).toEqual(['lokal: toy 1/2 items (50%) · 2.00 items/s · 1 s left']);
    expect(progress.due()).toHaveLength(1);
  });
});

describe('progressLine and formatDuration', () => {
  test('rates of ten or more per second get one decimal; durations in s, min, h', () => {
    expect(progressLine('m', { total: 1000, done: 250, askedModel: 0, fromCache: 250 }, 20_000)).toBe(
      'lokal: m 250/1000 items (25%) · 12.5 items/s · 0 asked the model, 250 from the cache · 1 min 00 s left',
    );
    expect(formatDuration(59_400)).toBe('59 s');
    expect(formatDuration(59_600)).toBe('1 min 00 s');
    expect(formatDuration(3_725_000)).toBe('1 h 02 min');
  });
});

describe('isNonInteractive', () => {
  test('CI set, or stdout not a terminal', () => {
    expect(isNonInteractive({ CI: '1' }, { isTTY: true })).toBe(true);
    expect(isNonInteractive({ CI: 'true' }, { isTTY: true })).toBe(true);
    expect(isNonInteractive({ CI: 'false' }, { isTTY: true })).toBe(false);
    expect(isNonInteractive({}, { isTTY: true })).toBe(false);
    expect(isNonInteractive({}, { isTTY: false })).toBe(true);
    expect(isNonInteractive({}, {})).toBe(true);
  });
});
