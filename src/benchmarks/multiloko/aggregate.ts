// A subset's figures from its item records: each id once (eval.py's dict: first position, last value), then the means.
import { MULTILOKO_METRICS } from './metrics/metricNames.ts';
import { languageMeans } from './metrics/languageMeans.ts';
import type { GateRecord, ItemView } from '../../core/benchmark.ts';
import type { LokalItemRecord, LokalPromptUse, LokalSubsetAggregate, LokalSubsetInfo } from './records.ts';

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

/** Aggregates one subset: its info plus its item tests' records (and the model its gate test recorded). */
export function aggregateSubset(info: LokalSubsetInfo, items: ReadonlyArray<ItemView<LokalItemRecord>>, gate?: GateRecord): LokalSubsetAggregate {
  const records = uniqueRecords(items.flatMap((t) => (t.record ? [t.record] : [])));
  const fromModel = records.filter((r) => !r.cached && !r.missing);
  const modelDescription = gate?.model;
  const aggregate: LokalSubsetAggregate = {
    ...info,
    scored: records.length,
    missing: records.filter((r) => r.missing).length,
    failed: items.filter((t) => !t.record && t.state === 'failed').length,
    skipped: items.filter((t) => !t.record && t.state !== 'failed').length,
    cached: records.filter((r) => r.cached).length,
    modelCalls: fromModel.length,
    modelMs: fromModel.reduce((sum, r) => sum + r.latencyMs, 0),
    prompts: promptUses(records),
    ...(modelDescription ? { modelDescription } : {}),
  };
  // eval.py skips an id equal to a metric name when averaging (that key is then overwritten by the mean).
  const counted = records.filter((r) => !(typeof r.id === 'string' && (MULTILOKO_METRICS as readonly string[]).includes(r.id)));
  if (counted.length > 0) aggregate.means = languageMeans(counted.map((r) => r.scores));
  return aggregate;
}

/** The distinct prompt uses of the records, in order of first appearance, with their item counts. */
export function promptUses(records: readonly LokalItemRecord[]): Array<LokalPromptUse & { items: number }> {
  const uses = new Map<string, LokalPromptUse & { items: number }>();
  for (const record of records) {
    if (!record.prompt) continue;
    const { mode, language, fewshot, shots, extracted } = record.prompt;
    const key = JSON.stringify([mode, language, fewshot, shots, extracted]);
    const use = uses.get(key);
    if (use) use.items++;
    else uses.set(key, { mode, language, fewshot, shots, extracted, items: 1 });
  }
  return [...uses.values()];
}
