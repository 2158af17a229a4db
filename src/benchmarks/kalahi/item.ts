// Kalahi as Vitest tests: one describe per variant, one per category inside it, one concurrent test per prompt (MC
// by log-probabilities and/or a greedy reply scored by the generation metrics), and a gate test per variant.
import { afterAll, describe, type RunnerTestCase, type TestContext } from 'vitest';
import { annotateWithoutLocation } from '../../vitest/annotate.ts';
import { skipIfDataAbsent } from '../../vitest/dataAbsent.ts';
import { loadKalahi, type KalahiRow } from './data.ts';
import { parseProviderSpec } from '../../models/index.ts';
import { KALAHI_BUDGET_DESCRIPTIONS, KALAHI_TOKEN_BUDGET, resolveKalahiConfig, type KalahiConfig, type KalahiSuiteOptions } from './config.ts';
import { aggregateKalahi, descendantTests, viewOfRunnerTask } from './aggregate.ts';
import { measureKalahiGeneration } from './generation.ts';
import { closeLearnedScorers, learnedScorers } from './learned.ts';
import { measureKalahiMC } from './mcTask.ts';
import type { KalahiGateRecord, KalahiPromptRecord, KalahiRunInfo } from './records.ts';
import { KALAHI_GATE_TEST_NAME, kalahiItemKey, kalahiSuiteName, kalahiTestName } from './names.ts';
import { judgeKalahi, parseKalahiThresholds, type KalahiGate } from './gates.ts';
import { kalahiGenerationVerdict, kalahiMCVerdict } from './verdict.ts';
import { lokalTest, type ModelPool } from '../../vitest/fixtures.ts';
import { lokalModelOptions, modelSpec, type LokalModelOptions } from '../../models/open.ts';
import type { GateOutcome } from '../multiloko/gates.ts';

export type { KalahiSuiteOptions } from './config.ts';

interface PromptJob {
  row: KalahiRow;
  variant: string;
  spec: string;
  modelOptions: LokalModelOptions;
  config: KalahiConfig;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** One prompt test: MC and/or generation, recorded in meta and annotated; errors fail the test after both ran. */
async function runPrompt(job: PromptJob, models: ModelPool, task: TestContext['task'], annotate: TestContext['annotate']): Promise<void> {
  const { row, config } = job;
  const model = await models.get(job.spec, job.modelOptions);
  const itemKey = kalahiItemKey(row.promptVariationId);
  const record: KalahiPromptRecord = {
    suite: job.variant,
    promptVariationId: row.promptVariationId,
    promptId: row.promptId,
    category: row.category,
    topic: row.topic,
    row: row.row,
    itemKey,
  };
  (task as RunnerTestCase).meta.lokalKalahiItem = record;
  const errors: string[] = [];
  if (config.tasks.includes('mc')) {
    try {
      record.mc = await measureKalahiMC(model, row, itemKey);
      await annotateWithoutLocation(annotate, `MC ${kalahiMCVerdict(record.mc)}`, record.mc.normalised.mc1 === 1 ? 'mc-correct' : 'mc-wrong');
      if (config.base.strict && record.mc.normalised.mc1 !== 1) {
        errors.push(`strict mode: MC1 = 0, the model prefers ${record.mc.preferred.kind} answer ${JSON.stringify(record.mc.preferred.text)} over the best answer ${JSON.stringify(row.bestAnswer)}`);
      }
    } catch (error) {
      errors.push(`multiple choice: ${message(error)}`);
    }
  }
  if (config.tasks.includes('generation')) {
    try {
      const learned = await learnedScorers(config.learnedModels);
      record.generation = await measureKalahiGeneration(model, row, itemKey, { budget: config.budget, chrf: config.chrf, learned });
      await annotateWithoutLocation(annotate, `generation ${kalahiGenerationVerdict(record.generation)}`, `generation-${record.generation.status}`);
      // The reference aborts the whole metric loop on such an error; here only this prompt fails (METRICS.md §10.5).
      if (record.generation.status === 'failed') errors.push(`generation metrics: ${record.generation.reason}`);
    } catch (error) {
      errors.push(`generation: ${message(error)}`);
    }
  }
  if (errors.length > 0) throw new Error(`${kalahiTestName(row)}: ${errors.join('; ')}`);
}

function gateRecord(outcomes: GateOutcome[], notApplied: string[]): KalahiGateRecord {
  return { outcomes: outcomes.map((o) => ({ ...o, value: Number.isNaN(o.value) ? null : o.value })), notApplied };
}

function declareVariant(info: KalahiRunInfo, rows: readonly KalahiRow[], config: KalahiConfig, gates: readonly KalahiGate[], spec: string, modelOptions: LokalModelOptions): void {
  describe(kalahiSuiteName(info.variant), () => {
    // Building the provider first: an unusable model fails once here, not in every prompt test.
    lokalTest.beforeAll(async ({ lokalModels }) => {
      await lokalModels.get(spec, modelOptions);
    });
    for (const category of info.categories) {
      describe(category, () => {
        for (const row of rows.filter((r) => r.category === category)) {
          const job: PromptJob = { row, variant: info.variant, spec, modelOptions, config };
          // A short test function: Vitest reads its source to find the fixtures it uses.
          lokalTest.concurrent(kalahiTestName(row), ({ lokalModels, task, annotate }) => runPrompt(job, lokalModels, task, annotate));
        }
      });
    }

    lokalTest(KALAHI_GATE_TEST_NAME, { meta: { lokalKalahiRun: info } }, async ({ task, annotate }) => {
      const aggregate = aggregateKalahi(descendantTests(task.suite!).map(viewOfRunnerTask))!;
      const judged = judgeKalahi(gates, [aggregate]);
      task.meta.lokalKalahiGate = gateRecord(judged.outcomes, judged.notApplied);
      const parts: string[] = [];
      const mc = aggregate.overall.mc?.normalised;
      if (mc) parts.push(`MC1 ${mc.mc1?.toFixed(4)} · MC2 ${mc.mc2?.toFixed(4) ?? 'NaN'}`);
      const generation = aggregate.overall.generation;
      if (generation) parts.push(`${generation.scored} replies scored`);
      const failed = judged.outcomes.filter((o) => !o.pass);
      const summary = `${parts.join(' · ') || 'nothing scored'} over ${aggregate.recorded} prompts`;
      await annotate(`${failed.length ? '✗' : '✓'} ${summary}${judged.outcomes.length ? ` · ${judged.outcomes.length - failed.length}/${judged.outcomes.length} gates met` : ''}`, failed.length ? 'gate-failed' : 'gate');
      if (failed.length > 0) throw new Error(`${kalahiSuiteName(info.variant)}: gate missed\n${failed.map((o) => `  ${o.message}`).join('\n')}`);
    });
  });
}

/**
 * Declares the Kalahi suites of this file. Options are defaults that lokal.config.json provides too and LOKAL_*
 * variables override (LOKAL_KALAHI, LOKAL_KALAHI_VARIANT, LOKAL_KALAHI_TASKS, LOKAL_KALAHI_BUDGET, LOKAL_KALAHI_CHRF,
 * LOKAL_BERTSCORE_MODEL, LOKAL_BLEURT_MODEL, LOKAL_MODEL, LOKAL_LIMIT, …). Await it at the top level of an eval file.
 */
export async function kalahiSuite(options: KalahiSuiteOptions = {}): Promise<void> {
  const resolved = resolveKalahiConfig(options);
  // Configuration mistakes fail the file once, at collection, instead of every prompt test.
  const spec = modelSpec(resolved.base);
  const { kind } = parseProviderSpec(spec);
  // A replay file has replies but no log-probabilities: without an explicit task list it runs the generation task only.
  const config = kind === 'replay' && resolved.base.kalahiTasks === undefined ? { ...resolved, tasks: ['generation' as const] } : resolved;
  if (kind === 'replay' && config.tasks.includes('mc')) {
    throw new Error(`Kalahi multiple choice needs log-probabilities, which a replay file (${spec}) has none of: set LOKAL_KALAHI_TASKS=generation, or use a transformers: or openai: model`);
  }
  const gates = parseKalahiThresholds(config.base.thresholds);
  const modelOptions = lokalModelOptions(config.base);
  for (const [order, variant] of config.variants.entries()) {
    let dataset: Awaited<ReturnType<typeof loadKalahi>>;
    try {
      dataset = await loadKalahi(config.location, variant);
    } catch (error) {
      const how = 'set LOKAL_KALAHI to the folder of the Kalahi CSVs, or run `npx lokal data fetch --only kalahi`';
      if (order === 0 && skipIfDataAbsent('kalahi', config.location !== undefined, error, how)) return;
      throw error;
    }
    const rows = config.base.limit === undefined ? dataset.rows : dataset.rows.slice(0, config.base.limit);
    const categories = [...new Set(rows.map((r) => r.category))];
    const info: KalahiRunInfo = {
      benchmark: 'kalahi',
      variant,
      file: dataset.file,
      order,
      selected: rows.length,
      total: dataset.rows.length,
      categories,
      model: spec,
      tasks: config.tasks,
      budget: { kind: config.budget, tokens: KALAHI_TOKEN_BUDGET, description: KALAHI_BUDGET_DESCRIPTIONS[config.budget] },
      labels: { rougeL: 'rougeLsum', chrf: config.chrf === 'chrf++' ? 'chrF++' : 'chrF' },
      learnedModels: config.learnedModels,
      strict: config.base.strict,
      thresholds: config.base.thresholds,
    };
    declareVariant(info, rows, config, gates, spec, modelOptions);
  }
  afterAll(() => closeLearnedScorers());
}
