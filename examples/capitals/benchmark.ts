// A benchmark of your own from a data file: ten questions in capitals.jsonl, one describe per topic, scored by exact
// match and token F1 after MultiLoKo's answer normalisation. Copy this folder into your project:
//   cp -r node_modules/vitest-lokal/examples/capitals .
//   LOKAL_MODEL=replay:capitals/answers.jsonl npx vitest run --config capitals/vitest.config.ts
import { defineDatasetBenchmark } from 'vitest-lokal';

export const capitals = defineDatasetBenchmark({
  name: 'capitals',
  // Relative to the project root (the folder `npx vitest` runs in).
  data: 'capitals/capitals.jsonl',
  prompt: 'Question: {question}\nAnswer:',
  targets: 'targets',
  metrics: ['em', 'f1'],
  groupBy: 'topic',
  // Shown before every question, answered with its first target.
  fewShot: [{ question: 'What is the capital of Germany?', targets: ['Berlin'] }],
});
