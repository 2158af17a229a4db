// A suite's summary tests run after its other children although they are listed first: Vitest UI and the reporters
// list tests as collected (the main process keeps that tree), the worker runs its suite's children in array order.
import './meta.ts';

/** Moves the summary tests of `suite` behind its other children, in place, keeping both parts' order. */
export function runSummariesLast(suite: { tasks: Array<{ type: string; meta: { lokalSummary?: boolean } }> }): void {
  const summaries = suite.tasks.filter((t) => t.type === 'test' && t.meta.lokalSummary === true);
  if (summaries.length === 0) return;
  const others = suite.tasks.filter((t) => !summaries.includes(t));
  suite.tasks.splice(0, suite.tasks.length, ...others, ...summaries);
}
