// Reading and writing protobuf's wire format (https://protobuf.dev/programming-guides/encoding/) field by field: the
// saved optimised graph is edited in place, so every byte not edited stays as onnxruntime wrote it (decoding and
// encoding again with a schema would drop the fields newer than that schema).

export interface Field {
  /** Field number. */
  no: number;
  /** Wire type (0 varint, 1 fixed64, 2 length-delimited, 5 fixed32). */
  wire: number;
  /** The whole field, tag included. */
  start: number;
  end: number;
  /** A length-delimited field's payload. */
  valueStart: number;
}

export function readVarint(buf: Uint8Array, at: number): [value: number, next: number] {
  let value = 0;
  let scale = 1;
  for (let i = at; i < buf.length && i < at + 10; i++) {
    const byte = buf[i]!;
    value += (byte & 0x7f) * scale;
    scale *= 128;
    if (byte < 0x80) return [value, i + 1];
  }
  throw new Error(`malformed protobuf: a varint at byte ${at} does not end`);
}

/** The fields of the message between `start` and `end`, in order. */
export function fields(buf: Uint8Array, start: number, end: number): Field[] {
  const out: Field[] = [];
  let at = start;
  while (at < end) {
    const [tag, afterTag] = readVarint(buf, at);
    const no = Math.floor(tag / 8);
    const wire = tag % 8;
    let next: number;
    let valueStart = afterTag;
    if (wire === 0) next = readVarint(buf, afterTag)[1];
    else if (wire === 1) next = afterTag + 8;
    else if (wire === 5) next = afterTag + 4;
    else if (wire === 2) {
      const [length, afterLength] = readVarint(buf, afterTag);
      valueStart = afterLength;
      next = afterLength + length;
    } else throw new Error(`malformed protobuf: wire type ${wire} at byte ${at}`);
    if (next > end) throw new Error(`malformed protobuf: field ${no} at byte ${at} runs past its message`);
    out.push({ no, wire, start: at, end: next, valueStart });
    at = next;
  }
  return out;
}

/** The fields of a length-delimited field's payload (an embedded message). */
export const inner = (buf: Uint8Array, f: Field): Field[] => fields(buf, f.valueStart, f.end);

const utf8 = new TextDecoder();
export const encoder = new TextEncoder();

/** A length-delimited field's payload as UTF-8 text. */
export const text = (buf: Uint8Array, f: Field): string => utf8.decode(buf.subarray(f.valueStart, f.end));

/** The text of the first length-delimited field numbered `no`, if any. */
export function textField(buf: Uint8Array, parts: Field[], no: number): string | undefined {
  const f = parts.find((p) => p.no === no && p.wire === 2);
  return f ? text(buf, f) : undefined;
}

/** The texts of every length-delimited field numbered `no` (a repeated string), in order. */
export function textFields(buf: Uint8Array, parts: Field[], no: number): string[] {
  return parts.filter((p) => p.no === no && p.wire === 2).map((p) => text(buf, p));
}

/** The values of a repeated integer field, packed or not (non-negative values; larger than 2^53 read as such). */
export function varintFields(buf: Uint8Array, parts: Field[], no: number): number[] {
  const out: number[] = [];
  for (const p of parts.filter((x) => x.no === no)) {
    if (p.wire === 0) out.push(readVarint(buf, p.valueStart)[0]);
    else if (p.wire === 2) for (let at = p.valueStart; at < p.end; ) [out[out.length], at] = readVarint(buf, at);
  }
  return out;
}

function varint(value: number): number[] {
  const out: number[] = [];
  while (value >= 0x80) {
    out.push((value % 128) | 0x80);
    value = Math.floor(value / 128);
  }
  out.push(value);
  return out;
}

/** A length-delimited field: tag, length, payload. */
export function lengthDelimited(no: number, parts: Uint8Array[]): Uint8Array[] {
  const length = parts.reduce((sum, p) => sum + p.length, 0);
  return [Uint8Array.from([...varint(no * 8 + 2), ...varint(length)]), ...parts];
}

/** A string field. */
export const stringField = (no: number, value: string): Uint8Array => concat(lengthDelimited(no, [encoder.encode(value)]));

/** A varint field of a non-negative integer. */
export const varintField = (no: number, value: number): Uint8Array => Uint8Array.from([...varint(no * 8), ...varint(value)]);

/** An embedded message field. */
export const messageField = (no: number, parts: Uint8Array[]): Uint8Array => concat(lengthDelimited(no, parts));

export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.length));
  return out;
}
