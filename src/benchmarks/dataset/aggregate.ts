// A group's figures from its item tests: the same on the runner side (gate test) and the reporter side (roll-up).
import type { GroupInfo, ItemView } from '../benchmark.ts';
import type { DatasetMetric } from './options.ts';
import type { DatasetAggregate, DatasetRecord } from './records.ts';

export function aggregateDataset(info: GroupInfo, items: ReadonlyArray<ItemView<DatasetRecord>>, metrics: readonly DatasetMetric[]): DatasetAggregate {
  const records = items.flatMap((i) => (i.record ? [i.record] : []));
  const failed = items.filter((i) => !i.record && i.state === 'failed').length;
  const skipped = items.filter((i) => !i.record && i.state === 'skipped').length;
  const means: DatasetAggregate['means'] = {};
  for (const m of metrics) means[m] = records.length === 0 ? null : records.reduce((sum, r) => sum + (r.scores[m] ?? 0), 0) / records.length;
  return { ...info, scored: records.length, missing: records.filter((r) => r.missing).length, failed, skipped, means };
}

/** Each item once, in data order: a repeated id keeps its last record in its first place. */
export function uniqueDatasetRecords(records: readonly DatasetRecord[]): DatasetRecord[] {
  const byId = new Map<string, DatasetRecord>();
  for (const r of records) byId.set(String(r.id), r);
  return [...byId.values()];
}
