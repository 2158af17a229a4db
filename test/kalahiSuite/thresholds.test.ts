// Kalahi gates in LOKAL_THRESHOLDS: parsing, scopes, and judging (applied, not applied, not computed).
import { describe, expect, test } from 'vitest';
import type { KalahiGroupFigures } from '../../src/benchmarks/kalahi/run/records.ts';
import { categoryKey, judgeKalahi, parseKalahiGate, parseKalahiThresholds, type JudgedSuite } from '../../src/benchmarks/kalahi/run/gates.ts';
import { parseThresholds } from '../../src/benchmarks/multiloko/run/gates.ts';

describe('parsing', () => {
  test('figures, scopes and aliases', () => {
    expect(parseKalahiGate('kalahi.mc1>=0.40')).toEqual({ clause: 'kalahi.mc1>=0.40', figure: { task: 'mc', figure: 'mc1', normalised: true }, op: '>=', bound: 0.4 });
    expect(parseKalahiGate('kalahi.MC2N ≥ .5').figure).toEqual({ task: 'mc', figure: 'mc2_normalised', normalised: true });
    expect(parseKalahiGate('kalahi.mc3_non_norm<1').figure).toEqual({ task: 'mc', figure: 'mc3', normalised: false });
    expect(parseKalahiGate('kalahi.rougeL>0.2').figure).toEqual({ task: 'generation', metric: 'rougeL', stat: 'acc' });
    expect(parseKalahiGate('kalahi.chrf_max>=30').figure).toEqual({ task: 'generation', metric: 'chrf', stat: 'max' });
    expect(parseKalahiGate('kalahi.bleurt_diff>-0.5')).toMatchObject({ figure: { metric: 'bleurt', stat: 'diff' }, op: '>', bound: -0.5 });
    expect(parseKalahiGate('kalahi.unenriched.bleu>=0.1')).toMatchObject({ variant: 'unenriched' });
    expect(parseKalahiGate('kalahi.shared knowledge.mc1>=0.1')).toMatchObject({ category: 'shared_knowledge' });
    expect(parseKalahiGate('kalahi.full.ethics.bertscore<=1')).toMatchObject({ variant: 'full', category: 'ethics', figure: { metric: 'bertscore' } });
  });

  test('mistakes are errors naming the clause', () => {
    expect(() => parseKalahiGate('kalahi.mc4>=0.3')).toThrow(/"kalahi\.mc4>=0\.3": unknown Kalahi figure "mc4"/);
    expect(() => parseKalahiGate('kalahi.mc1>=40')).toThrow(/0–1 scale.*did you mean 0\.4\?/);
    expect(() => parseKalahiGate('kalahi.bleu=0.3')).toThrow(/expected \[<benchmark>\.\]/);
    expect(() => parseKalahiGate('kalahi.ethics.full.mc1>0')).toThrow(/two categories/);
    expect(() => parseKalahiGate('kalahi.mc2_normalised_non_norm>0')).toThrow(/no un-normalised form/);
  });

  test('Kalahi clauses and MultiLoKo clauses share LOKAL_THRESHOLDS, each parser takes its own', () => {
    const text = 'em>=0.3, kalahi.mc1>=0.4; italian.f1>0.2\nkalahi.bleu>=0.5';
    expect(parseKalahiThresholds(text).map((g) => g.clause)).toEqual(['kalahi.mc1>=0.4', 'kalahi.bleu>=0.5']);
    expect(parseThresholds(text).map((g) => g.clause)).toEqual(['em>=0.3', 'italian.f1>0.2']);
  });

  test('category keys', () => {
    expect(categoryKey('Shared Knowledge')).toBe('shared_knowledge');
    expect(categoryKey(' ethics ')).toBe('ethics');
  });
});

const group = (mc1: number, bleu: number): KalahiGroupFigures => ({
  prompts: 4,
  mc: {
    scored: 4,
    normalised: { mc1, mc2: 0.5, mc2_normalised: 0.52, mc3: 0.3, lprob_max: 0.1, lprob_diff: 0 },
    nonNormalised: { mc1: 0, mc2: null, mc2_normalised: null, mc3: 0, lprob_max: -40, lprob_diff: -2 },
  },
  generation: { scored: 4, skipped: 0, failed: 0, metrics: { bleu: { acc: bleu, max: 0.05, diff: -0.01 } } },
});

const suite: JudgedSuite = {
  variant: 'full',
  tasks: ['mc', 'generation'],
  overall: group(0.5, 0.25),
  byCategory: { ethics: group(0.75, 0), 'shared knowledge': group(0, 1) },
  notComputed: { bertscore: 'model not available offline' },
};

describe('judging', () => {
  test('values, bounds and messages; per category; not applied; not computed fails', () => {
    const gates = parseKalahiThresholds(
      'kalahi.mc1>=0.4, kalahi.bleu>0.25, kalahi.shared_knowledge.bleu>=1, kalahi.mc2_non_norm>0, kalahi.unenriched.mc1>0, kalahi.history.mc1>0, kalahi.bertscore>=0.1, kalahi.ethics.mc1<0.7',
    );
    const { outcomes, notApplied } = judgeKalahi(gates, [suite]);
    expect(outcomes.map((o) => [o.gate, o.value, o.pass])).toEqual([
      ['kalahi.mc1>=0.4', 0.5, true],
      ['kalahi.bleu>0.25', 0.25, false],
      ['kalahi.shared_knowledge.bleu>=1', 1, true],
      ['kalahi.mc2_non_norm>0', Number.NaN, false],
      ['kalahi.bertscore>=0.1', Number.NaN, false],
      ['kalahi.ethics.mc1<0.7', 0.75, false],
    ]);
    expect(outcomes[1]!.message).toBe('Kalahi full BLEU acc = 0.2500, must be > 0.2500 (gate kalahi.bleu>0.25)');
    expect(outcomes[2]!.figure).toBe('Kalahi full · shared knowledge BLEU acc');
    expect(outcomes[3]!.message).toBe('Kalahi full MC2 (non norm): no value (nothing was scored), so the gate fails (gate kalahi.mc2_non_norm>0)');
    expect(outcomes[4]!.message).toBe('Kalahi full BERTScore acc: not computed (model not available offline), so the gate fails (gate kalahi.bertscore>=0.1)');
    expect(notApplied).toEqual(['kalahi.unenriched.mc1>0', 'kalahi.history.mc1>0']);
  });

  test('a gate on a task the run did not do is not applied; a gate applies to every variant run', () => {
    const generationOnly: JudgedSuite = { ...suite, tasks: ['generation'] };
    const other: JudgedSuite = { ...suite, variant: 'unenriched', overall: group(0.1, 0.9) };
    const { outcomes, notApplied } = judgeKalahi(parseKalahiThresholds('kalahi.mc1>=0.2,kalahi.bleu>=0.5'), [generationOnly, other]);
    expect(outcomes.map((o) => [o.figure, o.pass])).toEqual([
      ['Kalahi unenriched MC1', false],
      ['Kalahi full BLEU acc', false],
      ['Kalahi unenriched BLEU acc', true],
    ]);
    expect(notApplied).toEqual([]);
    expect(judgeKalahi(parseKalahiThresholds('kalahi.mc1>=0.2'), [generationOnly]).notApplied).toEqual(['kalahi.mc1>=0.2']);
  });
});
