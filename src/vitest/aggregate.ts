// A subset's figures from its item records: each id once (eval.py's dict: first position, last value), then the means.
import { MULTILOKO_METRICS, languageMeans } from '../metrics/index.ts';
import type { LokalItemRecord, LokalSubsetAggregate, LokalSubsetInfo } from './meta.ts';

/** Python dict key of an id: 1 and "1" are different keys. */
export function idKey(id: string | number): string {
  return `${typeof id === 'number' ? 'n' : 's'}:${String(id)}`;
}

/** Records sorted by item position (stable), then deduplicated by id the way a Python dict does. */
export function uniqueRecords(records: readonly LokalItemRecord[]): LokalItemRecord[] {
  const sorted = [...records].sort((a, b) => a.index - b.index);
  const byId = new Map<string, LokalItemRecord>();
  for (const record of sorted) byId.set(idKey(record.id), record);
  return [...byId.values()];
}

/** The structural part of a runner Task or a reporter TestCase that aggregation needs. */
export interface ItemTestView {
  meta: { lokalItem?: LokalItemRecord; lokalSubset?: LokalSubsetInfo };
  state: 'passed' | 'failed' | 'skipped' | 'pending';
}

/** Aggregates one subset suite: its gate test's subset info plus the item tests; undefined for a non-lokal suite. */
export function aggregateSubset(tests: readonly ItemTestView[]): LokalSubsetAggregate | undefined {
  const info = tests.find((t) => t.meta.lokalSubset)?.meta.lokalSubset;
  if (!info) return undefined;
  const items = tests.filter((t) => !t.meta.lokalSubset);
  const records = uniqueRecords(items.flatMap((t) => (t.meta.lokalItem ? [t.meta.lokalItem] : [])));
  const aggregate: LokalSubsetAggregate = {
    ...info,
    scored: records.length,
    missing: records.filter((r) => r.missing).length,
    failed: items.filter((t) => !t.meta.lokalItem && t.state === 'failed').length,
    skipped: items.filter((t) => !t.meta.lokalItem && t.state !== 'failed').length,
  };
  // eval.py skips an id equal to a metric name when averaging (that key is then overwritten by the mean).
  const counted = records.filter((r) => !(typeof r.id === 'string' && (MULTILOKO_METRICS as readonly string[]).includes(r.id)));
  if (counted.length > 0) aggregate.means = languageMeans(counted.map((r) => r.scores));
  return aggregate;
}

/** Runner-side view of a Vitest task. */
export function viewOfTask(task: { type: string; meta: object; mode: string; result?: { state: string } }): ItemTestView {
  const state = task.result?.state;
  return {
    meta: task.meta as ItemTestView['meta'],
    state: state === 'pass' ? 'passed' : state === 'fail' ? 'failed' : state === 'skip' || state === 'todo' || task.mode === 'skip' || task.mode === 'todo' ? 'skipped' : 'pending',
  };
}
