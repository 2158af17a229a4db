// What an ONNX file's graph is made of (nodes, initializer types and shapes, input and output types), read field by
// field from the file (protobufWire.ts) without loading the weights: a 500 MB graph is read in a few thousand small
// reads. Field numbers from onnx.proto (ModelProto.graph 7; GraphProto node 1, initializer 5, input 11, output 12).
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { fields, readVarint, text, textField, textFields, varintFields, type Field } from './protobufWire.ts';

interface OnnxNodeInfo {
  opType: string;
  /** '' for the default ONNX domain. */
  domain: string;
  inputs: string[];
  outputs: string[];
  /** Integer attributes by name (AttributeProto.i). */
  ints: Record<string, number>;
}

export interface OnnxTensorInfo {
  name: string;
  /** TensorProto.DataType (1 float, 2 uint8, 3 int8, 10 float16, …). */
  dataType: number;
  dims: number[];
  /** The raw little-endian data, when read with `withData`. */
  raw?: Uint8Array;
}

interface OnnxValueInfo {
  name: string;
  elemType: number;
}

export interface OnnxGraphInfo {
  opsets: Array<{ domain: string; version: number }>;
  nodes: OnnxNodeInfo[];
  initializers: OnnxTensorInfo[];
  inputs: OnnxValueInfo[];
  outputs: OnnxValueInfo[];
}

/** TensorProto.DataType values this project names. */
export const ONNX_TYPES = { float: 1, uint8: 2, int8: 3, int32: 6, int64: 7, float16: 10 } as const;

/** Random access to bytes: a file (read on demand) or a buffer. */
interface ByteSource {
  size: number;
  read(offset: number, length: number): Uint8Array;
}

/** A message's fields from a source, reading only the tags and lengths (each field's payload stays where it is). */
function sourceFields(src: ByteSource, start: number, end: number): Field[] {
  const out: Field[] = [];
  for (let at = start; at < end; ) {
    const head = src.read(at, Math.min(20, end - at));
    const [tag, afterTag] = readVarint(head, 0);
    const wire = tag % 8;
    let next: number;
    let valueStart = at + afterTag;
    if (wire === 0) next = at + readVarint(head, afterTag)[1];
    else if (wire === 1) next = valueStart + 8;
    else if (wire === 5) next = valueStart + 4;
    else if (wire === 2) {
      const [length, afterLength] = readVarint(head, afterTag);
      valueStart = at + afterLength;
      next = valueStart + length;
    } else throw new Error(`malformed protobuf: wire type ${wire} at byte ${at}`);
    if (next > end) throw new Error(`malformed protobuf: field ${Math.floor(tag / 8)} at byte ${at} runs past its message`);
    out.push({ no: Math.floor(tag / 8), wire, start: at, end: next, valueStart });
    at = next;
  }
  return out;
}

/** A small message's bytes, read whole, with its fields. */
function message(src: ByteSource, f: Field): { buf: Uint8Array; parts: Field[] } {
  const buf = src.read(f.valueStart, f.end - f.valueStart);
  return { buf, parts: fields(buf, 0, buf.length) };
}

function node(src: ByteSource, f: Field): OnnxNodeInfo {
  const { buf, parts } = message(src, f);
  const ints: Record<string, number> = {};
  for (const a of parts.filter((p) => p.no === 5 && p.wire === 2)) {
    const attr = fields(buf, a.valueStart, a.end);
    const name = textField(buf, attr, 1);
    const i = attr.find((p) => p.no === 3 && p.wire === 0);
    if (name !== undefined && i !== undefined) ints[name] = readVarint(buf, i.valueStart)[0];
  }
  return { opType: textField(buf, parts, 4) ?? '', domain: textField(buf, parts, 7) ?? '', inputs: textFields(buf, parts, 1), outputs: textFields(buf, parts, 2), ints };
}

function initializer(src: ByteSource, f: Field, withData: boolean): OnnxTensorInfo {
  // read every field but the data (TensorProto.raw_data 9) whole
  const parts = sourceFields(src, f.valueStart, f.end);
  const small = parts.filter((p) => p.no !== 9);
  const info: OnnxTensorInfo = { name: '', dataType: 0, dims: [] };
  for (const p of small) {
    const buf = src.read(p.start, p.end - p.start);
    const local = fields(buf, 0, buf.length);
    if (p.no === 8) info.name = text(buf, local[0]!);
    else if (p.no === 2) info.dataType = readVarint(buf, local[0]!.valueStart)[0];
    else if (p.no === 1) info.dims.push(...varintFields(buf, local, 1));
  }
  const raw = parts.find((p) => p.no === 9);
  if (withData && raw) info.raw = src.read(raw.valueStart, raw.end - raw.valueStart);
  return info;
}

function valueInfo(src: ByteSource, f: Field): OnnxValueInfo {
  const { buf, parts } = message(src, f);
  // ValueInfoProto.type 2 → TypeProto.tensor_type 1 → elem_type 1
  let elemType = 0;
  const type = parts.find((p) => p.no === 2 && p.wire === 2);
  const tensor = type && fields(buf, type.valueStart, type.end).find((p) => p.no === 1 && p.wire === 2);
  const elem = tensor && fields(buf, tensor.valueStart, tensor.end).find((p) => p.no === 1 && p.wire === 0);
  if (elem) elemType = readVarint(buf, elem.valueStart)[0];
  return { name: textField(buf, parts, 1) ?? '', elemType };
}

function readGraph(src: ByteSource, withData: boolean): OnnxGraphInfo {
  const info: OnnxGraphInfo = { opsets: [], nodes: [], initializers: [], inputs: [], outputs: [] };
  const top = sourceFields(src, 0, src.size);
  for (const f of top.filter((p) => p.no === 8 && p.wire === 2)) {
    // ModelProto.opset_import 8: OperatorSetIdProto domain 1, version 2
    const { buf, parts } = message(src, f);
    const version = parts.find((p) => p.no === 2 && p.wire === 0);
    info.opsets.push({ domain: textField(buf, parts, 1) ?? '', version: version ? readVarint(buf, version.valueStart)[0] : 0 });
  }
  const graph = top.find((p) => p.no === 7 && p.wire === 2);
  if (!graph) throw new Error('not an ONNX model: it has no graph');
  for (const f of sourceFields(src, graph.valueStart, graph.end)) {
    if (f.wire !== 2) continue;
    if (f.no === 1) info.nodes.push(node(src, f));
    else if (f.no === 5) info.initializers.push(initializer(src, f, withData));
    else if (f.no === 11) info.inputs.push(valueInfo(src, f));
    else if (f.no === 12) info.outputs.push(valueInfo(src, f));
  }
  return info;
}

/** The graph of an ONNX model in memory. */
export function readOnnxGraphBytes(bytes: Uint8Array, options: { withData?: boolean } = {}): OnnxGraphInfo {
  return readGraph({ size: bytes.length, read: (offset, length) => bytes.subarray(offset, offset + length) }, options.withData ?? false);
}

/** The graph of an ONNX file, its weights left on disk (external data files are not read). */
export function readOnnxGraphFile(file: string): OnnxGraphInfo {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const read = (offset: number, length: number) => {
      const out = new Uint8Array(length);
      for (let got = 0; got < length; ) {
        const n = readSync(fd, out, got, length - got, offset + got);
        if (n === 0) throw new Error(`${file} ends at byte ${offset + got}, inside a field`);
        got += n;
      }
      return out;
    };
    return readGraph({ size, read }, false);
  } finally {
    closeSync(fd);
  }
}
