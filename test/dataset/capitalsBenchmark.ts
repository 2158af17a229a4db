// A dataset benchmark as a user writes one: ten questions in a JSONL file, grouped by topic, EM and F1.
// Its module, not src/index.ts: test/dataset/vitest.config.ts bundles what this imports, and Vitest hashes every file of
// that bundle into each module's cache key.
import { defineDatasetBenchmark } from '../../src/benchmarks/dataset/definition.ts';

export const capitals = defineDatasetBenchmark({
  name: 'capitals',
  data: 'test/dataset/capitals.jsonl',
  prompt: 'Question: {question}\nAnswer:',
  targets: 'targets',
  metrics: ['em', 'f1'],
  groupBy: 'topic',
});
