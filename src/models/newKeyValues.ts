// Each pass's new keys and values as outputs of their own. A decoder returns its whole key/value cache every pass
// (present.N.key = Concat(past_key_values.N.key, this pass's keys) on the sequence axis), and onnxruntime-node 1.30
// copies every output it returns into a fresh buffer (the open microsoft/onnxruntime#32346): a decode step of 8 rows
// over 300 positions of a 6-layer model copies 16 MB that way, and the copies drive the garbage collector. The saved
// optimised graph therefore also outputs the Concat's second input, under NEW_KEY_VALUES_PREFIX + N.key/value, so a
// decode step can fetch the logits and those few positions and append them to its cache itself (the same values the
// Concat writes). The edit is all or nothing: every present output must be such a Concat, or the bytes come back as
// they were. The graph is read and written as graphEdit.ts does.
import { intAttribute, isDefaultDomain, newNode, outputElementType, outputInfo, readGraph, withGraphAdditions } from './graphEdit.ts';
import type { Field } from './protobufWire.ts';

/** Outputs the saved graph adds for the batched engine alone (this file's and nextToken.ts's). */
export const ENGINE_OUTPUT_PREFIX = 'vitest_lokal.';

/** Output `${NEW_KEY_VALUES_PREFIX}N.key` holds the positions the pass added to `present.N.key`. */
export const NEW_KEY_VALUES_PREFIX = `${ENGINE_OUTPUT_PREFIX}new.`;

/** The output holding a pass's new positions of `past_key_values.N.key` (or `.value`). */
export function newKeyValuesName(pastName: string): string {
  return pastName.replace(/^past_key_values\./u, NEW_KEY_VALUES_PREFIX);
}

/** The graph with the new keys and values of every cache as outputs (their names in `outputs`), or the same bytes. */
export function exposeNewKeyValues(model: Uint8Array): { bytes: Uint8Array; outputs: string[] } {
  const unchanged = { bytes: model, outputs: [] as string[] };
  const read = readGraph(model);
  if (!read) return unchanged;
  const added = new Map<Field, Uint8Array[]>();
  const infos: Uint8Array[] = [];
  const outputs: string[] = [];
  for (const output of read.outputs) {
    const present = /^present\.(.+)$/u.exec(read.valueInfoName(output));
    if (!present) continue;
    const concatNode = read.producer.get(present[0]);
    const past = `past_key_values.${present[1]!}`;
    if (!concatNode || !isDefaultDomain(concatNode.domain) || concatNode.op !== 'Concat' || concatNode.inputs.length !== 2) return unchanged;
    if (concatNode.inputs[0] !== past || !read.inputNames.has(past) || intAttribute(model, concatNode, 'axis') !== 2) return unchanged;
    const name = newKeyValuesName(past);
    if (read.taken.has(name) || read.taken.has(`${name}.identity`)) return unchanged;
    // the present's element type; no shape (its sequence length is the pass's)
    const elemType = outputElementType(model, output);
    if (elemType === undefined) return unchanged;
    added.set(concatNode.field, newNode('Identity', [concatNode.inputs[1]!], name, `${name}.identity`));
    infos.push(...outputInfo(name, elemType));
    outputs.push(name);
  }
  if (outputs.length === 0) return unchanged;
  return { bytes: withGraphAdditions(model, read, added, infos), outputs };
}

interface FetchingSession {
  outputNames: readonly string[];
  run(feeds: Record<string, unknown>, ...rest: never[]): Promise<Record<string, unknown>>;
}

/**
 * For a session of an edited graph: a run that names no outputs (transformers.js's own) fetches every output but the
 * engine's (new keys and values, next token), so onnxruntime-node does not copy those out for nothing; a run naming
 * its outputs is unchanged.
 */
export function hideEngineOutputs(session: FetchingSession): boolean {
  const visible = session.outputNames.filter((n) => !n.startsWith(ENGINE_OUTPUT_PREFIX));
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
