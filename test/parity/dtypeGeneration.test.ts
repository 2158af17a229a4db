// The arithmetic of the dtype part of `npm run bench -- generation` (bench/dtypeGeneration.ts) on figures given
// here, not measured: which ratio each of the dtype goals takes, which llama.cpp way counts as its best, that only
// loads from the saved graph count for the load goal, and that the RSS goal reads the q8 files' size.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { DtypeGenerationBench, dtypeBenchWays, goalLine, missingDtypeFiles, verdict, type DtypeWayName } from '../../bench/dtypeGeneration.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'lokal-dtype-bench-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(path.join(dir, 'onnx'));
for (const f of ['onnx/model.onnx', 'onnx/model_q4.onnx', 'model-q8_0.gguf', 'model-q4_0.gguf']) writeFileSync(path.join(dir, f), '');
writeFileSync(path.join(dir, 'onnx/model_quantized.onnx'), Buffer.alloc(2 ** 20)); // 1 MiB of "q8 weights"
writeFileSync(path.join(dir, 'onnx/model_quantized.onnx_data'), Buffer.alloc(2 ** 20)); // and 1 MiB of external data

const requests = [{ prompt: 'a' }, { prompt: 'b' }];

/** A bench whose ways "ran" with these seconds per round (base mode) and loads. */
function benchWith(seconds: Partial<Record<DtypeWayName, number[]>>, loads: { seconds: number[]; kinds: string[]; rss: number[] }) {
  const bench = new DtypeGenerationBench(dir, [{ mode: 'base', requests }], Object.keys(seconds) as DtypeWayName[]);
  for (const w of bench.figures) {
    const s = seconds[w.name]!;
    w.modes.base = { seconds: s, texts: s.map(() => ['x', 'y']) };
    if (w.name.startsWith('ours:q8')) Object.assign(w, { loadSeconds: loads.seconds, loadKinds: loads.kinds, peakRssMiB: loads.rss });
  }
  return bench;
}

describe('goals', () => {
  test('ratios are medians of per-round ratios; the best llama.cpp way is its fastest; only saved-graph loads count', () => {
    const bench = benchWith(
      {
        'ours:fp32:batched': [4, 4, 4],
        'ours:q8:batched': [2, 2.5, 1], // 2x, 1.6x, 4x → median 2x
        'ours:q8:one': [10, 10, 10],
        'llama:q8_0:one': [5, 5, 5], // 0.5x
        'llama:q8_0:batched': [3, 3, 3],
        'llama:q8_0:reuse': [6, 6, 6],
      },
      { seconds: [9, 1.5, 1.8], kinds: ['optimised', 'saved', 'saved'], rss: [700, 800] },
    );
    const goals = bench.goals();
    const by = (start: string) => goals.find((g) => g.goal.includes(start))!;
    expect(by('our fp32 batched').value).toBeCloseTo(2);
    expect(verdict(by('our fp32 batched'))).toBe('met');
    const best = by('best way on Q8_0');
    expect(best.goal).toContain('llama.cpp Q8_0 8 sequences');
    expect(best.value).toBeCloseTo(1.5); // 3 s ÷ 2 s, round by round: 1.5, 1.2, 3 → 1.5
    expect(verdict(best)).toBe('missed');
    expect(by('one at a time ÷').value).toBeCloseTo(0.5);
    expect(by('load from the saved').value).toBeCloseTo(1.65); // the 9 s optimising load is left out
    expect(verdict(by('load from the saved'))).toBe('met');
    const rss = by('peak RSS');
    expect(rss.goal).toContain('q8 weights 2 MiB');
    expect(rss.value).toBeCloseTo(800 / (2 + 0.8e9 / 2 ** 20));
    expect(verdict(rss)).toBe('missed');
    bench.close();
  });

  test('the summary rows still read the q8 weights after a temporary model folder is removed', () => {
    const temp = mkdtempSync(path.join(tmpdir(), 'lokal-dtype-gone-'));
    mkdirSync(path.join(temp, 'onnx'));
    writeFileSync(path.join(temp, 'onnx/model_quantized.onnx'), Buffer.alloc(2 ** 20));
    const bench = new DtypeGenerationBench(temp, [{ mode: 'base', requests }], ['ours:q8:one']);
    Object.assign(bench.figures[0]!, { modes: { base: { seconds: [1], texts: [['x', 'y']] } }, loadSeconds: [1], loadKinds: ['saved'], peakRssMiB: [500] });
    rmSync(temp, { recursive: true, force: true });
    const rss = bench.rows().find((r) => r.benchmark.includes('peak RSS'))!;
    expect(rss.benchmark).toContain('q8 weights 1 MiB');
    expect(rss.ratioLabel).toBe('met');
    bench.close();
  });

  test('a goal whose ways did not run says so instead of a verdict', () => {
    const bench = benchWith({ 'ours:q4:one': [1] }, { seconds: [], kinds: [], rss: [] });
    for (const g of bench.goals()) expect(verdict(g)).toBe('not run');
    expect(goalLine(bench.goals()[0]!)).toMatch(/not run \(a way it needs was left out\); goal ≥ 1.5 → not run$/);
    bench.close();
  });
});

describe('settings and files', () => {
  test('BENCH_GENERATION_DTYPE_WAYS picks ways, empty leaves the part out, an unknown name is one error', () => {
    expect(dtypeBenchWays({})).toHaveLength(13);
    expect(dtypeBenchWays({ BENCH_GENERATION_DTYPE_WAYS: 'ours:q8:one, llama:q8_0:one' })).toEqual(['ours:q8:one', 'llama:q8_0:one']);
    expect(dtypeBenchWays({ BENCH_GENERATION_DTYPE_WAYS: '' })).toEqual([]);
    expect(() => dtypeBenchWays({ BENCH_GENERATION_DTYPE_WAYS: 'ours:q5:one' })).toThrow(/unknown way "ours:q5:one"; known: ours:fp32:one/);
  });

  test('a folder without a way\'s file is named with the command that writes it', () => {
    const bare = mkdtempSync(path.join(tmpdir(), 'lokal-dtype-bare-'));
    try {
      expect(missingDtypeFiles(bare, ['ours:q8:one', 'ours:q8:batched', 'llama:q4_0:one'])).toEqual(['onnx/model_quantized.onnx', 'model-q4_0.gguf']);
      expect(() => new DtypeGenerationBench(bare, [], ['llama:q4_0:one'])).toThrow(/lacks model-q4_0\.gguf for the dtype part: npm run make:tiny-model -- .* --gguf-type f32,q8_0,q4_0/);
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });
});
