// Sampled decoding of one token: the filtered distribution against hand-computed probabilities, the draws against
// it by a chi-square bound, and the edges (greedy, T → 0, top_p = 1, one token, ties).
import { describe, expect, test } from 'vitest';
import { sampleToken, samplingDistribution } from '../../src/core/sampleToken.ts';
import { seededUniform } from '../../src/core/statistics/index.ts';
import { trialSeed } from '../../src/core/trialSeed.ts';
import { plainDistribution, plainDraw } from '../../bench/plainSampling.ts';

// Logits T·ln(w) make softmax(logits / T) exactly w / Σw: weights 2, 4, 1, 3 → probabilities 0.2, 0.4, 0.1, 0.3.
const T = 0.5;
const logits = [2, 4, 1, 3].map((w) => T * Math.log(w));

function counts(settings: { temperature: number; topP: number }, draws: number, seed: number): number[] {
  const uniform = seededUniform(seed);
  const seen = [0, 0, 0, 0];
  for (let i = 0; i < draws; i++) seen[sampleToken(logits, settings, uniform)]!++;
  return seen;
}

/** Pearson's χ² of observed counts against expected probabilities (tokens with p = 0 must not be seen: Infinity). */
function chiSquare(observed: readonly number[], expected: readonly number[]): number {
  const n = observed.reduce((a, b) => a + b, 0);
  let sum = 0;
  observed.forEach((o, i) => {
    const e = n * expected[i]!;
    sum += e === 0 ? (o === 0 ? 0 : Infinity) : (o - e) ** 2 / e;
  });
  return sum;
}

// χ² critical values at 0.001 (any statistics table): a correct sampler exceeds them once in a thousand seeds.
const CHI2_001 = { 2: 13.816, 3: 16.266 };
const DRAWS = 30_000;

describe('samplingDistribution and sampleToken', () => {
  test('top_p = 0.8 keeps 0.4 + 0.3 + 0.2 (the smallest prefix reaching 0.8), renormalised to 4/9, 3/9, 2/9', () => {
    const distribution = samplingDistribution(logits, { temperature: T, topP: 0.8 });
    expect(distribution.map((d) => d.token)).toEqual([1, 3, 0]);
    const expected = [4 / 9, 3 / 9, 2 / 9];
    distribution.forEach((d, i) => expect(d.p).toBeCloseTo(expected[i]!, 14));
  });

  test('draws follow the nucleus distribution (χ², 2 degrees of freedom) and not the unfiltered one', () => {
    const seen = counts({ temperature: T, topP: 0.8 }, DRAWS, trialSeed(1, 'sampling', 0));
    expect(seen[2]).toBe(0);
    expect(chiSquare(seen, [2 / 9, 4 / 9, 0, 3 / 9])).toBeLessThan(CHI2_001[2]);
    // The check tells the two apart: these draws fail it against the unfiltered 0.2/0.4/0.1/0.3.
    const unfiltered = [0.2, 0.4, 0.1, 0.3];
    expect(chiSquare(seen, unfiltered)).toBeGreaterThan(1000);
  });

  test('top_p = 1 keeps every token: draws follow 0.2, 0.4, 0.1, 0.3 (χ², 3 degrees of freedom)', () => {
    // In index order: no sort at top_p = 1.
    expect(samplingDistribution(logits, { temperature: T, topP: 1 }).map((d) => d.token)).toEqual([0, 1, 2, 3]);
    const seen = counts({ temperature: T, topP: 1 }, DRAWS, trialSeed(1, 'sampling', 1));
    expect(chiSquare(seen, [0.2, 0.4, 0.1, 0.3])).toBeLessThan(CHI2_001[3]);
    // And the check fails against the nucleus distribution (token 2 was drawn, which it forbids).
    expect(chiSquare(seen, [2 / 9, 4 / 9, 0, 3 / 9])).toBe(Infinity);
    // Seven tokens whose probabilities, most probable first, sum to 0.9999999999999998 in doubles: a top_p of
    // 1 − 2⁻⁵³ (the largest double below 1) is never reached, and every token is kept.
    const seven = Array.from({ length: 7 }, (_, i) => Math.log(i + 1) / 3);
    expect(samplingDistribution(seven, { temperature: 0.7, topP: 1 - 2 ** -53 })).toHaveLength(7);
  });

  test('temperature 0 is the argmax and draws nothing; T → 0 converges to it', () => {
    const noDraw = () => {
      throw new Error('greedy decoding drew a number');
    };
    expect(sampleToken(logits, { temperature: 0, topP: 0.5 }, noDraw)).toBe(1);
    // Equal largest logits: the lower index.
    expect(sampleToken([0, 2, 2], { temperature: 0, topP: 1 }, noDraw)).toBe(1);
    // T = 10⁻³: exp((ln 3 − ln 4)·0.5/10⁻³) ≈ 10⁻⁶², so the top token holds all the mass to double precision.
    const cold = samplingDistribution(logits, { temperature: 1e-3, topP: 1 });
    expect(cold.map((d) => d.p > 1e-60)).toEqual([false, true, false, false]);
    expect(cold[1]).toEqual({ token: 1, p: 1 });
    expect(samplingDistribution(logits, { temperature: 1e-3, topP: 0.9 })).toEqual([{ token: 1, p: 1 }]);
    expect(counts({ temperature: 1e-3, topP: 1 }, 1000, 5)).toEqual([0, 1000, 0, 0]);
  });

  test('one token, masked tokens and ties in the nucleus', () => {
    expect(sampleToken([3.5], { temperature: 1.3, topP: 0.2 }, seededUniform(1))).toBe(0);
    expect(samplingDistribution([0, -Infinity, 0], { temperature: 1, topP: 1 })).toEqual([{ token: 0, p: 0.5 }, { token: 2, p: 0.5 }]);
    // Logits 1, 1, 0 at T = 1: e/(2e + 1) ≈ 0.42 each; top_p = 0.4 keeps one of the tied pair, the lower index.
    expect(samplingDistribution([1, 1, 0], { temperature: 1, topP: 0.4 })).toEqual([{ token: 0, p: 1 }]);
    expect(samplingDistribution([1, 1, 0], { temperature: 1, topP: 0.5 }).map((d) => d.token)).toEqual([0, 1]);
  });

  test('rejects bad settings and logits', () => {
    const u = seededUniform(1);
    expect(() => sampleToken([], { temperature: 1, topP: 1 }, u)).toThrow(/no logits/u);
    expect(() => sampleToken([1, Number.NaN], { temperature: 1, topP: 1 }, u)).toThrow(/logit 1 is NaN/u);
    expect(() => sampleToken([1], { temperature: -0.1, topP: 1 }, u)).toThrow(/temperature must be a number ≥ 0/u);
    expect(() => sampleToken([1], { temperature: 1, topP: 0 }, u)).toThrow(/top_p must be in \(0, 1\]/u);
    expect(() => sampleToken([1], { temperature: 1, topP: 1.5 }, u)).toThrow(/top_p/u);
    expect(() => sampleToken([-Infinity, -Infinity], { temperature: 1, topP: 1 }, u)).toThrow(/every logit is -Infinity/u);
  });
});

/** Tokens and probabilities as typed arrays: compared element by element, fast at 151,936 entries. */
const columns = (d: ReadonlyArray<{ token: number; p: number }>) => ({ tokens: Uint32Array.from(d, (x) => x.token), p: Float64Array.from(d, (x) => x.p) });

describe('the typed-array nucleus equals the plain definition', () => {
  test('random rows (ties, masked tokens, a 151,936-token row): the same distributions, bit for bit, and the same draws', () => {
    const random = seededUniform(2024);
    const rows: Float32Array[] = [];
    for (const n of [1, 2, 7, 1000]) {
      // logits on a grid of 0.25 give ties; every 97th token masked
      rows.push(Float32Array.from({ length: n }, (_, i) => (i % 97 === 5 && n > 7 ? -Infinity : Math.round((random() - 0.5) * 40) / 4)));
      rows.push(Float32Array.from({ length: n }, () => (random() - 0.5) * 6));
    }
    rows.push(Float32Array.from({ length: 151_936 }, () => Math.round((random() - 0.5) * 80) / 4));
    for (const row of rows)
      for (const temperature of row.length > 1000 ? [0.7] : [0, 0.3, 0.7, 1.3])
        for (const topP of row.length > 1000 ? [1, 0.9] : [1, 0.95, 0.5, 1e-9, 1 - 2 ** -53]) {
          const settings = { temperature, topP };
          const label = `n=${row.length} T=${temperature} top_p=${topP}`;
          const plain = plainDistribution(row, settings);
          expect(columns(samplingDistribution(row, settings)), label).toEqual(columns(plain));
          const [a, b] = [seededUniform(9), seededUniform(9)];
          for (let draw = 0; draw < 5; draw++) expect(sampleToken(row, settings, a), label).toBe(plainDraw(plain, b));
        }
  });
});
