// Parts of one benchmark's items, so that CI shards (Vitest's --shard splits by file) can each run one: which part an
// item falls in, balanced by count (or by the plan's item weights) and stable across runs, and the `i/n` spec that
// names a part.
import { createHash } from 'node:crypto';
import type { BenchmarkGroup, GroupInfo } from './benchmark.ts';

/** One part of n: `index` from 1 to `count`. */
export interface PartSpec {
  index: number;
  count: number;
}

/** A part spec that is not `i/n` with 1 ≤ i ≤ n (thrown with one line naming it). */
export class PartSpecError extends Error {
  override name = 'PartSpecError';
}

/** `[i, n]` or `'i/n'` as a part; anything else, or i outside 1..n, throws a PartSpecError naming it. */
export function parsePart(spec: unknown): PartSpec {
  let index: unknown;
  let count: unknown;
  if (Array.isArray(spec) && spec.length === 2) [index, count] = spec as unknown[];
  else if (typeof spec === 'string' && /^\s*\d+\s*\/\s*\d+\s*$/u.test(spec)) [index, count] = spec.split('/').map((s) => Number(s));
  const whole = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
  if (!whole(index) || !whole(count) || index < 1 || count < 1 || index > count) {
    const shown = typeof spec === 'string' ? JSON.stringify(spec) : Array.isArray(spec) ? `[${spec.map((v) => JSON.stringify(v)).join(', ')}]` : String(JSON.stringify(spec));
    throw new PartSpecError(`part ${shown} is not i/n with 1 ≤ i ≤ n (e.g. [2, 4] or "2/4")`);
  }
  return { index, count };
}

/** A part as its file names and lines show it: `2/4`. */
export function partLabel(part: PartSpec): string {
  return `${part.index}/${part.count}`;
}

/** The 64-bit prefix of an id's SHA-256, as a sortable hex string: where the id sits in the parts' order. */
function position(id: string): string {
  return createHash('sha256').update(id).digest('hex').slice(0, 16);
}

/**
 * The part (0-based) of each id, for `count` parts. The rule: ids are ordered by the SHA-256 of the id (ties by the id),
 * and that order is cut into `count` runs of equal weight — an item goes to part ⌊(weight before it + half its own) ×
 * count / total⌋ — so part sizes differ by at most one item (unit weights), and an item's part depends only on where
 * its hash falls among the run's hashes: adding or removing items moves others only across the cuts near them.
 * Ids must be unique (the caller makes them so).
 */
export function assignParts(ids: readonly string[], count: number, weights?: readonly number[]): number[] {
  if (!Number.isSafeInteger(count) || count < 1) throw new RangeError(`parts must be a whole number from 1 (got ${count})`);
  if (weights && weights.length !== ids.length) throw new RangeError(`${weights.length} weights for ${ids.length} ids`);
  const order = ids.map((id, i) => ({ i, key: position(id), id })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const weight = (i: number) => {
    const w = weights?.[i] ?? 1;
    // A weight of zero or less (an empty prompt) still counts as an item, so no part collects them all.
    return Number.isFinite(w) && w > 0 ? w : 1;
  };
  const total = order.reduce((sum, o) => sum + weight(o.i), 0);
  const parts = new Array<number>(ids.length);
  let before = 0;
  for (const { i } of order) {
    const w = weight(i);
    parts[i] = Math.min(count - 1, Math.floor(((before + w / 2) * count) / total));
    before += w;
  }
  return parts;
}

/** Unique ids for items whose own ids may repeat: the n-th repeat of an id gets `\u0000n` appended (n from 1). */
export function uniqueIds(ids: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return ids.map((id) => {
    const n = seen.get(id) ?? 0;
    seen.set(id, n + 1);
    return n === 0 ? id : `${id}\u0000${n}`;
  });
}

/** The items of every group as one list, each with its stable id: the group's key and the item's own id. */
function partIds<Item>(groups: ReadonlyArray<BenchmarkGroup<Item, GroupInfo>>, itemId: (item: Item) => string): string[] {
  return uniqueIds(groups.flatMap((group) => group.items.map((item) => `${group.info.key}\u0000${itemId(item)}`)));
}

/**
 * The groups as part `part` holds them: each group's items (and its sections') that fall in the part, in their order;
 * a group with none is left out. The union of the parts 1..n is every group's items, each in exactly one part. With
 * `itemWeight` (the plan's expected cost of an item, from the data alone) the parts are balanced by weight, not count.
 */
export function groupsOfPart<Item, Info extends GroupInfo>(
  groups: ReadonlyArray<BenchmarkGroup<Item, Info>>,
  part: PartSpec,
  itemId: (item: Item) => string,
  itemWeight?: (item: Item, group: Info) => number,
): Array<BenchmarkGroup<Item, Info>> {
  const weights = itemWeight ? groups.flatMap((group) => group.items.map((item) => itemWeight(item, group.info))) : undefined;
  const assigned = assignParts(partIds(groups, itemId), part.count, weights);
  const out: Array<BenchmarkGroup<Item, Info>> = [];
  let at = 0;
  for (const group of groups) {
    const kept = new Set<Item>();
    for (const item of group.items) if (assigned[at++] === part.index - 1) kept.add(item);
    if (kept.size === 0) continue;
    out.push({
      ...group,
      items: group.items.filter((item) => kept.has(item)),
      ...(group.sections ? { sections: group.sections.map((s) => ({ name: s.name, items: s.items.filter((item) => kept.has(item)) })).filter((s) => s.items.length > 0) } : {}),
    });
  }
  return out;
}
