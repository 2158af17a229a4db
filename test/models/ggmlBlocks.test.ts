// ggml's Q8_0 and Q4_0 blocks as the GGUF writer stores them: read back here byte by byte from the layout of ggml's
// gguf docs (fp16 d first; Q4_0's low nibbles are elements 0..15, high nibbles 16..31) and compared with the input
// within each block's own error bound, computed here from the block's values.
import { describe, expect, test } from 'vitest';
import { ggmlBytes, quantiseQ4_0, quantiseQ8_0 } from '../support/ggmlBlocks.ts';
import { float16Value } from '../support/quantiseOnnx.ts';
import { seededRandom } from '../support/seededRandom.ts';

function values(count: number, seed: number): Float32Array {
  const next = seededRandom(seed);
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) out[i] = (next() - 0.5) * (i % 64 < 32 ? 0.2 : 7); // blocks of small and of large values
  out.fill(0, 64, 96); // an all-zero block: d = 0, every value read back as 0
  out[100] = 3.5; // a block whose largest magnitude is positive (Q4_0's d is then negative)
  out[130] = -3.5;
  return out;
}

const x = values(32 * 40, 11);

describe('Q8_0', () => {
  test('34-byte blocks: fp16 d then 32 int8; q·d within d/2 + 127·|d − absmax/127| of each value', () => {
    const bytes = quantiseQ8_0(x);
    expect(bytes.length).toBe(40 * 34);
    const view = new DataView(bytes.buffer);
    for (let b = 0; b < 40; b++) {
      const block = x.subarray(b * 32, b * 32 + 32);
      const amax = Math.max(...block.map(Math.abs));
      const d = float16Value(view.getUint16(b * 34, true));
      // d is absmax/127 rounded to half precision; the values were scaled by the unrounded one
      expect(Math.abs(d - amax / 127)).toBeLessThanOrEqual((amax / 127) * 2 ** -11 + 1e-12);
      const bound = d / 2 + 127 * Math.abs(d - amax / 127) + 1e-6 * amax;
      for (let j = 0; j < 32; j++) {
        const q = view.getInt8(b * 34 + 2 + j);
        expect(Math.abs(q)).toBeLessThanOrEqual(127);
        expect(Math.abs(q * d - block[j]!)).toBeLessThanOrEqual(bound);
      }
    }
  });
});

describe('Q4_0', () => {
  test('18-byte blocks: fp16 d then 16 bytes of nibbles; (q − 8)·d within |d| (the clipped +8 end) of each value, |d|/2 elsewhere', () => {
    const bytes = quantiseQ4_0(x);
    expect(bytes.length).toBe(40 * 18);
    const view = new DataView(bytes.buffer);
    for (let b = 0; b < 40; b++) {
      const block = x.subarray(b * 32, b * 32 + 32);
      let max = 0;
      for (const v of block) if (Math.abs(v) > Math.abs(max)) max = v;
      const d = float16Value(view.getUint16(b * 18, true));
      expect(Math.abs(d - max / -8)).toBeLessThanOrEqual((Math.abs(max) / 8) * 2 ** -11 + 1e-12);
      const fp16Slack = 8 * Math.abs(d - max / -8) + 1e-6 * Math.abs(max);
      for (let j = 0; j < 32; j++) {
        const byte = bytes[b * 18 + 2 + (j % 16)]!;
        const q = j < 16 ? byte & 0x0f : byte >> 4;
        const error = Math.abs((q - 8) * d - block[j]!);
        // only values on the far side from max, within half a step of −max, round to +8 and are clipped to 7
        const clipped = block[j]! / (max / -8) > 7.5;
        expect(error).toBeLessThanOrEqual((clipped ? 1 : 0.5) * Math.abs(d) + fp16Slack);
      }
      // the value of largest magnitude is exact up to d's rounding: q = 0
      expect(Math.abs(-8 * d - max)).toBeLessThanOrEqual(fp16Slack);
    }
  });

  test('a zero block stores d = 0 and reads back as zeros; sizes are whole blocks only', () => {
    const q = quantiseQ4_0(new Float32Array(32));
    expect(Math.abs(float16Value(new DataView(q.buffer).getUint16(0, true)))).toBe(0); // −0 (0 / −8), as ggml stores it
    expect([...q.subarray(2)].every((b) => b === 0x88)).toBe(true);
    expect(() => ggmlBytes('q8_0', 40)).toThrow(/40 values are not whole blocks of 32/);
  });
});
