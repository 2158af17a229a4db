// Kalahi with several models listed: they run the same tasks, so a replay file anywhere in the list (it has no
// log-probabilities) makes the run generation-only for all, and asking for MC with one in the list is refused.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { prepareKalahi } from '../../src/benchmarks/kalahi/run/plan.ts';
import type { KalahiSettings } from '../../src/benchmarks/kalahi/run/config.ts';
import { SHARED_DEFAULTS } from '../../src/core/settings.ts';
import { REPO_ROOT } from '../vitest/helpers.ts';
import { titleUnless } from '../support/sharedData.ts';

const KALAHI = path.resolve(REPO_ROOT, '../shared/data/kalahi');
const settings = (model: string, tasks?: KalahiSettings['tasks']) =>
  ({ ...SHARED_DEFAULTS, data: KALAHI, model, limit: 1, bertscoreModel: 'off', bleurtModel: 'off', ...(tasks ? { tasks } : {}) }) as KalahiSettings;

describe.skipIf(!existsSync(path.join(KALAHI, 'filipino.csv')))(titleUnless('Kalahi tasks with several models', path.join(KALAHI, 'filipino.csv')), () => {
  test('a replay file second in the list: generation only, for every model', async () => {
    const plan = await prepareKalahi(settings('openai:toy,replay:/tmp/replies,1.jsonl'), []);
    expect(plan.groups.map((g) => g.info.tasks)).toEqual(plan.groups.map(() => ['generation']));
    await plan.close?.();
  });

  test('no replay file in the list: both tasks, as with one model', async () => {
    const plan = await prepareKalahi(settings('openai:toy,openai:other'), []);
    expect(plan.groups[0]!.info.tasks).toEqual(['mc', 'generation']);
    await plan.close?.();
  });

  test('MC asked for with a replay file in the list is refused', async () => {
    await expect(prepareKalahi(settings('openai:toy,replay:r.jsonl', ['mc']), [])).rejects.toThrow(/Kalahi multiple choice needs log-probabilities/u);
  });
});
