// A GGUF (version 3) file writer, written from the format's specification (ggml's docs/gguf.md): little-endian header
// "GGUF", version, tensor count and metadata count; typed key/value pairs; tensor infos (name, dimensions innermost
// first, ggml type, offset); then the tensor data, each tensor aligned to general.alignment (32 by default). Tensors
// are float32 or ggml's block formats Q8_0 and Q4_0 (ggmlBlocks.ts).
import { closeSync, openSync, writeSync } from 'node:fs';
import { GGML_TYPES, ggmlBytes, ggmlEncode, type GgmlType } from './ggmlBlocks.ts';

/** Metadata value types of the specification (gguf_metadata_value_type). */
const VALUE_TYPE = { uint32: 4, int32: 5, float32: 6, bool: 7, string: 8, array: 9, uint64: 10 } as const;
const ALIGNMENT = 32;

export type GgufMetadataValue =
  | { type: 'uint32' | 'int32' | 'float32' | 'uint64'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'string'; value: string }
  | { type: 'string[]'; value: readonly string[] }
  | { type: 'int32[]'; value: readonly number[] };

/**
 * A tensor given as float32 values: `dims` innermost first (ggml's ne order: a [rows, columns] row-major matrix is
 * [columns, rows]), stored as `type` (default f32; Q8_0/Q4_0 quantise each row of dims[0] values in blocks of 32).
 */
export interface GgufTensor {
  name: string;
  dims: readonly number[];
  type?: GgmlType;
  /** Made when written, so a large model is never whole in memory. */
  data: () => Float32Array;
}

/** Growable little-endian byte buffer for the header part of the file. */
class ByteSink {
  private buffer = Buffer.alloc(1 << 16);
  length = 0;
  private reserve(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const next = Buffer.alloc(Math.max(this.buffer.length * 2, this.length + bytes));
    this.buffer.copy(next, 0, 0, this.length);
    this.buffer = next;
  }
  u32(v: number): void {
    this.reserve(4);
    this.length = this.buffer.writeUInt32LE(v, this.length);
  }
  i32(v: number): void {
    this.reserve(4);
    this.length = this.buffer.writeInt32LE(v, this.length);
  }
  f32(v: number): void {
    this.reserve(4);
    this.length = this.buffer.writeFloatLE(v, this.length);
  }
  u64(v: number | bigint): void {
    this.reserve(8);
    this.length = this.buffer.writeBigUInt64LE(BigInt(v), this.length);
  }
  u8(v: number): void {
    this.reserve(1);
    this.length = this.buffer.writeUInt8(v, this.length);
  }
  /** gguf_string_t: uint64 byte length, then UTF-8 bytes without a terminator. */
  string(s: string): void {
    const bytes = Buffer.from(s, 'utf8');
    this.u64(bytes.length);
    this.reserve(bytes.length);
    bytes.copy(this.buffer, this.length);
    this.length += bytes.length;
  }
  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

function writeValue(sink: ByteSink, value: GgufMetadataValue): void {
  switch (value.type) {
    case 'uint32':
      return (sink.u32(VALUE_TYPE.uint32), sink.u32(value.value));
    case 'int32':
      return (sink.u32(VALUE_TYPE.int32), sink.i32(value.value));
    case 'float32':
      return (sink.u32(VALUE_TYPE.float32), sink.f32(value.value));
    case 'uint64':
      return (sink.u32(VALUE_TYPE.uint64), sink.u64(value.value));
    case 'bool':
      return (sink.u32(VALUE_TYPE.bool), sink.u8(value.value ? 1 : 0));
    case 'string':
      return (sink.u32(VALUE_TYPE.string), sink.string(value.value));
    case 'string[]':
      sink.u32(VALUE_TYPE.array);
      sink.u32(VALUE_TYPE.string);
      sink.u64(value.value.length);
      for (const s of value.value) sink.string(s);
      return;
    case 'int32[]':
      sink.u32(VALUE_TYPE.array);
      sink.u32(VALUE_TYPE.int32);
      sink.u64(value.value.length);
      for (const v of value.value) sink.i32(v);
      return;
  }
}

const padTo = (n: number, alignment: number) => Math.ceil(n / alignment) * alignment;

/**
 * Writes a GGUF v3 file of float32 or block-quantised tensors; returns its size in bytes. Metadata keys are written in the given order;
 * `general.alignment` is left at the default (32).
 */
export function writeGguf(file: string, metadata: ReadonlyArray<[string, GgufMetadataValue]>, tensors: readonly GgufTensor[]): number {
  const keys = new Set<string>();
  for (const [key] of metadata) {
    if (keys.has(key)) throw new Error(`GGUF metadata key ${key} given twice`);
    keys.add(key);
  }
  const head = new ByteSink();
  head.u32(0x46554747); // "GGUF" read as a little-endian uint32
  head.u32(3);
  head.u64(tensors.length);
  head.u64(metadata.length);
  for (const [key, value] of metadata) {
    head.string(key);
    writeValue(head, value);
  }
  let offset = 0;
  const sizes: number[] = [];
  for (const t of tensors) {
    const elements = t.dims.reduce((a, b) => a * b, 1);
    const type = t.type ?? 'f32';
    // blocks never straddle rows: ggml quantises each row of the innermost dimension on its own
    if ((t.dims[0] ?? 1) % GGML_TYPES[type].blockValues !== 0)
      throw new Error(`GGUF tensor ${t.name}: rows of ${t.dims[0]} values are not whole ${type} blocks of ${GGML_TYPES[type].blockValues}`);
    const bytes = ggmlBytes(type, elements);
    head.string(t.name);
    head.u32(t.dims.length);
    for (const d of t.dims) head.u64(d);
    head.u32(GGML_TYPES[type].id);
    head.u64(offset);
    sizes.push(bytes);
    offset = padTo(offset + bytes, ALIGNMENT);
  }
  const fd = openSync(file, 'w');
  try {
    const header = head.bytes();
    writeSync(fd, header);
    let position = header.length;
    const dataStart = padTo(position, ALIGNMENT);
    writeSync(fd, Buffer.alloc(dataStart - position));
    position = dataStart;
    tensors.forEach((t, i) => {
      const values = t.data();
      const data = ggmlEncode(t.type ?? 'f32', values);
      if (data.byteLength !== sizes[i]) throw new Error(`GGUF tensor ${t.name}: ${values.length} values for dims [${t.dims.join(', ')}]`);
      writeSync(fd, data);
      position += data.byteLength;
      const padded = dataStart + padTo(position - dataStart, ALIGNMENT);
      if (i < tensors.length - 1 && padded > position) writeSync(fd, Buffer.alloc(padded - position));
      position = i < tensors.length - 1 ? padded : position;
    });
    return position;
  } finally {
    closeSync(fd);
  }
}
