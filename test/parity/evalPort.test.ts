// Differential test: the TypeScript metrics against bench/eval_port.py, a second implementation written in Python
// from docs/metrics.md that runs on CPython's own re, str.lower, math and difflib (the reference's building blocks).
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { randomPairs } from '../../bench/randomPairs.ts';
import { scoreExample } from '../../src/metrics/index.ts';

const port = fileURLToPath(new URL('../../bench/eval_port.py', import.meta.url));
// A Python with sacrebleu and Levenshtein installed makes the port use the reference libraries themselves.
const python = process.env.LOKAL_REFERENCE_PYTHON ?? 'python3';
const hasPython = spawnSync(python, ['--version']).status === 0;

interface PortItem {
  prediction: string;
  targets: string[];
  em: number;
  f1: number;
  bleu: number;
  chrf: number;
  edit_distance: number;
  edit_similarity: number;
}

describe.skipIf(!hasPython)(`metrics agree with the Python port of eval.py (${python})`, () => {
  const pairs = randomPairs(2000, 7);
  const input = pairs.map((p) => JSON.stringify(p)).join('\n');
  // In beforeAll: a skipped describe's body still runs at collection, where python3 may be missing.
  let expected: PortItem[] = [];
  beforeAll(() => {
    expected = (JSON.parse(execFileSync(python, [port], { input, maxBuffer: 1 << 28 }).toString()) as { items: PortItem[] }).items;
  });

  test('normalised strings and every metric, item by item', () => {
    let bleuMaxDiff = 0;
    const mismatches: string[] = [];
    pairs.forEach((pair, i) => {
      const got = scoreExample(pair.prediction, pair.targets);
      const want = expected[i]!;
      const where = `pair ${i} ${JSON.stringify(pair)}`;
      if (got.prediction !== want.prediction) mismatches.push(`${where}: prediction ${JSON.stringify(got.prediction)} != ${JSON.stringify(want.prediction)}`);
      if (JSON.stringify(got.targets) !== JSON.stringify(want.targets)) mismatches.push(`${where}: targets differ`);
      for (const metric of ['em', 'f1', 'chrf', 'edit_distance', 'edit_similarity'] as const) {
        if (got.scores[metric] !== want[metric]) mismatches.push(`${where}: ${metric} ${got.scores[metric]} != ${want[metric]}`);
      }
      bleuMaxDiff = Math.max(bleuMaxDiff, Math.abs(got.scores.bleu - want.bleu));
    });
    expect(mismatches.slice(0, 5)).toEqual([]);
    // glibc's log/exp and V8's differ in the last bit now and then (docs/metrics.md#exactness): 1e-12 on the 0–100 scale.
    expect(bleuMaxDiff).toBeLessThanOrEqual(1e-12);
  });

  test('the pairs exercise every branch that matters', () => {
    const count = (f: (x: PortItem) => boolean) => expected.filter(f).length;
    expect(count((x) => x.em === 1)).toBeGreaterThan(100);
    expect(count((x) => x.em === 0 && x.chrf > 0)).toBeGreaterThan(100);
    expect(count((x) => x.prediction === '')).toBeGreaterThan(10);
    expect(count((x) => x.targets.some((t) => Array.from(t).length >= 200))).toBeGreaterThan(5);
    expect(count((x) => x.bleu > 0 && x.bleu < 100)).toBeGreaterThan(100);
  });
});
