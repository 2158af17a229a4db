import { describe, expect, test } from 'vitest';
import { baselineAverage, judgeAgainstBaseline, parseBaseline } from '../../src/benchmarks/multiloko/run/baseline.ts';
import { holds, judge, judgeCross, judgeSubset, parseGate, parseThresholds, ThresholdError } from '../../src/benchmarks/multiloko/run/gates.ts';

const means = (em: number) => ({ em, f1: 0.5, bleu: 10, chrf: 40, edit_distance: 3, edit_similarity: 0.6 });

describe('parseThresholds', () => {
  test('the examples of the gate grammar (em>=0.30, gap<=0.40, italian.em>=0.35)', () => {
    expect(parseThresholds('em>=0.30,gap<=0.40')).toEqual([
      { clause: 'em>=0.30', scope: { kind: 'cross', figure: 'average' }, metric: 'em', op: '>=', bound: 0.3 },
      { clause: 'gap<=0.40', scope: { kind: 'cross', figure: 'gap' }, metric: 'em', op: '<=', bound: 0.4 },
    ]);
    expect(parseGate('italian.em>=0.35')).toEqual({ clause: 'italian.em>=0.35', scope: { kind: 'subset', key: 'italian' }, metric: 'em', op: '>=', bound: 0.35 });
  });

  test('scopes, cross figures with a metric, unicode operators, spacing and separators', () => {
    const gates = parseThresholds('f1>=0.25, local.chrf > 40 ; *.f1 ≥ .5\nitalian_translated_human_english.edit_distance<=4, gap_f1<0.2, average_chrf>=50, max_em<1, min≥0.1, avg_bleu>=1e1');
    expect(gates.map((g) => [g.scope, g.metric, g.op, g.bound])).toEqual([
      [{ kind: 'cross', figure: 'average' }, 'f1', '>=', 0.25],
      [{ kind: 'each', which: 'local' }, 'chrf', '>', 40],
      [{ kind: 'each', which: 'all' }, 'f1', '>=', 0.5],
      [{ kind: 'subset', key: 'italian_translated_human_english' }, 'edit_distance', '<=', 4],
      [{ kind: 'cross', figure: 'gap' }, 'f1', '<', 0.2],
      [{ kind: 'cross', figure: 'average' }, 'chrf', '>=', 50],
      [{ kind: 'cross', figure: 'max' }, 'em', '<', 1],
      [{ kind: 'cross', figure: 'min' }, 'em', '>=', 0.1],
      [{ kind: 'cross', figure: 'average' }, 'bleu', '>=', 10],
    ]);
    expect(parseThresholds(undefined)).toEqual([]);
    expect(parseThresholds(' , ')).toEqual([]);
  });

  test('mistakes are explained', () => {
    expect(() => parseGate('em>=30')).toThrow('LOKAL_THRESHOLDS clause "em>=30": em is on a 0–1 scale, 30 is out of range; did you mean 0.3?');
    expect(() => parseGate('chrf>=101')).toThrow(/chrf is on a 0–100 scale/);
    expect(() => parseGate('italian.gap<=0.4')).toThrow(/gap is a figure across languages; it takes no subset \(write gap<=0.4\)/);
    expect(() => parseGate('foo>=1')).toThrow(/unknown figure "foo"/);
    expect(() => parseGate('gap_rouge<=1')).toThrow(/unknown figure "rouge"/);
    expect(() => parseGate('em=0.3')).toThrow(ThresholdError);
    expect(() => parseGate('em>=-0.1')).toThrow(/out of range/);
  });
});

describe('judging', () => {
  test('operators at the boundary', () => {
    expect([holds(0.3, '>=', 0.3), holds(0.3, '>', 0.3), holds(0.3, '<=', 0.3), holds(0.3, '<', 0.3)]).toEqual([true, false, true, false]);
  });

  test('a message names the figure, its value and the bound', () => {
    const outcome = judge('em>=0.5', 'average EM (3 local languages)', 0.4, '>=', 0.5);
    expect(outcome.pass).toBe(false);
    expect(outcome.message).toBe('average EM (3 local languages) = 0.4000, must be ≥ 0.5000 (gate em>=0.5)');
    expect(judge('gap<=0.4', 'gap EM', 0.25, '<=', 0.4).message).toBe('gap EM = 0.2500, meets ≤ 0.4000 (gate gap<=0.4)');
  });

  test('subset clauses apply to their subsets only; cross clauses to none', () => {
    const gates = parseThresholds('em>=0.9,italian.em>=0.5,local.em>=0.2,*.chrf>=50,french.em>=0.1');
    const local = judgeSubset(gates, { key: 'italian', name: 'italian · local', local: true, means: means(0.4) });
    expect(local.map((o) => [o.gate, o.pass])).toEqual([['italian.em>=0.5', false], ['local.em>=0.2', true], ['*.chrf>=50', false]]);
    expect(local[0]!.figure).toBe('italian · local EM');
    const translated = judgeSubset(gates, { key: 'italian_translated_human_english', name: 'italian → english · human', local: false, means: means(0.4) });
    expect(translated.map((o) => o.gate)).toEqual(['*.chrf>=50']);
  });

  test('cross clauses read the figure they name', () => {
    const outcomes = judgeCross(parseThresholds('em>=0.5,gap<=0.1,min_f1>=0.2,max_chrf<=90'), (metric) =>
      metric === 'em' ? { languages: 3, average: 0.5, min: 0.4, max: 0.6, gap: 0.19999999999999996 } : { languages: 3, average: 1, min: 0.3, max: 95, gap: 2 },
    );
    expect(outcomes.map((o) => [o.figure, o.value, o.pass])).toEqual([
      ['average EM (3 local languages)', 0.5, true],
      ['gap EM (3 local languages)', 0.19999999999999996, false],
      ['min F1 (3 local languages)', 0.3, true],
      ['max chrF (3 local languages)', 95, false],
    ]);
  });
});

describe('baseline', () => {
  const file = JSON.stringify({
    italian: { '1': { em: 1 }, em: 0.45, f1: 0.5 },
    french: { em: 0.3 },
    group_metrics: { average_em: 0.375 },
    summary: { headline: {} },
    lokal: { problems: {} },
  });

  test('reads each language mean EM and skips the non-language keys', () => {
    const baseline = parseBaseline(file, 'old.json');
    expect([...baseline.em]).toEqual([['italian', 0.45], ['french', 0.3]]);
    expect(baselineAverage(baseline, ['italian', 'french', 'german'])).toEqual({ keys: ['italian', 'french'], average: 0.375 });
    expect(baselineAverage(baseline, ['german'])).toBeUndefined();
  });

  test('a drop beyond the tolerance fails, naming the baseline', () => {
    const baseline = parseBaseline(file, 'old.json');
    const failed = judgeAgainstBaseline(baseline, 0.02, 'italian', 'italian · local EM', 0.42)!;
    expect(failed.pass).toBe(false);
    expect(failed.bound).toBe(0.45 - 0.02);
    expect(failed.message).toBe('italian · local EM = 0.4200, must be ≥ 0.4300 (gate baseline(-0.02)); baseline 0.45 in old.json');
    expect(judgeAgainstBaseline(baseline, 0.02, 'italian', 'italian · local EM', 0.44)!.pass).toBe(true);
    expect(judgeAgainstBaseline(baseline, 0.02, 'german', 'german · local EM', 0.1)).toBeUndefined();
  });

  test('malformed baselines are explained', () => {
    expect(() => parseBaseline('{', 'b.json')).toThrow(/^baseline b\.json: malformed JSON/);
    expect(() => parseBaseline('[]', 'b.json')).toThrow(/expected an object keyed by language/);
    expect(() => parseBaseline('{"italian": {"f1": 1}}', 'b.json')).toThrow('baseline b.json field "italian.em": is missing or not a number');
    expect(() => parseBaseline('{"group_metrics": {}}', 'b.json')).toThrow(/holds no language entry/);
  });
});
