// Aggregation (docs/metrics.md#python-conventions, #means-and-group-metrics): Python's sum, per-language means, group metrics, and eval.py's results layout
// with Python dict semantics; the JSON text is compared with python3's json.dumps of the same aggregation.
import { execFileSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { MULTILOKO_METRICS, MetricsError, pythonFloatRepr, pythonSum, type ExampleRecord } from '../../src/metrics/index.ts';
import { assembleOrderedResults, assembleResults, groupMetrics, languageMeans, officialResultsJson, type LanguageExamples } from '../../src/benchmarks/multiloko/index.ts';
import { hasPython } from './paths.ts';
import { seeded } from './randomStrings.ts';

function record(values: Partial<ExampleRecord> = {}): ExampleRecord {
  return {
    em: 0.0, f1: 0, bleu: 0.0, chrf: 0.0, edit_distance: 0.0, edit_similarity: 0.0, edit_distance_first: 0.0,
    targets: ['t'], prediction: 'p', ...values,
  };
}

describe('pythonSum', () => {
  test('fold is a left fold from 0, neumaier compensates (hand-derived)', () => {
    // fold: 1e16 + 1 rounds to 1e16 (ties to even), then − 1e16 → 0
    expect(pythonSum([1e16, 1, -1e16])).toBe(0);
    // neumaier: c collects the lost 1 ((1e16 − 1e16) + 1), the last step adds (1e16 − 0) − 1e16 = 0; s + c = 1
    expect(pythonSum([1e16, 1, -1e16], 'neumaier')).toBe(1);
    // ten times 0.1: 0.9999999999999999 by folding (Python 3.11), 1.0 compensated (Python 3.12's documented change)
    expect(pythonSum(Array(10).fill(0.1))).toBe(0.9999999999999999);
    expect(pythonSum(Array(10).fill(0.1), 'neumaier')).toBe(1.0);
    // sum([]) is 0; the start 0 turns −0.0 into 0.0
    expect(pythonSum([])).toBe(0);
    expect(Object.is(pythonSum([-0]), 0)).toBe(true);
  });
});

describe('languageMeans and groupMetrics', () => {
  test('means are plain folds in record order divided by the count', () => {
    const records = [record({ em: 1.0, bleu: 0.1 }), record({ em: 0.0, bleu: 0.2 }), record({ em: 1.0, bleu: 0.3 })];
    const means = languageMeans(records);
    expect(means.em).toBe(2 / 3); // (1 + 0 + 1) / 3
    expect(means.bleu).toBe((0.1 + 0.2 + 0.3) / 3); // ((0.1 + 0.2) + 0.3) / 3, left to right
    expect(Object.keys(means)).toEqual([...MULTILOKO_METRICS, 'edit_distance_first']);
    expect(() => languageMeans([])).toThrow(MetricsError);
  });
  test('average, max, min, gap per metric in eval.py order', () => {
    const means = [
      { em: 0.5, f1: 0.25, bleu: 10, chrf: 20, edit_distance: 3, edit_similarity: 0.5 },
      { em: 0.75, f1: 0.5, bleu: 30, chrf: 10, edit_distance: 1, edit_similarity: 0.75 },
      { em: 0.25, f1: 0.75, bleu: 20, chrf: 30, edit_distance: 2, edit_similarity: 0.25 },
    ];
    const g = groupMetrics(means);
    expect(Object.keys(g).slice(0, 8)).toEqual(['average_em', 'max_em', 'min_em', 'gap_em', 'average_f1', 'max_f1', 'min_f1', 'gap_f1']);
    expect(Object.keys(g)).toHaveLength(24); // six metrics × four; no edit_distance_first in these means
    expect([g.average_em, g.max_em, g.min_em, g.gap_em]).toEqual([(0.5 + 0.75 + 0.25) / 3, 0.75, 0.25, 0.5]);
    expect([g.average_bleu, g.max_bleu, g.min_bleu, g.gap_bleu]).toEqual([20, 30, 10, 20]);
    expect([g.max_edit_distance, g.min_edit_distance, g.gap_edit_distance]).toEqual([3, 1, 2]);
    expect(() => groupMetrics([])).toThrow(MetricsError);
  });
});

describe('assembleResults', () => {
  test('a repeated id keeps its first position and takes the last record', () => {
    const results = assembleResults([
      { key: 'italian', examples: [
        { id: 'q1', record: record({ em: 0.0 }) },
        { id: 'q2', record: record({ em: 0.0 }) },
        { id: 'q1', record: record({ em: 1.0 }) },
      ] },
    ]);
    expect(Object.keys(results.italian!).slice(0, 2)).toEqual(['q1', 'q2']);
    expect((results.italian!.q1 as ExampleRecord).em).toBe(1.0);
    expect(results.italian!.em).toBe(0.5); // (1 + 0) / 2: two examples, not three
  });
  test('an id equal to a metric name is left out of the means and then overwritten by that mean', () => {
    const ordered = assembleOrderedResults([
      { key: 'x', examples: [
        { id: 'bleu', record: record({ em: 1.0, bleu: 99 }) },
        { id: 'q', record: record({ em: 0.0, bleu: 10 }) },
        { id: 'q2', record: record({ em: 1.0, bleu: 30 }) },
      ] },
    ]);
    const entries = ordered.languages[0]!.entries;
    // position 0 keeps the key 'bleu', now holding the mean of q and q2 only: (10 + 30) / 2
    expect(entries[0]).toEqual({ id: 'bleu', value: 20 });
    expect(entries.map((e) => e.id)).toEqual(['bleu', 'q', 'q2', 'em', 'f1', 'chrf', 'edit_distance', 'edit_similarity', 'edit_distance_first']);
    expect(entries[3]!.value).toBe(0.5);
  });
  test('int and string ids are different keys, as in a Python dict', () => {
    const ordered = assembleOrderedResults([{ key: 'x', examples: [{ id: 7, record: record() }, { id: '7', record: record({ em: 1.0 }) }] }]);
    expect(ordered.languages[0]!.entries.slice(0, 2).map((e) => e.id)).toEqual([7, '7']);
    expect(ordered.languages[0]!.entries[2]).toEqual({ id: 'em', value: 0.5 });
  });
  test('languages in order; group metrics over them; extras can be switched off', () => {
    const langs: LanguageExamples[] = [
      { key: 'italian', examples: [{ id: 'a', record: record({ em: 1.0, edit_distance_first: 4 }) }] },
      { key: 'italian_translated_human_english', examples: [{ id: 'a', record: record({ em: 0.0, edit_distance_first: 2 }) }] },
    ];
    const results = assembleResults(langs);
    expect(Object.keys(results)).toEqual(['italian', 'italian_translated_human_english', 'group_metrics']);
    expect(results.group_metrics.average_em).toBe(0.5);
    expect(results.group_metrics.gap_edit_distance_first).toBe(2);
    expect(Object.keys(results.italian!.a as object)).toEqual([...MULTILOKO_METRICS, 'targets', 'prediction', 'edit_distance_first']);
    const official = assembleResults(langs, { extras: false });
    expect(Object.keys(official.italian!.a as object)).toEqual([...MULTILOKO_METRICS, 'targets', 'prediction']);
    expect(official.italian!.edit_distance_first).toBeUndefined();
    expect(Object.keys(official.group_metrics)).toHaveLength(24);
  });
  test('errors where the reference would crash', () => {
    expect(() => assembleResults([])).toThrow(MetricsError);
    expect(() => assembleResults([{ key: 'x', examples: [{ id: 'em', record: record() }] }])).toThrow(/no example to average/);
    expect(() => assembleResults([{ key: 'group_metrics', examples: [{ id: 1, record: record() }] }])).toThrow(/group_metrics/);
  });
});

// The aggregation (docs/metrics.md#means-and-group-metrics) written in Python as eval.py's evaluate_all does it, then json.dumps(indent=4, ensure_ascii=False).
const PYTHON_AGGREGATE = String.raw`
import json, sys
job = json.load(sys.stdin)
metrics = ["em", "f1", "bleu", "chrf", "edit_distance", "edit_similarity"]
answers = {}
for lang, id, rec in job["rows"]:
    for m in metrics:
        if not (m == "f1" and rec[m] == 0):
            rec[m] = float(rec[m])
    answers.setdefault(lang, {})[id] = rec
results = {}
for lang, examples in answers.items():
    results[lang] = {}
    for id, rec in examples.items():
        results[lang][id] = {m: rec[m] for m in metrics}
        results[lang][id]["targets"] = rec["targets"]
        results[lang][id]["prediction"] = rec["prediction"]
    for metric in metrics:
        count = 0
        mysum = 0
        for id in results[lang]:
            if id in metrics:
                continue
            mysum += results[lang][id][metric]
            count += 1
        results[lang][metric] = mysum / count
results["group_metrics"] = {}
for metric in metrics:
    values = [results[lang][metric] for lang in results if lang != "group_metrics"]
    results["group_metrics"]["average_" + metric] = sum(values) / (len(results) - 1)
    results["group_metrics"]["max_" + metric] = max(values)
    results["group_metrics"]["min_" + metric] = min(values)
    results["group_metrics"]["gap_" + metric] = max(values) - min(values)
sys.stdout.write(json.dumps(results, ensure_ascii=False, indent=4))
sys.stdout.write("\n===\n")
sys.stdout.write(json.dumps([repr(float(x)) for x in job["floats"]]))
`;

describe.skipIf(!hasPython)('officialResultsJson against python3 json.dumps (skipped when python3 is missing)', () => {
  test('same text for random records, repeated and metric-named ids, int ids, and every float format', () => {
    const random = seeded(99);
    const langs = ['italian', 'japanese', 'italian_translated_human_english', 'urdu'];
    const ids: Array<string | number> = ['q1', 'q2', 'q3', 7, 12, 'em', 'chrf', '7', 'città', '東京\u2028"x"\\', 0];
    const rows: Array<[string, string | number, ExampleRecord]> = [];
    const floatOf = () => [random(), random() * 100, random() * 1e-6, 1e16 + random() * 1e17, Math.floor(random() * 5)][Math.floor(random() * 5)]!;
    for (let i = 0; i < 120; i++) {
      const lang = langs[Math.floor(random() * langs.length)]!;
      const id = ids[Math.floor(random() * ids.length)]!;
      rows.push([lang, id, record({
        em: random() < 0.5 ? 1.0 : 0.0, f1: random() < 0.3 ? 0 : floatOf(), bleu: floatOf(), chrf: floatOf(),
        edit_distance: Math.floor(random() * 30), edit_similarity: floatOf(), targets: random() < 0.2 ? [] : ['a', 'é "q"', '\t'],
        prediction: random() < 0.2 ? '' : 'ñ\n😀',
      })]);
    }
    // every language needs one id that is not a metric name
    for (const lang of langs) rows.push([lang, `last-${lang}`, record({ bleu: 12.5 })]);
    const floats = [0.1, 1e-5, 1.5e-7, 123456789012345680, 1e16, 1e15, 0.0001, 5e-324, 1.7976931348623157e308, 100.00000000000004, 2 / 3, -0.5];
    // plus doubles from random bit patterns (every exponent range) and random values around the notation switches
    const bits = new Uint32Array(2);
    const asDouble = new Float64Array(bits.buffer);
    while (floats.length < 400) {
      bits[0] = Math.floor(random() * 2 ** 32);
      bits[1] = Math.floor(random() * 2 ** 32);
      if (Number.isFinite(asDouble[0]!)) floats.push(asDouble[0]!);
      floats.push(random() * 10 ** Math.floor(random() * 24 - 8));
    }
    const [pyJson, pyFloats] = execFileSync('python3', ['-c', PYTHON_AGGREGATE], { input: JSON.stringify({ rows, floats: floats.map(String) }) })
      .toString().split('\n===\n') as [string, string];

    // Our input: per language in first-seen order, examples in row order (assembleResults applies dict semantics).
    const byLang = new Map<string, LanguageExamples['examples'][number][]>();
    for (const [lang, id, rec] of rows) {
      if (!byLang.has(lang)) byLang.set(lang, []);
      byLang.get(lang)!.push({ id, record: rec });
    }
    const input = [...byLang].map(([key, examples]) => ({ key, examples }));
    expect(officialResultsJson(input, { extras: false })).toBe(pyJson);
    expect(floats.map(pythonFloatRepr)).toEqual(JSON.parse(pyFloats));
  });
});
