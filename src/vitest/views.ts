// Tests as aggregation sees them, from the runner's tasks (in the worker) and from the reporter's test cases.
import type { GateRecord, GroupInfo, ItemView } from '../benchmarks/benchmark.ts';
import './meta.ts';

type State = ItemView<unknown>['state'];

/** The runner-side shape of a Vitest task that aggregation needs. */
export interface RunnerTaskLike {
  type: string;
  meta: { lokalItem?: unknown; lokalGroup?: GroupInfo; lokalGate?: GateRecord };
  mode: string;
  result?: { state: string };
  tasks?: readonly RunnerTaskLike[];
}

export function runnerState(task: Pick<RunnerTaskLike, 'mode' | 'result'>): State {
  const state = task.result?.state;
  if (state === 'pass') return 'passed';
  if (state === 'fail') return 'failed';
  return state === 'skip' || state === 'todo' || task.mode === 'skip' || task.mode === 'todo' ? 'skipped' : 'pending';
}

/** Every test below a runner suite (nested describes included). */
export function descendantTests(suite: { tasks: readonly RunnerTaskLike[] }): RunnerTaskLike[] {
  const out: RunnerTaskLike[] = [];
  for (const task of suite.tasks) {
    if (task.type === 'test') out.push(task);
    else if (task.tasks) out.push(...descendantTests({ tasks: task.tasks }));
  }
  return out;
}

/** A group suite's parts: its gate test's info and record, and its item tests. */
interface GroupTests<T> {
  info: GroupInfo;
  gate: GateRecord | undefined;
  items: T[];
}

/** Splits a group's tests into the gate test (the one carrying the group info) and the item tests. */
export function groupTests<T>(tests: readonly T[], meta: (test: T) => RunnerTaskLike['meta']): GroupTests<T> | undefined {
  const gateTest = tests.find((t) => meta(t).lokalGroup);
  if (!gateTest) return undefined;
  return { info: meta(gateTest).lokalGroup!, gate: meta(gateTest).lokalGate, items: tests.filter((t) => t !== gateTest) };
}
