// A counting semaphore: at most `limit` tasks run at once, the rest wait in FIFO order.

export interface Limiter {
  <T>(task: () => Promise<T>): Promise<T>;
  readonly active: number;
  readonly waiting: number;
}

export function createLimiter(limit: number): Limiter {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`concurrency limit must be a positive integer, got ${limit}`);
  let active = 0;
  const queue: Array<() => void> = [];
  const release = () => {
    active--;
    const next = queue.shift();
    if (next) next();
  };
  const run = <T>(task: () => Promise<T>): Promise<T> =>
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
      if (active < limit) start();
      else queue.push(start);
    });
  return Object.defineProperties(run, {
    active: { get: () => active },
    waiting: { get: () => queue.length },
  }) as Limiter;
}
