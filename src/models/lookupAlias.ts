// A saved optimised graph whose embedding matrix is both looked up (Gather) and multiplied by a prepacking kernel (a
// tied output projection: Gemm/MatMul) gets a second initializer naming the same external bytes for the Gather.
// onnxruntime reads every page of an initializer it prepacks that another kernel also uses (about 520 MiB of a
// Qwen2.5-0.5B model, resident for the whole run); under its own name the lookup only touches the rows it reads.
//
// The edit is made on protobuf's wire format (protobufWire.ts) with the field numbers of onnx.proto (ModelProto.graph
// 7; GraphProto.node 1, initializer 5; NodeProto.input 1, op_type 4, domain 7; TensorProto.name 8, external_data 13;
// StringStringEntryProto.key 1).
import { concat, encoder, fields, lengthDelimited, text, type Field } from './protobufWire.ts';

/** The key of an external_data entry (StringStringEntryProto.key). */
function entryKey(buf: Uint8Array, entry: Field): string {
  const key = fields(buf, entry.valueStart, entry.end).find((f) => f.no === 1 && f.wire === 2);
  return key ? text(buf, key) : '';
}

/**
 * The graph with a lookup-only initializer for each prepacked initializer a Gather reads (see the top of this file);
 * `aliased` names the initializers given one. A graph without that pattern comes back as the same bytes.
 */
export function aliasLookupTables(model: Uint8Array): { bytes: Uint8Array; aliased: string[] } {
  const top = fields(model, 0, model.length);
  const graphFields = top.filter((f) => f.no === 7 && f.wire === 2);
  if (graphFields.length !== 1) return { bytes: model, aliased: [] };
  const graph = graphFields[0]!;
  const parts = fields(model, graph.valueStart, graph.end);
  const taken = new Set<string>();
  const prepacked = new Map<string, Field>();
  for (const f of parts.filter((p) => p.no === 5 && p.wire === 2)) {
    const inner = fields(model, f.valueStart, f.end);
    const name = inner.find((i) => i.no === 8 && i.wire === 2);
    if (!name) continue;
    taken.add(text(model, name));
    if (inner.some((i) => i.no === 13 && i.wire === 2 && entryKey(model, i).startsWith('prepacked'))) prepacked.set(text(model, name), f);
  }
  // graph inputs, outputs and value infos (GraphProto 11, 12, 13; ValueInfoProto.name 1): names an alias must not take
  for (const f of parts.filter((p) => [11, 12, 13].includes(p.no) && p.wire === 2)) {
    const name = fields(model, f.valueStart, f.end).find((i) => i.no === 1 && i.wire === 2);
    if (name) taken.add(text(model, name));
  }
  const gathers = new Map<Field, string>();
  for (const f of parts.filter((p) => p.no === 1 && p.wire === 2)) {
    const inner = fields(model, f.valueStart, f.end);
    const op = inner.find((i) => i.no === 4 && i.wire === 2);
    const domain = inner.find((i) => i.no === 7 && i.wire === 2);
    const input = inner.find((i) => i.no === 1 && i.wire === 2);
    for (const o of inner.filter((i) => i.no === 2 && i.wire === 2)) taken.add(text(model, o));
    if (!op || text(model, op) !== 'Gather' || (domain && !['', 'ai.onnx'].includes(text(model, domain))) || !input) continue;
    if (prepacked.has(text(model, input))) gathers.set(f, text(model, input));
  }
  if (gathers.size === 0) return { bytes: model, aliased: [] };
  const aliasOf = new Map<string, string>();
  for (const name of new Set(gathers.values())) {
    let alias = `${name}.lookup`;
    for (let n = 2; taken.has(alias); n++) alias = `${name}.lookup${n}`;
    taken.add(alias);
    aliasOf.set(name, alias);
  }
  const graphParts: Uint8Array[] = [];
  for (const f of parts) {
    const gathered = gathers.get(f);
    if (gathered !== undefined) {
      // the Gather node with its data input (the first input field) renamed
      const inner = fields(model, f.valueStart, f.end);
      const firstInput = inner.find((i) => i.no === 1 && i.wire === 2)!;
      const node = inner.map((i) => (i === firstInput ? concat(lengthDelimited(1, [encoder.encode(aliasOf.get(gathered)!)])) : model.subarray(i.start, i.end)));
      graphParts.push(...lengthDelimited(1, node));
      continue;
    }
    graphParts.push(model.subarray(f.start, f.end));
    const name = [...aliasOf.keys()].find((n) => prepacked.get(n) === f);
    if (name !== undefined) {
      // the alias right after its initializer: the same fields, its own name, no prepacked layouts
      const inner = fields(model, f.valueStart, f.end).filter((i) => !(i.no === 13 && i.wire === 2 && entryKey(model, i).startsWith('prepacked')));
      const tensor = inner.map((i) => (i.no === 8 && i.wire === 2 ? concat(lengthDelimited(8, [encoder.encode(aliasOf.get(name)!)])) : model.subarray(i.start, i.end)));
      graphParts.push(...lengthDelimited(5, tensor));
    }
  }
  const out: Uint8Array[] = [];
  for (const f of top) out.push(...(f === graph ? lengthDelimited(7, graphParts) : [model.subarray(f.start, f.end)]));
  return { bytes: concat(out), aliased: [...aliasOf.keys()] };
}
