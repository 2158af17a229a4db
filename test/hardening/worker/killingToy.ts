// The toy benchmark (test/toy) with one change: the item whose id is in TOY_KILL_ITEM (or, with TOY_KILL_COLLECT, the
// collection) kills its own Vitest worker (SIGKILL, as the OOM killer does), so a test can see what the reporter makes
// of a run that did not finish.
import { capitals } from '../../toy/toyBenchmark.ts';

type Capitals = typeof capitals;

export const killingCapitals: Capitals = {
  ...capitals,
  async prepare(settings, clauses) {
    // TOY_KILL_COLLECT: the worker dies while collecting (e.g. out of memory loading the data), before any group exists.
    if (process.env.TOY_KILL_COLLECT) process.kill(process.pid, 'SIGKILL');
    const plan = await capitals.prepare(settings, clauses);
    const victim = Number(process.env.TOY_KILL_ITEM);
    return {
      ...plan,
      async runItem(item, info, context) {
        if (item.id === victim) {
          // A moment first, so the worker has reported the groups that finished before it dies.
          await new Promise((resolve) => setTimeout(resolve, 1000));
          process.kill(process.pid, 'SIGKILL');
        }
        return plan.runItem(item, info, context);
      },
    };
  },
};
