// The checks before an evals run asks any model (src/run/startRun.ts), on the toy benchmark (test/toy): a valid setup
// gives its shared settings; a gate that does not parse, an output that is a file, or a results file that would
// replace the predictions file is refused before anything runs.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { BenchmarkDefinition } from '../../src/benchmarks/benchmark.ts';
import { ThresholdError } from '../../src/core/gates.ts';
import { LokalConfigError } from '../../src/core/settings.ts';
import { checkRunStart } from '../../src/run/startRun.ts';
import { capitals } from '../toy/toyBenchmark.ts';

const root = mkdtempSync(path.join(os.tmpdir(), 'lokal-start-run-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
mkdirSync(path.join(root, 'answers'));
writeFileSync(path.join(root, 'answers', 'toy.jsonl'), '');
writeFileSync(path.join(root, 'a-file'), 'not a folder');

const registry = [capitals as unknown as BenchmarkDefinition];
const check = (settings: Record<string, unknown>) => () => checkRunStart(registry, settings, root, {});

describe('checkRunStart', () => {
  test('a valid setup: the shared settings, the output and the model as given', () => {
    const shared = check({ output: 'results', model: 'replay:answers/toy.jsonl', thresholds: 'toy.accuracy>=0.5' })();
    expect([shared.output, shared.model, shared.thresholds]).toEqual(['results', 'replay:answers/toy.jsonl', 'toy.accuracy>=0.5']);
  });

  test('a gate without a comparison is refused (ThresholdError); the same gate with one passes', () => {
    expect(check({ model: 'replay:answers/toy.jsonl', thresholds: 'toy.accuracy>=0.5,toy.accuracy' })).toThrow(ThresholdError);
    expect(check({ model: 'replay:answers/toy.jsonl', thresholds: 'toy.accuracy>=0.5,toy.accuracy<=1' })).not.toThrow();
  });

  test('an output that is a file, or results over the predictions file, is refused (LokalConfigError)', () => {
    expect(check({ output: 'a-file', model: 'replay:answers/toy.jsonl' })).toThrow(LokalConfigError);
    // `answers/toy.json` is not the predictions file; `answers` as output with predictions named toy.json would be.
    expect(check({ output: 'answers', model: 'replay:answers/toy.jsonl' })).not.toThrow();
    writeFileSync(path.join(root, 'answers', 'toy.json'), '');
    expect(check({ output: 'answers', model: 'replay:answers/toy.json' })).toThrow(/LOKAL_OUTPUT/u);
  });
});
