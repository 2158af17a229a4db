// Local vs English item by item: the 2×2 counts against a plain count over the two subsets' records, and McNemar's
// exact p against 2·Σ binomial tail worked out with exact integers.
import { describe, expect, test } from 'vitest';
import { agreementTable } from '../../src/core/statistics/agreementTable.ts';
import { localVsEnglish } from '../../src/benchmarks/multiloko/results/localVsEnglish.ts';
import { parseSubsetKey } from '../../src/benchmarks/multiloko/data/subsetKey.ts';
import type { LokalSubsetAggregate } from '../../src/benchmarks/multiloko/run/records.ts';
import { summariseGroups, summariseRun } from '../../src/benchmarks/multiloko/results/rollup.ts';
import type { RolledSubset } from '../../src/benchmarks/multiloko/run/rolledSubset.ts';
import { seededRandom } from '../support/seededRandom.ts';
import { mcnemarByHand } from '../support/mcnemarByHand.ts';

/** A subset as the roll-up receives it: its key's languages, and one record per id with that EM. */
function subset(key: string, ems: Record<string, number>): RolledSubset {
  const parsed = parseSubsetKey(key);
  const translated = parsed.kind === 'translated';
  const source = translated ? parsed.sourceLanguage : parsed.language;
  const question = translated ? parsed.questionLanguage : parsed.language;
  const values = Object.values(ems);
  const em = values.reduce((a, b) => a + b, 0) / values.length;
  const aggregate = {
    benchmark: 'multiloko', key, name: key, language: source === 'english' ? question : source, sourceLanguage: source, questionLanguage: question,
    translated, ...(translated ? { translation: parsed.translation } : {}), order: 0, selected: values.length, total: values.length,
    scored: values.length, missing: 0, failed: 0, skipped: 0, cached: 0, modelCalls: 0, modelMs: 0, prompts: [],
    means: { em, f1: em, bleu: 100 * em, chrf: 100 * em, edit_distance: 1 - em, edit_similarity: em, edit_distance_first: 1 - em },
  } as unknown as LokalSubsetAggregate;
  const records = Object.entries(ems).map(([id, v], index) => ({ subset: key, id, index, scores: { em: v } }));
  return { aggregate, records: records as unknown as RolledSubset['records'] };
}

/** Random EMs for ids q0 … q(n-1), skipping some ids so that each side has items the other lacks. */
function randomEms(random: () => number, n: number, rightRate: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (let i = 0; i < n; i++) if (random() > 0.05) out[`q${i}`] = random() < rightRate ? 1 : 0;
  return out;
}

describe('the 2×2 table of two subsets', () => {
  test('counts equal a straightforward count over both subsets, on 200 random pairs of subsets', () => {
    const random = seededRandom(2);
    for (let round = 0; round < 200; round++) {
      const n = 1 + Math.floor(random() * 60);
      const english = randomEms(random, n, random());
      const local = randomEms(random, n, random());
      const t = agreementTable(
        Object.entries(english).map(([id, em]) => ({ id, em })),
        Object.entries(local).map(([id, em]) => ({ id, em })),
      );
      const both = Object.keys(local).filter((id) => id in english);
      expect(t.paired).toBe(both.length);
      expect(t.bothRight).toEqual(both.filter((id) => english[id] === 1 && local[id] === 1));
      expect(t.englishOnly).toEqual(both.filter((id) => english[id] === 1 && local[id] === 0));
      expect(t.localOnly).toEqual(both.filter((id) => english[id] === 0 && local[id] === 1));
      expect(t.bothWrong).toEqual(both.filter((id) => english[id] === 0 && local[id] === 0));
      expect(t.unpairedLocal).toEqual(Object.keys(local).filter((id) => !(id in english)));
      expect(t.unpairedEnglish).toEqual(Object.keys(english).filter((id) => !(id in local)));
      expect(t.p).toBeCloseTo(mcnemarByHand(t.englishOnly.length, t.localOnly.length), 12);
    }
  });

  test('McNemar by hand on small tables', () => {
    // b = 1, c = 5: 2 · (C(6,0) + C(6,1)) / 64 = 2 · 7/64 = 0.21875.
    const t = agreementTable(
      ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((id, i) => ({ id, em: i === 0 || i === 6 ? 1 : 0 })),
      ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((id, i) => ({ id, em: i === 0 ? 0 : 1 })),
    );
    expect([t.bothRight, t.englishOnly, t.localOnly, t.bothWrong]).toEqual([['g'], ['a'], ['b', 'c', 'd', 'e', 'f'], []]);
    expect(t.p).toBeCloseTo(0.21875, 14);
    // b = 0, c = 6: 2 · 1/64 = 0.03125; no discordant question: p = 1.
    expect(agreementTable([1, 2, 3, 4, 5, 6].map((id) => ({ id, em: 0 })), [1, 2, 3, 4, 5, 6].map((id) => ({ id, em: 1 }))).p).toBeCloseTo(0.03125, 14);
    expect(agreementTable([{ id: 1, em: 1 }], [{ id: 1, em: 1 }]).p).toBe(1);
  });
});

describe('local_vs_english in the run summary', () => {
  const random = seededRandom(11);
  const ems = Object.fromEntries(
    ['italian', 'italian_translated_human_english', 'italian_translated_machine_english', 'english', 'english_translated_human_italian', 'french', 'english_translated_machine_french']
      .map((key) => [key, randomEms(random, 40, 0.5)]),
  );
  const subsets = Object.entries(ems).map(([key, values]) => subset(key, values));

  test('a table per language and kind: local questions against their English translation, English questions against theirs', () => {
    const block = localVsEnglish(subsets);
    expect(Object.keys(block)).toEqual(['italian', 'french']);
    expect(Object.keys(block.italian!.to_english!)).toEqual(['human', 'machine']);
    expect(Object.keys(block.italian!.from_english!)).toEqual(['human']);
    // French has no translation into English in this run: only its English questions' table.
    expect(block.french!.to_english).toBeUndefined();
    const check = (englishKey: string, localKey: string, got: NonNullable<typeof block.italian>['to_english']) => {
      const english = ems[englishKey]!;
      const local = ems[localKey]!;
      const both = Object.keys(local).filter((id) => id in english);
      const count = (e: number, l: number) => both.filter((id) => english[id] === e && local[id] === l).length;
      const pair = Object.values(got!).find((p) => p!.local === localKey && p!.english === englishKey)!;
      expect(pair).toMatchObject({
        paired: both.length,
        both_right: count(1, 1),
        english_only: count(1, 0),
        local_only: count(0, 1),
        both_wrong: count(0, 0),
        english_only_ids: both.filter((id) => english[id] === 1 && local[id] === 0),
        local_only_ids: both.filter((id) => english[id] === 0 && local[id] === 1),
        unpaired: { english: Object.keys(english).length - both.length, local: Object.keys(local).length - both.length },
      });
      expect(pair.mcnemar_p).toBeCloseTo(mcnemarByHand(count(1, 0), count(0, 1)), 12);
    };
    check('italian_translated_human_english', 'italian', block.italian!.to_english);
    check('italian_translated_machine_english', 'italian', block.italian!.to_english);
    check('english', 'english_translated_human_italian', block.italian!.from_english);
    check('english', 'english_translated_machine_french', block.french!.from_english);
  });

  test('summariseRun carries the block; a run without pairs has none', () => {
    const judged = { outcomes: [], notApplied: [] };
    const summary = summariseRun(subsets, summariseGroups(subsets), judged, { intervals: false });
    expect(summary.local_vs_english).toEqual(localVsEnglish(subsets));
    const alone = [subsets[0]!];
    expect(summariseRun(alone, summariseGroups(alone), judged, { intervals: false })).not.toHaveProperty('local_vs_english');
  });
});
