// A counting semaphore: at most `limit` tasks run at once; the rest wait, lowest priority number first, in arrival order
// among equals (no priority: after every prioritised task, in arrival order).

export interface Limiter {
  <T>(task: () => Promise<T>, priority?: number): Promise<T>;
  readonly active: number;
  readonly waiting: number;
}

export function createLimiter(limit: number): Limiter {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`concurrency limit must be a positive integer, got ${limit}`);
  let active = 0;
  const queue: Array<{ start: () => void; priority: number }> = [];
  const release = () => {
    active--;
    const next = queue.shift();
    if (next) next.start();
  };
  const run = <T>(task: () => Promise<T>, priority = Number.POSITIVE_INFINITY): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const start = () => {
        active++;
        let result: Promise<T>;
        try {
          result = task();
        } catch (error) {
          result = Promise.reject(error);
        }
        result.then(resolve, reject).finally(release);
      };
      if (active < limit) {
        start();
        return;
      }
      // From the end: most tasks arrive with the largest priority so far (a new item), and go last at once.
      let at = queue.length;
      while (at > 0 && queue[at - 1]!.priority > priority) at--;
      queue.splice(at, 0, { start, priority });
    });
  return Object.defineProperties(run, {
    active: { get: () => active },
    waiting: { get: () => queue.length },
  }) as Limiter;
}
