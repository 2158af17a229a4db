// Sequential read-ahead of a model's weight files into the page cache on a worker thread, while the main thread builds
// the tokenizer and onnxruntime creates the session (which blocks it): a cold load then pages the mapped weights in
// from the page cache instead of in small page faults from disk. Only the page cache changes, never a byte of the model.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { fields, text, textField } from './protobufWire.ts';

/** Bytes per read: large sequential reads let the kernel read ahead in big requests. */
const READ_AHEAD_CHUNK = 8 * 1024 * 1024;

/** A byte range of a file to read (end exclusive). */
export interface FileRange {
  file: string;
  start: number;
  end: number;
}

/**
 * The ranges of a saved optimised graph's data file holding prepacked weights (TensorProto.external_data entries
 * `prepacked_<n>` = `<kernel key>|<offset>;<length>;…`, as onnxruntime writes them): what its session maps and reads.
 * The data file also holds the weights in their plain layout, which prepacked kernels never read (half the file).
 * Sorted and merged; empty when the graph has no prepacked weights.
 */
export function prepackedRanges(graph: Uint8Array, dataFile: string): FileRange[] {
  const spans: Array<[number, number]> = [];
  const model = fields(graph, 0, graph.length).find((f) => f.no === 7 && f.wire === 2);
  if (!model) return [];
  // ModelProto.graph 7 → GraphProto.initializer 5 → TensorProto.external_data 13 → StringStringEntryProto key 1, value 2
  for (const init of fields(graph, model.valueStart, model.end)) {
    if (init.no !== 5 || init.wire !== 2) continue;
    for (const entry of fields(graph, init.valueStart, init.end)) {
      if (entry.no !== 13 || entry.wire !== 2) continue;
      const parts = fields(graph, entry.valueStart, entry.end);
      if (!textField(graph, parts, 1)?.startsWith('prepacked_')) continue;
      const value = parts.find((f) => f.no === 2 && f.wire === 2);
      const where = value ? /\|(\d+);(\d+);[^|]*$/u.exec(text(graph, value)) : null;
      if (where) spans.push([Number(where[1]), Number(where[1]) + Number(where[2])]);
    }
  }
  spans.sort((a, b) => a[0] - b[0]);
  const merged: FileRange[] = [];
  for (const [start, end] of spans) {
    const last = merged.at(-1);
    if (last && start <= last.end) last.end = Math.max(last.end, end);
    else merged.push({ file: dataFile, start, end });
  }
  return merged;
}

/**
 * What a load maps from `files` (a graph and its data files): the prepacked ranges of a saved optimised graph, else
 * every file whole. Files that cannot be read are left out (onnxruntime reports them when it opens them).
 */
export function rangesToRead(graphFile: string, files: readonly string[]): FileRange[] {
  try {
    const data = files.filter((file) => file !== graphFile);
    if (data.length === 1) {
      const ranges = prepackedRanges(readFileSync(graphFile), data[0]!);
      if (ranges.length > 0) return ranges;
    }
    return files.map((file) => ({ file: path.resolve(file), start: 0, end: statSync(file).size }));
  } catch {
    return [];
  }
}

// The worker reads each range front to back into one reused buffer and posts the bytes read; the page cache keeps them.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { openSync, readSync, closeSync } = require('node:fs');
const buffer = Buffer.allocUnsafe(workerData.chunk);
let bytes = 0;
for (const { file, start, end } of workerData.ranges) {
  let fd;
  try { fd = openSync(file, 'r'); } catch { continue; }
  try {
    for (let at = start, n; at < end && (n = readSync(fd, buffer, 0, Math.min(buffer.length, end - at), at)) > 0; at += n) bytes += n;
  } catch {
    // an unreadable file: onnxruntime reports it when it opens it
  } finally {
    closeSync(fd);
  }
}
parentPort.postMessage(bytes);
`;

/** A read-ahead in progress: `done` gives the bytes read (0 when stopped first); `stop` ends it early. */
interface ReadAhead {
  done: Promise<number>;
  stop: () => Promise<void>;
}

/** Starts reading `ranges` in order on a worker thread; it never keeps the process alive and never rejects. */
export function readAhead(ranges: readonly FileRange[], chunk = READ_AHEAD_CHUNK): ReadAhead {
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { ranges: ranges.map((r) => ({ ...r })), chunk } });
  worker.unref();
  const done = new Promise<number>((resolve) => {
    worker.once('message', (bytes: number) => resolve(bytes));
    worker.once('error', () => resolve(0));
    worker.once('exit', () => resolve(0));
  });
  return {
    done,
    stop: async () => {
      await worker.terminate();
    },
  };
}
