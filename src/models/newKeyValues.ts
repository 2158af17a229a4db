// Each pass's new keys and values as outputs of their own. A decoder returns its whole key/value cache every pass
// (present.N.key = Concat(past_key_values.N.key, this pass's keys) on the sequence axis), and onnxruntime-node 1.30
// copies every output it returns into a fresh buffer (the open microsoft/onnxruntime#32346): a decode step of 8 rows
// over 300 positions of a 6-layer model copies 16 MB that way, and the copies drive the garbage collector. The saved
// optimised graph therefore also outputs the Concat's second input, under NEW_KEY_VALUES_PREFIX + N.key/value, so a
// decode step can fetch the logits and those few positions and append them to its cache itself (the same values the
// Concat writes). The edit is all or nothing: every present output must be such a Concat, or the bytes come back as
// they were. Field numbers of onnx.proto as in logitPositions.ts.
import { graphNodes, isDefaultDomain, intAttribute, newNode } from './logitPositions.ts';
import { concat, fields, inner, lengthDelimited, messageField, stringField, textField, varintField, varintFields } from './protobufWire.ts';

/** Output `${NEW_KEY_VALUES_PREFIX}N.key` holds the positions the pass added to `present.N.key`. */
export const NEW_KEY_VALUES_PREFIX = 'vitest_lokal.new.';

/** The output holding a pass's new positions of `past_key_values.N.key` (or `.value`). */
export function newKeyValuesName(pastName: string): string {
  return pastName.replace(/^past_key_values\./u, NEW_KEY_VALUES_PREFIX);
}

/** The graph with the new keys and values of every cache as outputs (their names in `outputs`), or the same bytes. */
export function exposeNewKeyValues(model: Uint8Array): { bytes: Uint8Array; outputs: string[] } {
  const unchanged = { bytes: model, outputs: [] as string[] };
  const top = fields(model, 0, model.length);
  const graphs = top.filter((f) => f.no === 7 && f.wire === 2);
  if (graphs.length !== 1) return unchanged;
  const graph = graphs[0]!;
  const parts = inner(model, graph);
  const nodes = graphNodes(model, parts);
  const valueInfoName = (f: (typeof parts)[number]) => textField(model, inner(model, f), 1) ?? '';
  const inputNames = new Set(parts.filter((p) => p.no === 11 && p.wire === 2).map(valueInfoName));
  const graphOutputs = parts.filter((p) => p.no === 12 && p.wire === 2);
  // initializers' names (TensorProto.name is field 8) are taken too
  const initializers = parts.filter((p) => p.no === 5 && p.wire === 2).map((p) => textField(model, inner(model, p), 8) ?? '');
  const taken = new Set<string>([...inputNames, ...graphOutputs.map(valueInfoName), ...initializers]);
  const producer = new Map<string, (typeof nodes)[number]>();
  for (const n of nodes) {
    const name = textField(model, n.parts, 3);
    if (name !== undefined) taken.add(name);
    for (const o of n.outputs) (producer.set(o, n), taken.add(o));
    for (const i of n.inputs) taken.add(i);
  }
  const added = new Map<(typeof parts)[number], Uint8Array[]>();
  const infos: Uint8Array[] = [];
  const outputs: string[] = [];
  for (const output of graphOutputs) {
    const present = /^present\.(.+)$/u.exec(valueInfoName(output));
    if (!present) continue;
    const concatNode = producer.get(present[0]);
    const past = `past_key_values.${present[1]!}`;
    if (!concatNode || !isDefaultDomain(concatNode.domain) || concatNode.op !== 'Concat' || concatNode.inputs.length !== 2) return unchanged;
    if (concatNode.inputs[0] !== past || !inputNames.has(past) || intAttribute(model, concatNode, 'axis') !== 2) return unchanged;
    const name = `${NEW_KEY_VALUES_PREFIX}${present[1]!}`;
    if (taken.has(name) || taken.has(`${name}.identity`)) return unchanged;
    // the present's element type; no shape (its sequence length is the pass's)
    const typeField = inner(model, output).find((p) => p.no === 2 && p.wire === 2);
    if (!typeField) return unchanged;
    const tensorType = inner(model, typeField).find((p) => p.no === 1 && p.wire === 2);
    if (!tensorType) return unchanged;
    const elemType = varintFields(model, inner(model, tensorType), 1)[0] ?? 1;
    added.set(concatNode.field, newNode('Identity', [concatNode.inputs[1]!], name, `${name}.identity`));
    infos.push(...lengthDelimited(12, [stringField(1, name), messageField(2, [messageField(1, [varintField(1, elemType)])])]));
    outputs.push(name);
  }
  if (outputs.length === 0) return unchanged;
  const lastOutput = graphOutputs.at(-1)!;
  const out: Uint8Array[] = [];
  for (const f of parts) {
    out.push(model.subarray(f.start, f.end));
    const identity = added.get(f);
    if (identity) out.push(...identity);
    if (f === lastOutput) out.push(...infos);
  }
  const edited: Uint8Array[] = [];
  for (const f of top) edited.push(...(f === graph ? lengthDelimited(7, out) : [model.subarray(f.start, f.end)]));
  return { bytes: concat(edited), outputs };
}

interface FetchingSession {
  outputNames: readonly string[];
  run(feeds: Record<string, unknown>, ...rest: never[]): Promise<Record<string, unknown>>;
}

/**
 * For a session of an edited graph: a run that names no outputs (transformers.js's own) fetches every output but the
 * new keys and values, so onnxruntime-node does not copy those out for nothing; a run naming its outputs is unchanged.
 */
export function adoptNewKeyValues(session: FetchingSession): boolean {
  const visible = session.outputNames.filter((n) => !n.startsWith(NEW_KEY_VALUES_PREFIX));
  if (visible.length === session.outputNames.length) return false;
  const run = session.run.bind(session);
  session.run = (feeds, ...rest) => {
    // onnxruntime-common's run(feeds, fetches?, options?): an object without output names in the second place is options
    const second = rest[0] as unknown;
    const namesOutputs = Array.isArray(second) || (typeof second === 'object' && second !== null && Object.keys(second).some((k) => session.outputNames.includes(k)));
    if (namesOutputs) return run(feeds, ...rest);
    return second === undefined ? run(feeds, visible as never, ...rest.slice(1)) : run(feeds, visible as never, second as never);
  };
  return true;
}
