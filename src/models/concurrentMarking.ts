// onnxruntime-node copies every output of a run into a new ArrayBuffer (a decode step's logits and key/value cache, tens
// of MB), so V8 starts marking its heap every few steps; its concurrent marking threads then take cores from
// onnxruntime's own threads whenever those already hold every CPU (`npm run bench -- marking`: 2.1x on a 6-layer model).
import { availableParallelism } from 'node:os';
import v8 from 'node:v8';

/** What became of V8's concurrent marking when a model loaded: see keepMarkingOffModelCores. */
export type ConcurrentMarking = 'stopped' | 'kept: cores to spare' | 'kept: chosen at start' | 'kept: thread count unknown';

/**
 * Whether node was started with a concurrent-marking flag of its own (either way round), which is then left alone
 * (NODE_OPTIONS refuses V8 flags: they come in execArgv, e.g. Vitest's `execArgv` option).
 */
export function chosenAtStart(execArgv: readonly string[]): boolean {
  return execArgv.some((arg) => /^--(?:no-)?concurrent[-_]marking$/u.test(arg));
}

/**
 * The decision alone: stop concurrent marking when the session's intra-op threads take every CPU the process may use,
 * unless node was started with a marking flag of its own or the thread count is onnxruntime's unknown default.
 */
export function markingDecision(threads: number | undefined, cpus: number, startedWithFlag: boolean): ConcurrentMarking {
  if (startedWithFlag) return 'kept: chosen at start';
  if (threads === undefined) return 'kept: thread count unknown';
  return threads >= cpus ? 'stopped' : 'kept: cores to spare';
}

/** The process a decision is made for, and how a V8 flag is set in it. */
interface MarkingProcess {
  execArgv: readonly string[];
  cpus: number;
  setFlags(flags: string): void;
}

const THIS_PROCESS: MarkingProcess = {
  execArgv: process.execArgv,
  cpus: availableParallelism(),
  setFlags: (flags) => v8.setFlagsFromString(flags),
};

// Safe at run time: node leaves V8's flags unfrozen for v8.setFlagsFromString, and V8 still joins marking jobs started
// before the switch (they count as its parallel marking, on by default).
/**
 * Turns V8's concurrent marking off for this process (a Vitest worker holding the model) when the model's threads take
 * every CPU: the main thread then marks in small steps between runs instead (setting it again changes nothing).
 */
export function keepMarkingOffModelCores(threads: number | undefined, where: MarkingProcess = THIS_PROCESS): ConcurrentMarking {
  const decision = markingDecision(threads, where.cpus, chosenAtStart(where.execArgv));
  if (decision === 'stopped') where.setFlags('--no-concurrent-marking');
  return decision;
}
