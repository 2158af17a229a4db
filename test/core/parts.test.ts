// Parts of one benchmark (src/benchmarks/parts.ts): the union of the n parts is the run with no overlap, parts are balanced,
// an item stays in its part when the run's other items change, and a bad part spec is one line naming it.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import type { BenchmarkGroup, GroupInfo } from '../../src/benchmarks/benchmark.ts';
import { assignParts, groupsOfPart, parsePart, PartSpecError, uniqueIds } from '../../src/benchmarks/parts.ts';
import { loadMultiLoKo } from '../../src/benchmarks/multiloko/data/multiloko.ts';
import type { MultiLoKoQuestion } from '../../src/benchmarks/multiloko/data/schema.ts';
import { titleUnless } from '../support/sharedData.ts';
import { REPO_ROOT } from '../vitest/helpers.ts';

const FIXTURES = path.join(REPO_ROOT, 'data/fixtures/multiloko');
const ARCHIVE = path.resolve(REPO_ROOT, '../shared/data/multiloko/benchmark_data.tar.xz.enc');
const COUNTS = [1, 3, 4, 16, 64];

type Group = BenchmarkGroup<MultiLoKoQuestion, GroupInfo>;

/** Every subset of the dataset as one group, as MultiLoKo's plan makes them (a subset's key and its items). */
async function groupsOf(location: string): Promise<Group[]> {
  const dataset = await loadMultiLoKo(location, 'dev');
  return dataset.subsets.map((s, order) => ({ info: { benchmark: 'multiloko', key: s.key, name: s.key, order, selected: s.items.length, total: s.items.length, model: undefined, thresholds: undefined }, items: s.items }));
}

const itemId = (item: MultiLoKoQuestion) => String(item.id);

/** The union of the parts, no overlap, each group's items in their order, sizes within one item of each other. */
function checkParts(groups: readonly Group[], n: number): void {
  const seen = new Map<MultiLoKoQuestion, number>();
  const sizes: number[] = [];
  for (let i = 1; i <= n; i++) {
    const part = groupsOfPart(groups, { index: i, count: n }, itemId);
    let size = 0;
    for (const group of part) {
      const whole = groups.find((g) => g.info.key === group.info.key)!;
      // the part's items are a subsequence of the group's, in the group's order
      const positions = group.items.map((item) => whole.items.indexOf(item));
      expect(positions.every((p, k) => p >= 0 && (k === 0 || p > positions[k - 1]!))).toBe(true);
      expect(group.info).toBe(whole.info);
      for (const item of group.items) seen.set(item, (seen.get(item) ?? 0) + 1);
      size += group.items.length;
    }
    sizes.push(size);
  }
  const all = groups.flatMap((g) => g.items);
  expect(seen.size).toBe(all.length);
  expect([...seen.values()].every((times) => times === 1)).toBe(true);
  expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
  expect(sizes.reduce((a, b) => a + b, 0)).toBe(all.length);
}

describe('parts of a benchmark', () => {
  test.each(COUNTS)('the fixtures in %i parts: every item once, sizes within one', async (n) => {
    const groups = await groupsOf(FIXTURES);
    // 21 items: with 64 parts most are empty, which a part file runs as nothing to do
    expect(groups.flatMap((g) => g.items).length).toBe(21);
    checkParts(groups, n);
  });

  test.skipIf(!existsSync(ARCHIVE))(titleUnless('the shared archive in 1, 3, 4, 16 and 64 parts: every item once, sizes within one', ARCHIVE), async () => {
    const groups = await groupsOf(ARCHIVE);
    expect(groups.flatMap((g) => g.items).length).toBeGreaterThan(64);
    for (const n of COUNTS) checkParts(groups, n);
  });

  test('part sizes by hand: 10 ids in 4 parts are 2, 3, 2, 3 items (rank r goes to ⌊(r + ½) × 4 / 10⌋)', () => {
    const parts = assignParts(Array.from({ length: 10 }, (_, i) => `id${i}`), 4);
    const sizes = [0, 1, 2, 3].map((p) => parts.filter((x) => x === p).length);
    // (r + ½) × 0.4 for r = 0..9: 0.2 0.6 | 1.0 1.4 1.8 | 2.2 2.6 | 3.0 3.4 3.8
    expect(sizes).toEqual([2, 3, 2, 3]);
  });

  test('weights balance the parts by weight: each part within the largest weight of an equal share', () => {
    const ids = Array.from({ length: 200 }, (_, i) => `w${i}`);
    const weights = ids.map((_, i) => (i % 10 === 0 ? 50 : 1));
    const parts = assignParts(ids, 4, weights);
    const load = [0, 1, 2, 3].map((p) => ids.reduce((sum, _, i) => sum + (parts[i] === p ? weights[i]! : 0), 0));
    // 20 × 50 + 180 × 1 = 1180, a share of 295
    expect(load.reduce((a, b) => a + b, 0)).toBe(1180);
    for (const l of load) expect(Math.abs(l - 295)).toBeLessThanOrEqual(50);
  });

  test('groupsOfPart with item weights (question bytes): every item once, each part within the heaviest question of an equal share', async () => {
    const groups = await groupsOf(FIXTURES);
    const weight = (item: MultiLoKoQuestion) => Buffer.byteLength(item.question ?? '', 'utf8');
    const all = groups.flatMap((g) => g.items);
    const total = all.reduce((sum, item) => sum + weight(item), 0);
    const heaviest = Math.max(...all.map(weight));
    for (const n of [2, 3, 4]) {
      const seen = new Set<MultiLoKoQuestion>();
      const loads: number[] = [];
      for (let i = 1; i <= n; i++) {
        let load = 0;
        for (const group of groupsOfPart(groups, { index: i, count: n }, itemId, weight)) {
          for (const item of group.items) {
            expect(seen.has(item)).toBe(false);
            seen.add(item);
            load += weight(item);
          }
        }
        loads.push(load);
      }
      expect(seen.size).toBe(all.length);
      for (const load of loads) expect(Math.abs(load - total / n), `${n} parts: ${loads.join(', ')}`).toBeLessThanOrEqual(heaviest);
    }
  });

  test('stable: the same items give the same parts in any order, and adding a language moves few other items', async () => {
    const groups = await groupsOf(FIXTURES);
    const n = 4;
    const partOf = (gs: readonly Group[]) => {
      const map = new Map<string, number>();
      for (let i = 1; i <= n; i++) for (const g of groupsOfPart(gs, { index: i, count: n }, itemId)) for (const item of g.items) map.set(`${g.info.key}/${itemId(item)}`, i);
      return map;
    };
    const all = partOf(groups);
    // the groups listed in another order: every item keeps its part
    expect(partOf([...groups].reverse())).toEqual(all);
    // one language more (its subsets added): items of the others move only across the cuts its items shift
    const italian = groups.filter((g) => g.info.key.startsWith('italian'));
    const without = groups.filter((g) => !italian.includes(g));
    const before = partOf(without);
    const added = italian.reduce((sum, g) => sum + g.items.length, 0);
    let moved = 0;
    for (const [key, p] of before) if (all.get(key) !== p) moved++;
    expect(added).toBeGreaterThan(0);
    expect(moved).toBeLessThanOrEqual(added);
    // a cut by position in the list (the first quarter of the items, …) would move far more: shown for contrast
    const byPosition = (gs: readonly Group[]) => {
      const keys = gs.flatMap((g) => g.items.map((item) => `${g.info.key}/${itemId(item)}`));
      return new Map(keys.map((k, r) => [k, Math.floor(((r + 0.5) * n) / keys.length)]));
    };
    const naiveBefore = byPosition(without);
    const naiveAfter = byPosition([...italian, ...without]);
    const naiveMoved = [...naiveBefore].filter(([k, p]) => naiveAfter.get(k) !== p).length;
    expect(moved).toBeLessThan(naiveMoved);
  });

  test('repeated ids are told apart by their occurrence', () => {
    expect(uniqueIds(['a', 'b', 'a', 'a'])).toEqual(['a', 'b', 'a\u00001', 'a\u00002']);
  });

  test('part specs: [i, n] and "i/n" with 1 ≤ i ≤ n; anything else is one line naming it', () => {
    expect(parsePart([2, 4])).toEqual({ index: 2, count: 4 });
    expect(parsePart('3/3')).toEqual({ index: 3, count: 3 });
    for (const bad of ['5/4', '0/4', '1/0', '2-4', [1.5, 4], [1], 'x', 7]) {
      let error: unknown;
      try {
        parsePart(bad);
      } catch (e) {
        error = e;
      }
      expect(error, String(bad)).toBeInstanceOf(PartSpecError);
      const message = (error as Error).message;
      expect(message).not.toContain('\n');
      expect(message).toMatch(/^part .+ is not i\/n with 1 ≤ i ≤ n/u);
    }
    expect(() => parsePart('5/4')).toThrow('part "5/4" is not i/n');
  });
});
