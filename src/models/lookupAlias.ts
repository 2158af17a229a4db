// A saved optimised graph whose embedding matrix is both looked up (Gather) and multiplied by a prepacking kernel (a
// tied output projection: Gemm/MatMul) gets a second initializer naming the same external bytes for the Gather.
// onnxruntime reads every page of an initializer it prepacks that another kernel also uses (about 520 MiB of a
// Qwen2.5-0.5B model, resident for the whole run); under its own name the lookup only touches the rows it reads.
//
// The graph is read and written as graphEdit.ts does (the field numbers of onnx.proto listed there; also
// StringStringEntryProto.key 1).
import { type GraphNode, isDefaultDomain, readGraph, renamed, withGraphParts } from './graphEdit.ts';
import { fields, lengthDelimited, stringField, text, type Field } from './protobufWire.ts';

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
  const read = readGraph(model);
  if (!read) return { bytes: model, aliased: [] };
  // every name in use (read.taken) is one an alias must not take
  const taken = read.taken;
  const prepacked = new Map<string, Field>();
  for (const f of read.initializers) {
    const inner = fields(model, f.valueStart, f.end);
    const name = inner.find((i) => i.no === 8 && i.wire === 2);
    if (name && inner.some((i) => i.no === 13 && i.wire === 2 && entryKey(model, i).startsWith('prepacked'))) prepacked.set(text(model, name), f);
  }
  const gathers = new Map<Field, { name: string; node: GraphNode }>();
  for (const node of read.nodes) {
    const input = node.inputs[0];
    if (node.op === 'Gather' && isDefaultDomain(node.domain) && input !== undefined && prepacked.has(input)) gathers.set(node.field, { name: input, node });
  }
  if (gathers.size === 0) return { bytes: model, aliased: [] };
  const aliasOf = new Map<string, string>();
  for (const { name } of gathers.values()) {
    if (aliasOf.has(name)) continue;
    let alias = `${name}.lookup`;
    for (let n = 2; taken.has(alias); n++) alias = `${name}.lookup${n}`;
    taken.add(alias);
    aliasOf.set(name, alias);
  }
  const graphParts: Uint8Array[] = [];
  for (const f of read.parts) {
    const gathered = gathers.get(f);
    if (gathered !== undefined) {
      // the Gather node with its data input (its first input) renamed
      graphParts.push(...renamed(model, gathered.node, new Map([[0, aliasOf.get(gathered.name)!]])));
      continue;
    }
    graphParts.push(model.subarray(f.start, f.end));
    const name = [...aliasOf.keys()].find((n) => prepacked.get(n) === f);
    if (name !== undefined) {
      // the alias right after its initializer: the same fields, its own name, no prepacked layouts
      const inner = fields(model, f.valueStart, f.end).filter((i) => !(i.no === 13 && i.wire === 2 && entryKey(model, i).startsWith('prepacked')));
      const tensor = inner.map((i) => (i.no === 8 && i.wire === 2 ? stringField(8, aliasOf.get(name)!) : model.subarray(i.start, i.end)));
      graphParts.push(...lengthDelimited(5, tensor));
    }
  }
  return { bytes: withGraphParts(model, read, graphParts), aliased: [...aliasOf.keys()] };
}
