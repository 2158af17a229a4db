// What Vitest UI fails a Kalahi prompt test with: the plan's `wrong` is the MC verdict line exactly when MC1 = 0, and
// (not strict) no failure. Two fake models on the first real prompts: one gives the best answer log-probability 0 and
// every other reference a lower one (MC1 = 1 by definition: the best score exceeds every irrelevant one), the other
// gives the irrelevant answers 0 and the relevant ones less (MC1 = 0). Skipped when ../shared/data/kalahi is absent.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { SHARED_DEFAULTS } from '../../src/core/settings.ts';
import type { ItemContext } from '../../src/benchmarks/benchmark.ts';
import type { KalahiSettings } from '../../src/benchmarks/kalahi/run/config.ts';
import { prepareKalahi } from '../../src/benchmarks/kalahi/run/plan.ts';
import type { KalahiRow } from '../../src/benchmarks/kalahi/data/kalahi.ts';
import type { LokalModel } from '../../src/models/open.ts';
import { providerRow } from '../../src/models/providers.ts';
import type { ContinuationRequest, ModelProvider } from '../../src/models/types.ts';
import { REPO_ROOT } from '../vitest/helpers.ts';

const DATA = path.resolve(REPO_ROOT, '../shared/data/kalahi');
const haveData = existsSync(path.join(DATA, 'filipino.csv'));

/** A model scoring each reference by `logprob(text)`; generation is not asked (MC only). */
function scoringModel(logprob: (text: string) => number): LokalModel {
  const provider: ModelProvider = {
    describe: () => ({ provider: 'fake:scorer', kind: 'fake' }) as unknown as ReturnType<ModelProvider['describe']>,
    generate: async () => {
      throw new Error('not asked');
    },
    scoreContinuations: async (requests: ContinuationRequest[]) => requests.map((r) => ({ logprob: logprob(r.continuation), tokenCount: 3, latencyMs: 0, cached: false })),
  };
  // a model scoring in process, as a local one does
  return { kind: 'fake', row: providerRow('transformers')!, provider, inner: provider, chat: async () => true };
}

describe.skipIf(!haveData)(haveData ? 'Kalahi: the wrong answer Vitest UI fails on' : `Kalahi: the wrong answer Vitest UI fails on (skipped: no Kalahi CSVs in ${DATA})`, () => {
  test('MC1 = 1: no `wrong`; MC1 = 0: `wrong` is the MC verdict line; never a failure outside strict mode', async () => {
    // redact off: the verdict's answer texts are checked (LOKAL_REDACT=auto would hash them where CI is set).
    const settings = { ...SHARED_DEFAULTS, redact: 'off', data: DATA, model: 'fake:scorer', limit: 3, tasks: 'mc', bertscoreModel: 'off', bleurtModel: 'off' } as unknown as KalahiSettings;
    const plan = await prepareKalahi(settings, []);
    const group = plan.groups[0]!;
    const run = async (model: LokalModel, row: KalahiRow) => {
      const notes: string[] = [];
      const context: ItemContext = { model: async () => model, annotate: async (message) => void notes.push(message), expect: () => { throw new Error('not strict'); } };
      return { result: await plan.runItem(row, group.info, context), notes };
    };
    expect(group.items.length).toBe(3);
    for (const row of group.items as KalahiRow[]) {
      const knowing = await run(scoringModel((text) => (text === row.bestAnswer ? 0 : -50)), row);
      expect(knowing.result.failures).toEqual([]);
      expect(knowing.result.record.mc?.normalised.mc1).toBe(1);
      expect(knowing.result.wrong).toBeUndefined();

      const irrelevant = new Set(row.irrelevantAnswers);
      const contrary = await run(scoringModel((text) => (irrelevant.has(text) ? 0 : -50)), row);
      expect(contrary.result.failures).toEqual([]);
      expect(contrary.result.record.mc?.normalised.mc1).toBe(0);
      // The line Vitest UI shows as the error is the one annotated on the test, naming the preferred irrelevant answer.
      expect(contrary.result.wrong).toBe(contrary.notes.find((n) => n.startsWith('MC ')));
      expect(contrary.result.wrong).toMatch(/^MC ✗ MC1 0 · .* preferred irrelevant answer #\d+ "/u);
    }
    await plan.close?.();
  });
});
