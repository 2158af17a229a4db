// The toy benchmark (test/toy) with one change: the item whose id is in TOY_KILL_ITEM (or, with TOY_KILL_COLLECT, the
// collection) kills its own Vitest worker (SIGKILL, as the OOM killer does), and the item in TOY_SLOW_ITEM takes
// TOY_SLOW_MS (a minute by default), so a test can see what the reporter makes of a run that did not finish.
import { writeFileSync } from 'node:fs';
import { capitals } from '../../toy/toyBenchmark.ts';

type Capitals = typeof capitals;

export const killingCapitals: Capitals = {
  ...capitals,
  async prepare(settings, clauses) {
    // TOY_KILL_COLLECT: the worker dies while collecting (e.g. out of memory loading the data), before any group exists.
    if (process.env.TOY_KILL_COLLECT) process.kill(process.pid, 'SIGKILL');
    const plan = await capitals.prepare(settings, clauses);
    const victim = Number(process.env.TOY_KILL_ITEM);
    const slow = Number(process.env.TOY_SLOW_ITEM);
    return {
      ...plan,
      async runItem(item, info, context) {
        if (item.id === victim) {
          // A moment first, so the worker has reported the groups that finished before it dies.
          await new Promise((resolve) => setTimeout(resolve, 1000));
          process.kill(process.pid, 'SIGKILL');
        }
        if (item.id === slow) {
          // A model call that takes long: TOY_SLOW_MARK is written when it starts, so a test knows when to interrupt.
          if (process.env.TOY_SLOW_MARK) writeFileSync(process.env.TOY_SLOW_MARK, String(process.pid));
          await new Promise((resolve) => setTimeout(resolve, Number(process.env.TOY_SLOW_MS ?? 60_000)));
        }
        return plan.runItem(item, info, context);
      },
    };
  },
};
