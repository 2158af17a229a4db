// A subset as the roll-up holds it (its aggregate and its item records): its own file, so the roll-up's parts
// (headline, intervals, baseline gate, local vs English) take the type without importing rollup.ts, which calls them.
import type { LokalItemRecord, LokalSubsetAggregate } from './records.ts';

export interface RolledSubset {
  aggregate: LokalSubsetAggregate;
  /** Each id once, in item order. */
  records: LokalItemRecord[];
}
