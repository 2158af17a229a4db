// A subset's figures from its item records: each id once (eval.py's dict: first position, last value), then the means.
import { MULTILOKO_METRICS } from '../../../metrics/metricNames.ts';
import { languageMeans } from '../metrics/languageMeans.ts';
import { errorCounts } from './errorCounts.ts';
import type { GateRecord, ItemView } from '../../benchmark.ts';
import type { LokalItemRecord, LokalPromptUse, LokalSubsetAggregate, LokalSubsetInfo } from '../run/records.ts';

/** Python dict key of an id: 1 and "1" are different keys. */
export function idKey(id: string | number): string {
  return `${typeof id === 'number' ? 'n' : 's'}:${String(id)}`;
}

/** Records sorted by item position (stable), then deduplicated by id the way a Python dict does. */
export function uniqueRecords(records: readonly LokalItemRecord[]): LokalItemRecord[] {
  // Item tests usually report in item order already; sorting is then skipped (a stable sort would change nothing).
  let ordered = true;
  for (let i = 1; i < records.length && ordered; i++) ordered = records[i - 1]!.index <= records[i]!.index;
  const sorted = ordered ? records : [...records].sort((a, b) => a.index - b.index);
  const byId = new Map<string, LokalItemRecord>();
  for (const record of sorted) byId.set(idKey(record.id), record);
  return [...byId.values()];
}

/** Aggregates one subset: its info plus its item tests' records (and the model its gate test recorded). */
export function aggregateSubset(info: LokalSubsetInfo, items: ReadonlyArray<ItemView<LokalItemRecord>>, gate?: GateRecord): LokalSubsetAggregate {
  // One pass per list instead of one per figure: the runner and the gate test aggregate every subset.
  const withRecord: LokalItemRecord[] = [];
  let failed = 0;
  let skipped = 0;
  for (const t of items) {
    if (t.record) withRecord.push(t.record);
    else if (t.state === 'failed') failed++;
    else skipped++;
  }
  const records = uniqueRecords(withRecord);
  let missing = 0;
  let cached = 0;
  let modelCalls = 0;
  let modelMs = 0;
  const scores: LokalItemRecord['scores'][] = [];
  for (const r of records) {
    if (r.missing) missing++;
    if (r.cached) cached++;
    if (!r.cached && !r.missing) {
      modelCalls++;
      modelMs += r.latencyMs;
    }
    // eval.py skips an id equal to a metric name when averaging (that key is then overwritten by the mean).
    if (!(typeof r.id === 'string' && (MULTILOKO_METRICS as readonly string[]).includes(r.id))) scores.push(r.scores);
  }
  const modelDescription = gate?.model;
  const aggregate: LokalSubsetAggregate = {
    ...info,
    scored: records.length,
    missing,
    failed,
    skipped,
    cached,
    modelCalls,
    modelMs,
    prompts: promptUses(records),
    ...(modelDescription ? { modelDescription } : {}),
  };
  if (scores.length > 0) aggregate.means = languageMeans(scores);
  const errors = errorCounts(records);
  if (errors) aggregate.errors = errors;
  return aggregate;
}

/** The distinct prompt uses of the records, in order of first appearance, with their item counts. */
export function promptUses(records: readonly LokalItemRecord[]): Array<LokalPromptUse & { items: number }> {
  const uses = new Map<string, LokalPromptUse & { items: number }>();
  // Records of a subset are mostly asked the same way: the same fields as the previous record count for its use.
  let last: LokalPromptUse | undefined;
  let lastUse: (LokalPromptUse & { items: number }) | undefined;
  for (const record of records) {
    const prompt = record.prompt;
    if (!prompt) continue;
    const { mode, language, fewshot, shots, extracted } = prompt;
    if (last && lastUse && mode === last.mode && language === last.language && fewshot === last.fewshot && shots === last.shots && extracted === last.extracted) {
      lastUse.items++;
      continue;
    }
    const key = JSON.stringify([mode, language, fewshot, shots, extracted]);
    let use = uses.get(key);
    if (use) use.items++;
    else uses.set(key, (use = { mode, language, fewshot, shots, extracted, items: 1 }));
    last = prompt;
    lastUse = use;
  }
  return [...uses.values()];
}
