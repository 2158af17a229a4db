// Log-probabilities from logit rows (logit − the row's log-sum-exp, with a table-based exponential) against a plain
// float64 log-softmax over the whole row written here with Math.exp: equal within 1e-9 relative (docs/metrics.md#per-answer-score).
import { Tensor } from '@huggingface/transformers';
import { describe, expect, test } from 'vitest';
import { logSoftmaxAt, logSumExp, sumLogprobs } from '../../src/models/logitRows.ts';
import { seededRandom } from '../support/seededRandom.ts';

/** The whole log-softmax of a row in float64, the textbook way. */
function plainLogSoftmax(row: Float32Array): Float64Array {
  let max = -Infinity;
  for (const x of row) max = Math.max(max, x);
  let sum = 0;
  for (const x of row) sum += Math.exp(x - max);
  const logZ = max + Math.log(sum);
  return Float64Array.from(row, (x) => x - logZ);
}

/** Seeded uniform numbers in [0, 1), so a failure can be replayed. */
const uniform = seededRandom;

/** A Qwen-sized row (151,936 logits): `spread` wide around `offset`. */
function randomRow(seed: number, spread: number, offset: number, vocab = 151_936): Float32Array {
  const next = uniform(seed);
  return Float32Array.from({ length: vocab }, () => offset + (next() - 0.5) * spread);
}

const relative = (a: number, b: number) => Math.abs(a - b) / Math.max(Math.abs(b), Number.MIN_VALUE);

describe('log-probabilities from logit rows', () => {
  test('hand-worked: logits [0, ln 3] are probabilities 1/4 and 3/4; a shift of 1000 changes nothing', () => {
    const row = Float32Array.of(0, Math.log(3));
    expect(logSumExp(row)).toBeCloseTo(Math.log(1 + 3), 7);
    expect(logSoftmaxAt(row, 0)).toBeCloseTo(Math.log(1 / 4), 7);
    expect(logSoftmaxAt(row, 1)).toBeCloseTo(Math.log(3 / 4), 7);
    expect(logSoftmaxAt(Float32Array.of(1000, 1000), 1)).toBeCloseTo(Math.log(1 / 2), 12);
  });

  test.each([
    { spread: 0.01, offset: 0 },
    { spread: 8, offset: 0 },
    { spread: 30, offset: -12 },
    { spread: 200, offset: 5 },
    { spread: 4000, offset: 0 },
    { spread: 16, offset: 30_000 },
  ])('every token of a 151,936-logit row, spread $spread around $offset, within 1e-9 of a float64 log-softmax', ({ spread, offset }) => {
    const row = randomRow(spread * 7 + offset, spread, offset);
    const plain = plainLogSoftmax(row);
    let worst = 0;
    const lse = logSumExp(row);
    for (let j = 0; j < row.length; j += 97) worst = Math.max(worst, relative(row[j]! - lse, plain[j]!));
    for (const j of [0, 1, row.length - 1]) worst = Math.max(worst, relative(logSoftmaxAt(row, j), plain[j]!));
    expect(worst).toBeLessThan(1e-9);
  });

  test('differences from the maximum that fall on the table steps and between them', () => {
    // k / 256 exactly, just below, and a long way down (exp underflows to 0 past 745 nats)
    const row = Float32Array.from([0, -1 / 256, -3 / 256 + 1e-6, -0.5, -1, -10.25, -100, -744.9, -745.5, -800, -1e30]);
    const plain = plainLogSoftmax(row);
    for (let j = 0; j < row.length; j++) expect(relative(logSoftmaxAt(row, j), plain[j]!), `logit ${row[j]}`).toBeLessThan(1e-12);
  });

  test('masked logits (−Infinity) have log-probability −Infinity and leave the rest exact; a row of nothing but them is −Infinity', () => {
    const row = randomRow(3, 8, 0, 1000);
    for (let j = 0; j < row.length; j += 3) row[j] = -Infinity;
    const plain = plainLogSoftmax(row);
    expect(logSoftmaxAt(row, 0)).toBe(-Infinity);
    for (let j = 1; j < row.length; j += 3) expect(relative(logSoftmaxAt(row, j), plain[j]!)).toBeLessThan(1e-12);
    expect(logSumExp(Float32Array.of(-Infinity, -Infinity))).toBe(-Infinity);
    expect(logSumExp(Float32Array.of(0, Number.NaN))).toBeNaN();
  });

  test('sumLogprobs adds each target token of a [batch, width, vocab] tensor at its position', () => {
    const [batch, width, vocab] = [2, 3, 5000];
    const rows = Array.from({ length: batch * width }, (_, i) => randomRow(100 + i, 10, 0, vocab));
    const data = new Float32Array(batch * width * vocab);
    rows.forEach((row, i) => data.set(row, i * vocab));
    const logits = new Tensor('float32', data, [batch, width, vocab]);
    // row 1, tokens [7, 42, 4999] at t = 1..2 read positions 0..1 (the logits before each token)
    const tokens = [7, 42, 4999];
    const expected = plainLogSoftmax(rows[width + 0]!)[42]! + plainLogSoftmax(rows[width + 1]!)[4999]!;
    expect(relative(sumLogprobs(logits, 1, width, tokens, 0, 1, 3), expected)).toBeLessThan(1e-9);
  });
});
