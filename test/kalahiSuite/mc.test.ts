// MC figures of one prompt from given log-probabilities, against Python evaluating the reference's formulas
// (docs/metrics.md#per-answer-score, #mc1-mc2-mc3: exp(L / UTF-8 bytes), MC1 strict, MC2 with its double exponent, MC3).
import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { kalahiMCRecord, kalahiReferences } from '../../src/benchmarks/kalahi/run/mcTask.ts';
import { kalahiMCVerdict } from '../../src/benchmarks/kalahi/run/verdict.ts';

const hasPython = spawnSync('python3', ['--version']).status === 0;

/** Counts and comparisons exact; exp-derived values within the 1e-14 of docs/metrics.md#exactness (V8's and glibc's exp may differ by 1 ulp). */
function expectFigures(got: Record<string, number | null>, want: Record<string, number | null>): void {
  expect(Object.keys(got).sort()).toEqual(Object.keys(want).sort());
  for (const [key, value] of Object.entries(want)) {
    if (value === null || key === 'mc1' || key === 'mc3') expect(got[key]).toBe(value);
    else expect(Math.abs((got[key] as number) - value)).toBeLessThanOrEqual(1e-14);
  }
}

const row = {
  promptVariationId: '0101000100',
  relevantAnswers: ['Oo po.', 'Mag-ipon ng pera sa bangko.', 'Piña at niyog.'],
  irrelevantAnswers: ['Hindi.', 'Bumili ng bagong cellphone kahit walang pera.'],
  bestIndex: 1,
};

/** The reference's arithmetic in Python (float64 like numpy); None for NaN. */
function python(logprobs: number[], relevant: string[], irrelevant: string[], best: number) {
  const code = `
import json, math, sys
d = json.load(sys.stdin)
refs = d["relevant"] + d["irrelevant"]
L = d["logprobs"]
s = [math.exp(l / len(r.encode("utf-8"))) for l, r in zip(L, refs)]
def figures(vals):
    t, f = vals[:len(d["relevant"])], vals[len(d["relevant"]):]
    mc1 = 1.0 if t[d["best"]] > max(f) else 0.0
    pt = [math.exp(v) for v in t]; pf = [math.exp(v) for v in f]
    den = sum(pt) + sum(pf)
    mc2 = sum([p / den for p in pt]) if den > 0 else float("nan")
    mc3 = sum(1 for v in t if v > max(f)) / len(t)
    return {"mc1": mc1, "mc2": None if mc2 != mc2 else mc2, "mc3": mc3, "lprob_max": max(t), "lprob_diff": max(t) - max(f),
            "mc2_normalised": sum(t) / (sum(t) + sum(f))}
print(json.dumps({"scores": s, "bytes": [len(r.encode("utf-8")) for r in refs], "norm": figures(s), "raw": figures(L)}))
`;
  return JSON.parse(execFileSync('python3', ['-c', code], { input: JSON.stringify({ logprobs, relevant, irrelevant, best }) }).toString());
}

describe('kalahiMCRecord', () => {
  test.skipIf(!hasPython)('scores, MC1/MC2/MC2 normalised/MC3 and the raw variants equal the reference formulas (python3)', () => {
    const logprobs = [-3.25, -14.5, -20.125, -4.75, -60.5];
    const scored = logprobs.map((logprob, i) => ({ logprob, tokenCount: 10 + i }));
    const mc = kalahiMCRecord(row, scored, { latencyMs: 5, cached: false });
    const expected = python(logprobs, row.relevantAnswers, row.irrelevantAnswers, row.bestIndex);
    expect(mc.references.map((r) => r.bytes)).toEqual(expected.bytes);
    // 'Piña at niyog.' has 14 code points and 15 bytes: the divisor counts bytes
    expect(mc.references[2]!.bytes).toBe(15);
    mc.references.forEach((r, i) => expect(Math.abs(r.score - expected.scores[i]!)).toBeLessThanOrEqual(1e-14));
    expect(mc.references.map((r) => r.tokens)).toEqual([10, 11, 12, 13, 14]);
    expect(mc.references.map((r) => [r.kind, r.index, r.best])).toEqual([
      ['relevant', 0, false],
      ['relevant', 1, true],
      ['relevant', 2, false],
      ['irrelevant', 0, false],
      ['irrelevant', 1, false],
    ]);
    expectFigures(mc.normalised as unknown as Record<string, number | null>, expected.norm);
    expectFigures(mc.nonNormalised as unknown as Record<string, number | null>, { ...expected.raw, mc2_normalised: null });
    // preferred: the highest byte-normalised score over all references
    const top = expected.scores.indexOf(Math.max(...expected.scores));
    expect(mc.preferred).toMatchObject({ kind: kalahiReferences(row)[top]!.kind, index: kalahiReferences(row)[top]!.index });
  });

  test('MC1 is strict: a best answer tied with the top irrelevant one scores 0; the verdict names the preferred answer', () => {
    // same byte length (6: 'Oo po.' and 'Hindi.') and the same log-probability: equal scores
    const mc = kalahiMCRecord({ ...row, bestIndex: 0 }, [-6, -90, -90, -6, -90].map((logprob) => ({ logprob, tokenCount: 3 })));
    expect(mc.references[0]!.score).toBe(mc.references[3]!.score);
    expect(mc.normalised.mc1).toBe(0);
    expect(mc.normalised.mc3).toBe(0);
    // the first of equal maxima (relevant answers come first) is the preferred one
    expect(mc.preferred).toMatchObject({ kind: 'relevant', index: 0, best: true });
    expect(kalahiMCVerdict(mc)).toMatch(/^✗ MC1 0 · MC2 0\.\d{4} · MC3 0\.00 · preferred the best answer "Oo po\." \(0\.3679\) over irrelevant answer #1 "Hindi\." \(0\.3679\)$/u);
  });

  test('the raw MC2 underflows to NaN (0/0) as in the reference and is stored as null', () => {
    const mc = kalahiMCRecord(row, [-900, -950, -990, -1000, -1200].map((logprob) => ({ logprob, tokenCount: 1 })));
    expect(mc.nonNormalised.mc2).toBeNull();
    expect(mc.normalised.mc2).not.toBeNull();
    // exp(-900) underflows to 0 in binary64 (the smallest subnormal is about e^-745), so D = 0 and 0/0 = NaN.
    expect(Math.exp(-900)).toBe(0);
  });

  test.skipIf(!hasPython)('the reference (Python run_MC transcription) also gives NaN for the raw MC2 (skipped: no python3 on PATH)', () => {
    expect(python([-900, -950, -990, -1000, -1200], row.relevantAnswers, row.irrelevantAnswers, 1).raw.mc2).toBeNull();
  });

  test('errors name the prompt: no irrelevant answers, or a wrong number of log-probabilities', () => {
    expect(() => kalahiMCRecord({ ...row, irrelevantAnswers: [] }, [1, 2, 3].map(() => ({ logprob: -1, tokenCount: 1 })))).toThrow(/0101000100: no irrelevant answers/);
    expect(() => kalahiMCRecord(row, [{ logprob: -1, tokenCount: 1 }])).toThrow(/0101000100: 1 log-probabilities for 5 references/);
  });
});
