// The weights' read-ahead of a cold load (src/models/readAhead.ts): which ranges of a saved graph's data file it reads
// (the prepacked weights' external-data entries), how many bytes it reads, and answers unchanged with it on.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { concat, messageField, stringField } from '../../src/models/protobufWire.ts';
import { prepackedRanges, rangesToRead, readAhead } from '../../src/models/readAhead.ts';
import { TransformersProvider } from '../../src/models/transformers.ts';
import { writeTinyModel } from '../support/tinyModel.ts';

const root = mkdtempSync(path.join(tmpdir(), 'lokal-read-ahead-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** TensorProto.external_data entry (field 13: key 1, value 2). */
const entry = (key: string, value: string) => messageField(13, [stringField(1, key), stringField(2, value)]);
/** A ModelProto whose graph (7) has these initializers (5), each a TensorProto with a name (8) and entries. */
const model = (initializers: Uint8Array[][]) => concat([messageField(7, initializers.map((parts, i) => messageField(5, [stringField(8, `w${i}`), ...parts])))]);

describe('prepackedRanges', () => {
  test('reads the prepacked entries only, sorted and with overlaps merged', () => {
    const graph = model([
      [entry('location', 'model.onnx_data'), entry('offset', '8192'), entry('length', '64'), entry('prepacked_0', 'MatMul+15548864520086999880|4096;100;0')],
      [entry('location', 'model.onnx_data'), entry('prepacked_0', '/Gemm+10119139581930177632|0;50;0'), entry('prepacked_1', 'MatMul+7|4150;50;0')],
    ]);
    // by hand: 0..50, then 4096..4196 and 4150..4200 merged into 4096..4200; offset/length of the plain layout left out
    expect(prepackedRanges(graph, 'd')).toEqual([
      { file: 'd', start: 0, end: 50 },
      { file: 'd', start: 4096, end: 4200 },
    ]);
  });

  test('no prepacked entries, or no graph: nothing', () => {
    expect(prepackedRanges(model([[entry('location', 'x'), entry('offset', '0'), entry('length', '10')]]), 'd')).toEqual([]);
    expect(prepackedRanges(concat([stringField(1, 'not a graph')]), 'd')).toEqual([]);
  });
});

describe('rangesToRead and readAhead', () => {
  test('a graph without prepacked weights is read whole; readAhead reads exactly the ranges', async () => {
    const graph = path.join(root, 'plain.onnx');
    const data = path.join(root, 'plain.onnx_data');
    writeFileSync(graph, model([[entry('location', 'plain.onnx_data')]]));
    writeFileSync(data, Buffer.alloc(3 * 1024 + 7, 1));
    const ranges = rangesToRead(graph, [graph, data]);
    expect(ranges).toEqual([
      { file: graph, start: 0, end: statSync(graph).size },
      { file: data, start: 0, end: 3 * 1024 + 7 },
    ]);
    // 1 KiB chunks: several reads a range; a missing file is skipped, a range past the end stops at the end
    const reading = readAhead([...ranges, { file: path.join(root, 'missing'), start: 0, end: 10 }, { file: data, start: 3 * 1024, end: 10_000 }], 1024);
    expect(await reading.done).toBe(statSync(graph).size + 3 * 1024 + 7 + 7);
    await reading.stop();
  });

  test('a missing graph file gives nothing to read', () => {
    expect(rangesToRead(path.join(root, 'none.onnx'), [path.join(root, 'none.onnx')])).toEqual([]);
  });
});

describe('answers with the read-ahead', () => {
  test('the same greedy answers with it on and off, from the model file and from the saved graph', async () => {
    const dir = path.join(root, 'tiny');
    writeTinyModel(dir, { layers: 2, hidden: 64, heads: 4, kvHeads: 2, qkvBias: true, vocab: 400, seed: 13 });
    const answers = async (readAhead: boolean, saveOptimised: boolean) => {
      const provider = new TransformersProvider(dir, { env: {}, threads: 1, cacheDir: path.join(root, 'cache'), log: () => undefined, saveOptimised, readAhead });
      try {
        const out = await provider.generate([{ prompt: 'D: Chi ha dipinto la Gioconda?\nR:', maxNewTokens: 8 }, { messages: [{ role: 'user', content: 'Ano ang kabisera?' }], maxNewTokens: 8 }]);
        return { kind: provider.loadReport?.kind, texts: out.map((r) => r.text) };
      } finally {
        await provider.close();
      }
    };
    const plainOff = await answers(false, false);
    const plainOn = await answers(true, false);
    const first = await answers(false, true);
    const savedOn = await answers(true, true);
    const savedOff = await answers(false, true);
    expect([plainOff.kind, plainOn.kind, first.kind, savedOn.kind, savedOff.kind]).toEqual(['plain', 'plain', 'optimised', 'saved', 'saved']);
    expect(plainOff.texts.join('').length).toBeGreaterThan(0);
    for (const run of [plainOn, first, savedOn, savedOff]) expect(run.texts).toEqual(plainOff.texts);
  }, 120_000);
});
