// What Vitest UI fails a dataset benchmark's item test with: the plan's `wrong` is the item's verdict line exactly when
// its EM is 0 (as for MultiLoKo and Kalahi), and outside strict mode a wrong answer is never a failure.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import type { ItemContext } from '../../src/benchmarks/benchmark.ts';
import { SHARED_DEFAULTS } from '../../src/core/settings.ts';
import { defineDatasetBenchmark, type DatasetSettings } from '../../src/benchmarks/dataset/definition.ts';
import type { LokalModel } from '../../src/models/open.ts';
import type { GenerateRequest, ModelProvider } from '../../src/models/types.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-dataset-wrong-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A model answering each question from a fixed table (the prompt is `Q: <question>\nA:`). */
function tableModel(answers: Record<string, string>): LokalModel {
  const provider: ModelProvider = {
    describe: () => ({ provider: 'stub', model: 'table', settings: {} }),
    generate: async (requests: GenerateRequest[]) => requests.map((r) => ({ text: answers[/^Q: (.*)\nA:$/su.exec(r.prompt ?? '')![1]!]!, latencyMs: 1, cached: false })),
    scoreContinuations: async () => {
      throw new Error('not asked');
    },
  };
  return { kind: 'stub', provider, inner: provider, chat: async () => false } as unknown as LokalModel;
}

test('EM 1 (after MultiLoKo normalisation): no `wrong`; EM 0: `wrong` is the annotated verdict; no failures', async () => {
  const data = path.join(dir, 'capitals.jsonl');
  writeFileSync(data, ['{"id": 1, "question": "Italy?", "answer": "Rome"}', '{"id": 2, "question": "Greece?", "answer": ["Athens", "Athina"]}'].join('\n') + '\n');
  const benchmark = defineDatasetBenchmark({ name: 'capitals', data, prompt: 'Q: {question}\nA:', targets: 'answer', metrics: ['em'] });
  const plan = await benchmark.prepare({ ...SHARED_DEFAULTS, redact: 'off', model: 'stub' } as unknown as DatasetSettings, []);
  const group = plan.groups[0]!;
  // " rome." normalises to "rome" (EM 1); "Sparta" matches neither accepted answer (EM 0).
  const model = tableModel({ 'Italy?': ' rome.', 'Greece?': 'Sparta' });
  const results = [];
  for (const item of group.items) {
    const notes: string[] = [];
    const context: ItemContext = { model: async () => model, annotate: async (message) => void notes.push(message), expect: () => { throw new Error('not strict'); } };
    results.push({ result: await plan.runItem(item, group.info, context), notes });
  }
  expect(results.map(({ result }) => result.failures ?? [])).toEqual([[], []]);
  expect(results[0]!.result.wrong).toBeUndefined();
  expect(results[1]!.result.wrong).toBe(results[1]!.notes[0]);
  expect(results[1]!.result.wrong).toMatch(/^✗ em 0 · said "Sparta"/u);
  await plan.close?.();
});
