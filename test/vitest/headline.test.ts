// The headline figures in the results summary and the printed leaderboard, on a small multi-language fixture whose
// expected values are worked out by hand below (EM per subset chosen so every figure is a short decimal).
import { describe, expect, test } from 'vitest';
import { summariseHeadline } from '../../src/benchmarks/multiloko/results/headline.ts';
import { headlineLines, percent, withSpread } from '../../src/benchmarks/multiloko/results/headlineTable.ts';
import { markdownTable } from '../../src/core/textTable.ts';
import type { LokalSubsetAggregate } from '../../src/benchmarks/multiloko/run/records.ts';
import { judgeRun, summariseGroups, summariseRun } from '../../src/benchmarks/multiloko/results/rollup.ts';
import type { RolledSubset } from '../../src/benchmarks/multiloko/run/rolledSubset.ts';
import { describePrompts } from '../../src/benchmarks/multiloko/run/usage.ts';

function subset(key: string, order: number, em: number, prompts: LokalSubsetAggregate['prompts'] = []): RolledSubset {
  const m = /^(.+?)_translated_(human|machine)_(.+)$/.exec(key);
  const source = m ? m[1]! : key;
  const question = m ? m[3]! : key;
  const aggregate: LokalSubsetAggregate = {
    benchmark: 'multiloko', key, name: key, language: source === 'english' ? question : source, sourceLanguage: source, questionLanguage: question,
    translated: m !== null, ...(m ? { translation: m[2] as 'human' | 'machine' } : {}),
    order, split: 'dev', location: '/d', file: `${key}.jsonl`, selected: 10, total: 10, model: 'replay:p', strict: false,
    thresholds: undefined, baseline: undefined, baselineTolerance: 0.02, scored: 10, missing: 0, failed: 0, skipped: 0,
    cached: 0, modelCalls: 10, modelMs: 0, prompts,
    means: { em, f1: em, bleu: 0, chrf: 0, edit_distance: 0, edit_similarity: 0, edit_distance_first: 0 },
  };
  return { aggregate, records: [] };
}

// Local EM: english 0.6, french 0.4, italian 0.2.
// → English (MTE): italian human 0.3, french human 0.1, italian machine 0.1.
// English → (LE): italian human 0.5, french human 0.2, french machine 0.4. One pair of non-English languages: unused.
const fixture = [
  subset('english', 0, 0.6),
  subset('english_translated_human_french', 1, 0.2),
  subset('english_translated_human_italian', 2, 0.5),
  subset('english_translated_machine_french', 3, 0.4),
  subset('french', 4, 0.4),
  subset('french_translated_human_english', 5, 0.1),
  subset('italian', 6, 0.2),
  subset('italian_translated_human_english', 7, 0.3),
  subset('italian_translated_machine_english', 8, 0.1),
  subset('italian_translated_human_french', 9, 0.9),
];

describe('summariseHeadline', () => {
  const h = summariseHeadline(fixture)!;

  test('average EM ± 2 SE, min, max, gap over the local subsets only', () => {
    // mean (0.6 + 0.4 + 0.2) / 3 = 0.4; deviations 0.2, 0, −0.2 → sample variance 0.08 / 2 = 0.04, SD 0.2, SE 0.2/√3.
    expect(h.languages).toBe(3);
    expect(h.local_subsets).toEqual(['english', 'french', 'italian']);
    expect(h.em).toBeCloseTo(0.4, 15);
    expect(h.em_se).toBeCloseTo(0.2 / Math.sqrt(3), 15);
    expect(h.em_2se).toBeCloseTo(0.4 / Math.sqrt(3), 15);
    expect([h.em_min, h.em_min_language, h.em_max, h.em_max_language]).toEqual([0.2, 'italian', 0.6, 'english']);
    expect(h.em_gap).toBeCloseTo(0.4, 15);
    expect(h.per_language_em).toEqual({ english: 0.6, french: 0.4, italian: 0.2 });
    // Pooling the translated subsets (as eval.py's group_metrics does) would give a different mean: 3.7 / 10.
    expect(h.em).not.toBeCloseTo(0.37, 5);
  });

  test('mother tongue effect: local − translated into English, per language and averaged, human and machine', () => {
    // human: french 0.4 − 0.1 = 0.3, italian 0.2 − 0.3 = −0.1; mean 0.1; deviations ±0.2 → variance 0.08, SE √0.08/√2 = 0.2.
    const human = h.mte.human;
    expect(Object.keys(human.per_language)).toEqual(['french', 'italian']);
    expect(human.per_language.french).toBeCloseTo(0.3, 15);
    expect(human.per_language.italian).toBeCloseTo(-0.1, 15);
    expect(human.languages).toBe(2);
    expect(human.average).toBeCloseTo(0.1, 15);
    expect(human.se).toBeCloseTo(0.2, 15);
    expect(human.two_se).toBeCloseTo(0.4, 15);
    expect([human.min_language, human.max_language]).toEqual(['italian', 'french']);
    expect(human.gap).toBeCloseTo(0.4, 15);
    expect(human.skipped).toEqual([]);
    // machine: italian 0.2 − 0.1 = 0.1 only; french has no machine translation into English; one value, no SE.
    const machine = h.mte.machine;
    expect(machine.per_language).toEqual({ italian: expect.closeTo(0.1, 15) });
    expect([machine.languages, machine.se, machine.two_se]).toEqual([1, null, null]);
    expect(machine.skipped).toEqual(['french']);
  });

  test('locality effect: local − English questions translated into the language, human and machine', () => {
    // human: french 0.4 − 0.2 = 0.2, italian 0.2 − 0.5 = −0.3; mean −0.05; deviations ±0.25 → variance 0.125, SE √0.125/√2 = 0.25.
    const human = h.le.human;
    expect(human.per_language.french).toBeCloseTo(0.2, 15);
    expect(human.per_language.italian).toBeCloseTo(-0.3, 15);
    expect(human.average).toBeCloseTo(-0.05, 15);
    expect(human.se).toBeCloseTo(0.25, 15);
    expect([human.min, human.max]).toEqual([expect.closeTo(-0.3, 15), expect.closeTo(0.2, 15)]);
    // machine: french 0.4 − 0.4 = 0; italian has none.
    expect(h.le.machine.per_language).toEqual({ french: 0 });
    expect(h.le.machine.skipped).toEqual(['italian']);
    expect(h.unused_subsets).toEqual(['italian_translated_human_french']);
  });

  test('no local subset: no headline', () => {
    expect(summariseHeadline(fixture.filter((s) => s.aggregate.translated))).toBeNull();
  });
});

describe('the results summary', () => {
  test('carries the headline, the prompt used and the calls', () => {
    const base = { mode: 'base' as const, language: 'italian', fewshot: 'dataset' as const, shots: 5, extracted: true, items: 10 };
    const subsets = [subset('french', 0, 0.4, [{ ...base, language: 'french', fewshot: 'official' }]), subset('italian', 1, 0.2, [base])];
    subsets[1]!.aggregate.cached = 4;
    subsets[1]!.aggregate.modelCalls = 6;
    subsets[1]!.aggregate.modelMs = 300;
    subsets[0]!.aggregate.modelMs = 100;
    const groups = summariseGroups(subsets);
    const summary = summariseRun(subsets, groups, judgeRun(subsets, groups, { gates: [], baselineTolerance: 0.02 }));
    expect(summary.headline).toMatchObject({ languages: 2, em_min_language: 'italian', em_max_language: 'french' });
    expect(summary.prompt).toMatchObject({ mode: 'base', fewshot: 'mixed', shots: 5, extraction: true });
    expect(summary.prompt.uses.map((u) => [u.language, u.fewshot, u.items, u.subsets])).toEqual([['french', 'official', 10, ['french']], ['italian', 'dataset', 10, ['italian']]]);
    expect(describePrompts(summary.prompt)).toBe('base prompt, few-shot mixed ×5, answers extracted');
    // 10 + 6 calls took 100 + 300 ms; the 4 cache hits are not timed.
    expect(summary.calls).toEqual({ cached: 4, model_calls: 16, model_ms_total: 400, model_ms_mean: 25 });
    expect(summary.items.cached).toBe(4);
  });

  test('prompt descriptions', () => {
    const use = (mode: 'base' | 'chat' | 'none', fewshot: 'dataset' | 'official' | 'none', shots: number, extracted: boolean) =>
      ({ mode, fewshot, shots, extraction: extracted, uses: [] });
    expect(describePrompts(use('chat', 'none', 0, true))).toBe('chat prompt, zero-shot, answers extracted');
    expect(describePrompts(use('none', 'none', 0, false))).toBe('no prompt (replay), answers as given');
    expect(describePrompts(use('base', 'official', 3, false))).toBe('base prompt, few-shot official ×3, answers as given');
  });
});

describe('the printed leaderboard', () => {
  const lines = headlineLines(summariseHeadline(fixture)!, { model: 'replay:p', prompt: 'chat prompt, zero-shot, answers extracted' });
  const cells = (line: string) => line.trim().slice(1, -1).split('|').map((c) => c.trim());
  const rowOf = (first: string, second?: string) => cells(lines.find((l) => { const c = cells(l); return c[0] === first && (second === undefined || c[1] === second); })!);

  test('README layout: Model | Average EM | Gap | MTE | Min EM | Max EM, × 100, ± with one decimal', () => {
    expect(lines[0]).toBe('MultiLoKo leaderboard · chat prompt, zero-shot, answers extracted · EM × 100 over 3 local languages, ± = 2 SE across languages, MTE from human translations');
    expect(cells(lines[1]!)).toEqual(['Model', 'Average EM', 'Gap', 'MTE', 'Min EM', 'Max EM']);
    // 40 ± 200·0.2/√3 = 23.09…, gap 40, MTE 10 ± 40 (human), min 20, max 60.
    expect(rowOf('replay:p')).toEqual(['replay:p', '40.00 ± 23.1', '40.00', '10.00 ± 40.0', '20.00', '60.00']);
  });

  test('one row per language and the effects section', () => {
    expect(rowOf('Language')).toEqual(['Language', 'EM', 'MTE human', 'MTE machine', 'LE human', 'LE machine']);
    expect(rowOf('english')).toEqual(['english', '60.00', '–', '–', '–', '–']);
    expect(rowOf('french')).toEqual(['french', '40.00', '30.00', '–', '20.00', '0.00']);
    expect(rowOf('italian')).toEqual(['italian', '20.00', '-10.00', '10.00', '-30.00', '–']);
    expect(rowOf('MTE', 'human')).toEqual(['MTE', 'human', '2', '10.00 ± 40.0', '-10.00 (italian)', '30.00 (french)']);
    expect(rowOf('MTE', 'machine')).toEqual(['MTE', 'machine', '1', '10.00 ± –', '10.00 (italian)', '10.00 (italian)']);
    expect(rowOf('LE', 'human')).toEqual(['LE', 'human', '2', '-5.00 ± 50.0', '-30.00 (italian)', '20.00 (french)']);
    expect(lines).toContain('  not in any figure: italian_translated_human_french');
  });

  test('formatting helpers', () => {
    expect([percent(0.3105), percent(null), withSpread(null, null), withSpread(0.5, null)]).toEqual(['31.05', '–', '–', '50.00 ± –']);
    expect(markdownTable(['a', 'bb'], [['xyz', '1']])).toEqual(['| a   |  bb |', '| --- | --- |', '| xyz |   1 |']);
  });
});
