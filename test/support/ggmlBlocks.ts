// ggml's block quantisation formats Q8_0 and Q4_0, as ggml's gguf docs and ggml-quants.c lay them out (rows of the
// innermost dimension cut into blocks of 32): Q8_0 = fp16 scale d + 32 int8 (value q·d, d = absmax/127, q rounded
// half away from zero); Q4_0 = fp16 scale d + 16 bytes of 4-bit q (value (q−8)·d, d = the signed value of largest
// magnitude ÷ −8, q = min(15, ⌊x/d + 8.5⌋), elements 0..15 in the low nibbles, 16..31 in the high ones).
import { float16Bits } from './quantiseOnnx.ts';

export type GgmlType = 'f32' | 'q8_0' | 'q4_0';

/** ggml_type ids, values per block and bytes per block (ggml.h / gguf docs). */
export const GGML_TYPES: Record<GgmlType, { id: number; blockValues: number; blockBytes: number }> = {
  f32: { id: 0, blockValues: 1, blockBytes: 4 },
  q4_0: { id: 2, blockValues: 32, blockBytes: 18 },
  q8_0: { id: 8, blockValues: 32, blockBytes: 34 },
};

/** general.file_type of a model whose matrices are all of one type (llama_ftype: ALL_F32 0, MOSTLY_Q4_0 2, MOSTLY_Q8_0 7). */
export const GGUF_FILE_TYPES: Record<GgmlType, number> = { f32: 0, q4_0: 2, q8_0: 7 };

/** Bytes `elements` values take in `type` (elements must be whole blocks). */
export function ggmlBytes(type: GgmlType, elements: number): number {
  const t = GGML_TYPES[type];
  if (elements % t.blockValues !== 0) throw new Error(`${type}: ${elements} values are not whole blocks of ${t.blockValues}`);
  return (elements / t.blockValues) * t.blockBytes;
}

const f32 = (x: number) => Math.fround(x);

/** Q8_0 blocks of `values` (a whole number of blocks of 32). */
export function quantiseQ8_0(values: Float32Array): Uint8Array {
  const out = new Uint8Array(ggmlBytes('q8_0', values.length));
  const view = new DataView(out.buffer);
  for (let b = 0, at = 0; b < values.length; b += 32, at += 34) {
    let amax = 0;
    for (let j = 0; j < 32; j++) amax = Math.max(amax, Math.abs(values[b + j]!));
    const d = f32(amax / 127);
    const id = d ? f32(1 / d) : 0;
    view.setUint16(at, float16Bits(d), true);
    for (let j = 0; j < 32; j++) {
      const x = f32(values[b + j]! * id);
      view.setInt8(at + 2 + j, Math.sign(x) * Math.round(Math.abs(x)));
    }
  }
  return out;
}

/** Q4_0 blocks of `values` (a whole number of blocks of 32). */
export function quantiseQ4_0(values: Float32Array): Uint8Array {
  const out = new Uint8Array(ggmlBytes('q4_0', values.length));
  const view = new DataView(out.buffer);
  for (let b = 0, at = 0; b < values.length; b += 32, at += 18) {
    let amax = 0;
    let max = 0;
    for (let j = 0; j < 32; j++) {
      const v = values[b + j]!;
      if (Math.abs(v) > amax) (amax = Math.abs(v)), (max = v);
    }
    const d = f32(max / -8);
    const id = d ? f32(1 / d) : 0;
    view.setUint16(at, float16Bits(d), true);
    const q = (v: number) => Math.min(15, Math.floor(f32(f32(v * id) + 8.5)));
    for (let j = 0; j < 16; j++) out[at + 2 + j] = q(values[b + j]!) | (q(values[b + 16 + j]!) << 4);
  }
  return out;
}

/** `values` in `type`'s bytes, as a GGUF tensor's data holds them. */
export function ggmlEncode(type: GgmlType, values: Float32Array): Uint8Array {
  if (type === 'q8_0') return quantiseQ8_0(values);
  if (type === 'q4_0') return quantiseQ4_0(values);
  // Float32Array bytes are in the platform order: little-endian on every platform Node runs llama.cpp on
  return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
}
