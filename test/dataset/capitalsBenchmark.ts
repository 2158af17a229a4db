// A dataset benchmark as a user writes one: ten questions in a JSONL file, grouped by topic, EM and F1.
import { defineDatasetBenchmark } from '../../src/index.ts';

export const capitals = defineDatasetBenchmark({
  name: 'capitals',
  data: 'test/dataset/capitals.jsonl',
  prompt: 'Question: {question}\nAnswer:',
  targets: 'targets',
  metrics: ['em', 'f1'],
  groupBy: 'topic',
});
