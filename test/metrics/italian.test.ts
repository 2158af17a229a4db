// The real Italian dev set (../shared/data, decrypted in memory with the openssl and tar CLIs, never written to disk):
// scoring each item's first target against its targets must give the values the definitions imply for a perfect answer.
import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { assembleResults } from '../../src/benchmarks/multiloko/index.ts';
import { codePointsOf, normalizeAnswer, pythonSplit, scoreExample, type ExampleRecord } from '../../src/metrics/index.ts';
import { hasItalianArchive, italianArchivePath } from './paths.ts';

const hasTools = spawnSync('openssl', ['version']).status === 0 && spawnSync('tar', ['--version']).status === 0;

function readItalianDev(): Array<{ id: string | number; targets: string[] }> {
  const archive = execFileSync('openssl', ['enc', '-aes-256-cbc', '-pbkdf2', '-iter', '100000', '-d', '-pass', 'pass:multiloko', '-in', italianArchivePath], { maxBuffer: 1 << 28 });
  const jsonl = execFileSync('tar', ['-xJO', 'benchmark_data/italian/dev.jsonl'], { input: archive, maxBuffer: 1 << 28 }).toString('utf8');
  return jsonl.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as { id: string | number; targets: string[] });
}

describe.skipIf(!hasItalianArchive || !hasTools)(`real Italian dev set (skipped without ${italianArchivePath}, openssl or tar)`, () => {
  const items = hasItalianArchive && hasTools ? readItalianDev() : [];

  test('250 items, each with a non-empty list of targets', () => {
    expect(items).toHaveLength(250);
    for (const item of items) expect(Array.isArray(item.targets) && item.targets.length > 0).toBe(true);
  });

  test('the first target as the prediction scores as a perfect answer on every item', () => {
    const examples: Array<{ id: string | number; record: ExampleRecord }> = [];
    for (const item of items) {
      const { scores, prediction, targets } = scoreExample(item.targets[0]!, item.targets);
      const where = `item ${String(item.id)} (${JSON.stringify(item.targets[0])})`;
      expect(prediction, where).toBe(normalizeAnswer(item.targets[0]!));
      expect(targets[0], where).toBe(prediction);
      // equals target 0: EM 1, distances 0
      expect(scores.em, where).toBe(1.0);
      expect(scores.edit_distance, where).toBe(0);
      expect(scores.edit_distance_first, where).toBe(0);
      // b shorter than 200 code points, so no popular elements: one block of the whole string, ratio 2n/2n = 1
      expect(codePointsOf(prediction).length, where).toBeLessThan(200);
      expect(scores.edit_similarity, where).toBe(1.0);
      if (pythonSplit(prediction).length > 0) {
        // identical non-empty token lists: F1 = 2·1·1/(1+1) = 1; every effective chrF order has P = R = 1 → 100;
        // BLEU: every p_n = 100, bp 1 → exp(N·log 100 / N) = 100 up to libm rounding
        expect(scores.f1, where).toBe(1.0);
        expect(scores.chrf, where).toBe(100.0);
        expect(Math.abs(scores.bleu - 100), where).toBeLessThanOrEqual(1e-9);
      } else {
        // a target that normalises to '' (empty vs empty): F1 int 0, chrF 0, BLEU 0
        expect([scores.f1, scores.chrf, scores.bleu], where).toEqual([0, 0, 0]);
      }
      examples.push({ id: item.id, record: { ...scores, targets, prediction } });
    }
    const results = assembleResults([{ key: 'italian', examples }]);
    expect(results.italian!.em).toBe(1.0); // 250 × 1.0 / 250
    expect(results.group_metrics.average_em).toBe(1.0);
    expect(results.group_metrics.gap_em).toBe(0);
  });
});
