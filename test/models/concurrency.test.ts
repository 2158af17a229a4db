// createLimiter: at most `limit` tasks at once; waiting tasks start lowest priority number first, in arrival order
// among equals, and unprioritised ones after every prioritised one.
import { describe, expect, test } from 'vitest';
import { createLimiter } from '../../src/models/concurrency.ts';

/** A task that records its start and ends when `finish(name)` is called. */
function harness() {
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  let running = 0;
  let most = 0;
  const task = (name: string) => () =>
    new Promise<string>((resolve) => {
      started.push(name);
      running++;
      most = Math.max(most, running);
      finishers.set(name, () => {
        running--;
        resolve(name);
      });
    });
  const finish = async (name: string) => {
    finishers.get(name)!();
    // the limiter starts the next task once the finished one's promise has settled
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { started, task, finish, most: () => most };
}

describe('createLimiter', () => {
  test('waiting tasks start by priority, then arrival; at most `limit` run', async () => {
    const limiter = createLimiter(2);
    const h = harness();
    const done = [
      limiter(h.task('a'), 0),
      limiter(h.task('b'), 1),
      limiter(h.task('plain 1')),
      limiter(h.task('c'), 2),
      limiter(h.task('a again'), 0),
      limiter(h.task('b again'), 1),
      limiter(h.task('plain 2')),
    ];
    expect(h.started).toEqual(['a', 'b']);
    expect([limiter.active, limiter.waiting]).toEqual([2, 5]);
    for (const name of ['a', 'b', 'a again', 'b again', 'c', 'plain 1', 'plain 2']) await h.finish(name);
    expect(h.started).toEqual(['a', 'b', 'a again', 'b again', 'c', 'plain 1', 'plain 2']);
    expect(await Promise.all(done)).toEqual(['a', 'b', 'plain 1', 'c', 'a again', 'b again', 'plain 2']);
    expect(h.most()).toBe(2);
    expect([limiter.active, limiter.waiting]).toEqual([0, 0]);
  });

  test('a task that throws releases its slot and rejects its caller', async () => {
    const limiter = createLimiter(1);
    const failing = limiter(() => {
      throw new Error('broken');
    });
    await expect(failing).rejects.toThrow('broken');
    await expect(limiter(async () => 'next')).resolves.toBe('next');
    expect(() => createLimiter(0)).toThrow(RangeError);
  });
});
