// Roll-up pieces with hand-computed figures: groups, cross-language and baseline gates, the printed table.
import { describe, expect, test } from 'vitest';
import { quasiWilsonByBisection } from '../support/quasiWilson.ts';
import { parseBaseline } from '../../src/benchmarks/multiloko/run/baseline.ts';
import type { LokalSubsetAggregate } from '../../src/benchmarks/multiloko/run/records.ts';
import { judgeRun, summariseGroups, summariseRun } from '../../src/benchmarks/multiloko/results/rollup.ts';
import type { RolledSubset } from '../../src/benchmarks/multiloko/run/rolledSubset.ts';
import { standardError } from '../../src/core/stats.ts';
import { leaderboardLines, tableMetrics } from '../../src/benchmarks/multiloko/results/table.ts';
import { parseThresholds } from '../../src/benchmarks/multiloko/run/gates.ts';

function subset(key: string, order: number, em: number, translated?: { source: string; question: string; kind: 'human' | 'machine' }): RolledSubset {
  const aggregate: LokalSubsetAggregate = {
    benchmark: 'multiloko', key, name: translated ? `${translated.source} → ${translated.question} · ${translated.kind}` : `${key} · local`,
    language: translated ? (translated.source === 'english' ? translated.question : translated.source) : key,
    sourceLanguage: translated?.source ?? key, questionLanguage: translated?.question ?? key, translated: !!translated,
    ...(translated ? { translation: translated.kind } : {}),
    order, split: 'dev', location: '/d', file: `${key}.jsonl`, selected: 4, total: 4, model: 'replay:p', strict: false,
    thresholds: undefined, baseline: undefined, baselineTolerance: 0.02,
    scored: 4, missing: 0, failed: 0, skipped: 0, cached: 0, modelCalls: 4, modelMs: 0, prompts: [],
    means: { em, f1: em, bleu: 100 * em, chrf: 100 * em, edit_distance: 1 - em, edit_similarity: em, edit_distance_first: 1 - em },
  };
  return { aggregate, records: [] };
}

/** Four records of which the first `right` score 1 on every metric (chrF and BLEU 100), the rest 0. */
function itemRecords(key: string, right: number): RolledSubset['records'] {
  return Array.from({ length: 4 }, (_, i) => {
    const v = i < right ? 1 : 0;
    return { subset: key, id: `${key}-${i}`, index: i, scores: { em: v, f1: v, bleu: 100 * v, chrf: 100 * v, edit_distance: 1 - v, edit_similarity: v, edit_distance_first: 1 - v } } as unknown as RolledSubset['records'][number];
  });
}

const subsets = [
  subset('english', 0, 0.75),
  subset('french', 1, 0.25),
  subset('italian', 2, 0.5),
  subset('italian_translated_human_english', 3, 0.5, { source: 'italian', question: 'english', kind: 'human' }),
  subset('english_translated_machine_italian', 4, 0.25, { source: 'english', question: 'italian', kind: 'machine' }),
];

describe('groups', () => {
  test('local subsets make the headline; translated ones are grouped by direction and kind', () => {
    const groups = summariseGroups(subsets);
    expect(groups.map((g) => [g.id, g.subsets])).toEqual([
      ['local', ['english', 'french', 'italian']],
      ['human-to-english', ['italian_translated_human_english']],
      ['machine-from-english', ['english_translated_machine_italian']],
    ]);
    const local = groups[0]!;
    // EMs 0.75, 0.25, 0.5: mean 0.5; sample SD = sqrt((0.0625 + 0.0625 + 0) / 2) = 0.25; SE = 0.25 / sqrt(3).
    expect(local.em.average).toBe(0.5);
    expect(local.em.se).toBe(0.25 / Math.sqrt(3));
    expect(local.em.low).toBe(0.5 - 2 * (0.25 / Math.sqrt(3)));
    expect(local.em.min).toEqual({ key: 'french', language: 'french', value: 0.25 });
    expect(local.em.max).toEqual({ key: 'english', language: 'english', value: 0.75 });
    expect(local.figures.gap_em).toBe(0.5);
    expect(groups[1]!.em.se).toBeNull();
    expect(standardError([])).toBeNull();
  });
});

describe('judgeRun', () => {
  test('subset, cross-language and baseline gates over the whole run', () => {
    const groups = summariseGroups(subsets);
    const baseline = parseBaseline(JSON.stringify({ english: { em: 0.7 }, french: { em: 0.3 }, italian: { em: 0.9 }, german: { em: 0.1 } }), 'base.json');
    const judged = judgeRun(subsets, groups, { gates: parseThresholds('em>=0.5,gap<=0.4,local.em>=0.3,german.em>=0.1'), baseline, baselineTolerance: 0.1 });
    expect(judged.outcomes.map((o) => [o.figure, o.gate, o.value, o.bound, o.pass])).toEqual([
      ['english · local EM', 'local.em>=0.3', 0.75, 0.3, true],
      ['english · local EM', 'baseline(-0.1)', 0.75, 0.7 - 0.1, true],
      ['french · local EM', 'local.em>=0.3', 0.25, 0.3, false],
      ['french · local EM', 'baseline(-0.1)', 0.25, 0.3 - 0.1, true],
      ['italian · local EM', 'local.em>=0.3', 0.5, 0.3, true],
      ['italian · local EM', 'baseline(-0.1)', 0.5, 0.9 - 0.1, false],
      ['average EM (3 local languages)', 'em>=0.5', 0.5, 0.5, true],
      ['gap EM (3 local languages)', 'gap<=0.4', 0.5, 0.4, false],
      // baseline average over the 3 languages both runs have: (0.7 + 0.3 + 0.9) / 3
      ['average EM (3 local languages in both runs)', 'baseline(-0.1)', 0.5, (0.7 + 0.3 + 0.9) / 3 - 0.1, false],
    ]);
    expect(judged.notApplied).toEqual(['german.em>=0.1']);
    const summary = summariseRun(subsets, groups, judged);
    expect(summary.gates_passed).toBe(false);
    expect(summary.headline).toMatchObject({ languages: 3, em: 0.5, em_se: 0.25 / Math.sqrt(3), em_2se: 0.5 / Math.sqrt(3), em_min: 0.25, em_max: 0.75, em_gap: 0.5 });
    expect(summary.items).toEqual({ selected: 20, scored: 20, missing: 0, failed: 0, skipped: 0, cached: 0 });
  });

  test('cross-language gates are not applied when no local subset ran', () => {
    const translatedOnly = subsets.slice(3);
    const judged = judgeRun(translatedOnly, summariseGroups(translatedOnly), { gates: parseThresholds('em>=0.9'), baselineTolerance: 0.02 });
    expect(judged.outcomes).toEqual([]);
    expect(judged.notApplied).toEqual(['em>=0.9']);
  });
});

describe('the leaderboard table', () => {
  test('per subset EM/F1/chrF, the average row and EM ± 2 SE, min, max, gap', () => {
    const lines = leaderboardLines(subsets, summariseGroups(subsets), tableMetrics(undefined));
    expect(lines.slice(0, 7)).toEqual([
      'MultiLoKo · local (headline)',
      '  subset           items     EM  95% CI  F1 [95% CI]  chrF [95% CI]',
      '  english · local      4  0.750                0.750           75.0',
      '  french · local       4  0.250                0.250           25.0',
      '  italian · local      4  0.500                0.500           50.0',
      '  average                 0.500                0.500           50.0',
      '  EM 0.500 ± 0.289 (2 SE over 3 languages) · min 0.250 (french) · max 0.750 (english) · gap 0.500',
    ]);
    expect(tableMetrics(['all'])).toEqual(['em', 'f1', 'bleu', 'chrf', 'edit_distance', 'edit_similarity']);
    expect(tableMetrics(['bleu'])).toEqual(['em', 'f1', 'bleu', 'chrf']);
    expect(() => tableMetrics(['rouge'])).toThrow(/unknown metric "rouge"/);
  });

  test('with item records: EM with its Wilson interval, F1 and chrF with their quasi-Wilson interval inside the scale', () => {
    // k of 4 items right, every metric 0/1 (× 100 for chrF) like EM.
    const withItems = subsets.slice(0, 3).map((s) => ({ ...s, records: itemRecords(s.aggregate.key, s.aggregate.means!.em * 4) }));
    const cells = leaderboardLines(withItems, summariseGroups(withItems), tableMetrics(undefined)).slice(1, 5).map((l) => l.trim().split(/\s{2,}/u));
    // Wilson, z = 1.959964, n = 4: 3 of 4 → centre (0.75 + z²/8)/(1 + z²/4) = 0.627526, half 0.326886; 2 of 4 → 0.5 ± 0.349961.
    // Quasi-Wilson with t(0.975, 3) = 3.182446 (found by bisection here): where x̄ ± t·s/√n would leave [0, 1]
    // (3 of 4: 0.750 ± 0.796), the interval stays inside it.
    const t3 = 3.182446305284263;
    const shown = (right: number, top: number, digits: number) => {
      const values = [0, 1, 2, 3].map((i) => (i < right ? top : 0));
      const [low, high] = quasiWilsonByBisection(values, top, t3);
      return `${((right / 4) * top).toFixed(digits)} [${low.toFixed(digits)}, ${high.toFixed(digits)}]`;
    };
    expect(cells).toEqual([
      ['subset', 'items', 'EM', '95% CI', 'F1 [95% CI]', 'chrF [95% CI]'],
      ['english · local', '4', '0.750', '[0.301, 0.954]', shown(3, 1, 3), shown(3, 100, 1)],
      ['french · local', '4', '0.250', '[0.046, 0.699]', shown(1, 1, 3), shown(1, 100, 1)],
      ['italian · local', '4', '0.500', '[0.150, 0.850]', shown(2, 1, 3), shown(2, 100, 1)],
    ]);
    for (const row of cells.slice(1)) {
      for (const cell of row.slice(4)) {
        const [low, high] = /\[(.+), (.+)\]/u.exec(cell)!.slice(1).map(Number);
        expect(low).toBeGreaterThanOrEqual(0);
        expect(high).toBeLessThanOrEqual(cell.includes('.') && Number(cell.split(' ')[0]) > 1 ? 100 : 1);
      }
    }
  });

});
