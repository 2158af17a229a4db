// Any benchmark as Vitest tests: one describe per group (nested describes for its sections), one concurrent test per
// item, and a gate test per group. Names come from the definition and do not depend on settings, so `-t` filters and
// baselines line up across runs.
import { afterAll, describe, test, type RunnerTestCase, type TestContext } from 'vitest';
import type { BenchmarkDefinition, BenchmarkGroup, BenchmarkPlan, GateRecord, GroupInfo, ItemContext, BenchmarkMatchers } from '../benchmarks/benchmark.ts';
import { routeClauses } from '../core/gates.ts';
import { groupsOfPart, parsePart, partLabel, PartSpecError, type PartSpec } from '../benchmarks/parts.ts';
import { requireCacheFile } from '../models/outputCheck.ts';
import { terminalLines, terminalSafeError, terminalText } from '../data/terminalText.ts';
import { splitModelList } from '../core/modelList.ts';
import { benchmarkModel, resolveSettingsTree, sectionSettings, sharedSettings, type SettingsTree } from '../core/settings.ts';
import { BENCHMARKS, registerBenchmark } from '../benchmarks/index.ts';
import { lokalModelOptions, modelSpec, ModelUnsuitedError, ModelUnusableError, type LokalModel, type LokalModelOptions } from '../models/open.ts';
import type { ModelDescription } from '../models/types.ts';
import { parseProviderSpec, providerRow, specRow } from '../models/providers.ts';
import { ReplayProvider } from '../models/replay.ts';
import { countingModel, type CallCounts } from '../models/callCounter.ts';
import { signalledModel } from '../models/signalledProvider.ts';
import { withheldErrorsModel } from '../models/withheldErrors.ts';
import { inCI, resolveRedaction } from '../core/redact.ts';
import { itemStop, type ItemStop } from './runCancel.ts';
import { itemFailure } from './itemFailure.ts';
import { annotateWithoutLocation } from './annotate.ts';
import { skipBenchmark, skipIfDataAbsent } from './dataAbsent.ts';
import { NO_ROWS_SUITE_SUFFIX } from './noData.ts';
import { lokalTest, workerModelPool, type ModelPool } from './fixtures.ts';
import { registerMatchers } from './matchers.ts';
import './meta.ts';
import { descendantTests, runnerState, type RunnerTaskLike } from './views.ts';
import { declareSummary } from './summaryTest.ts';
import { inUiMode, wrongAnswersFail } from './uiMode.ts';
import { runBenchmarkNames } from './runBenchmarks.ts';

/** The name of each group's gate test. */
export const GATE_TEST_NAME = 'gate';

/** What every test of a suite shares. */
interface SuiteJob {
  plan: BenchmarkPlan<unknown, GroupInfo, unknown, GroupInfo>;
  definition: BenchmarkDefinition;
  spec: string;
  modelOptions: LokalModelOptions;
  /** The worker's model pool (item tests take no fixture: resolving one per test costs). */
  pool?: ModelPool;
  /** The model once built, so an item does not ask the pool again. */
  model?: LokalModel;
  /** A wrong answer fails its item test with its verdict line (Vitest UI without a `strict` setting). */
  wrongFails: boolean;
  /** Redaction is on: provider errors fail items with their status and kind only (src/models/withheldErrors.ts). */
  redact: boolean;
  /** One part of several: its groups hold part of their items, so their gates are judged at the roll-up. */
  part?: PartSpec;
}

type LokalContext = Pick<TestContext, 'task' | 'annotate'> & { lokalModels: ModelPool };
type ItemTestContext = Pick<TestContext, 'task' | 'annotate' | 'signal' | 'skip'>;

/** The run's model: the pool builds it (a failed build is retried by the next caller); kept on the job once built. */
async function jobModel(job: SuiteJob): Promise<LokalModel> {
  if (job.model) return job.model;
  const model = await job.pool!.open(job.spec, job.modelOptions);
  job.model = model;
  return model;
}

async function runItem(job: SuiteJob, item: unknown, info: GroupInfo, { task, annotate, signal, skip }: ItemTestContext): Promise<void> {
  const stop = itemStop(signal);
  try {
    await runItemUntil(job, item, info, { task, annotate, skip }, stop);
  } finally {
    stop.release();
  }
}

const CANCELLED = 'the run was cancelled';

/** Off CI, a withheld provider error's full message for the terminal: stderr, which no reporter's file records. */
function fullErrorOffCI(): ((message: string) => void) | undefined {
  if (inCI()) return undefined;
  return (message) => process.stderr.write(`lokal: withheld from the test reports (redaction): ${terminalLines(message)}\n`);
}

/** The item's test; `stop` aborts when the run is cancelled (Ctrl-C) or the test times out. */
async function runItemUntil(job: SuiteJob, item: unknown, info: GroupInfo, { task, annotate, skip }: Omit<ItemTestContext, 'signal'>, stop: ItemStop): Promise<void> {
  // Cancelled before this test's turn came (it waited for a slot among the concurrent tests): it asks nothing.
  if (stop.aborted) skip(CANCELLED);
  // The item's requests answered by the model and from the cache, for the progress line (replay counts none).
  const calls: CallCounts = { model: 0, cached: 0 };
  const context: ItemContext = {
    model: async () => {
      const model = await jobModel(job);
      if (!model.row.answersFromFile) (task as RunnerTestCase).meta.lokalCalls = calls;
      const shown = job.redact ? withheldErrorsModel(model, fullErrorOffCI()) : model;
      // A replay model sends no request, so its stop signal is never made (signalledModel leaves it as it is).
      return countingModel(shown.row.answersFromFile ? shown : signalledModel(shown, stop.signal), calls);
    },
    annotate: async (message, type) => {
      // Vitest refuses annotations once a cancel has ended the test; its record keeps the verdict.
      if (stop.aborted) return;
      await annotateWithoutLocation(annotate, terminalLines(message), type);
    },
    // The test's own expect (created on first access), so the matcher records into this test.
    expect: (actual) => task.context.expect(actual) as unknown as BenchmarkMatchers<void>,
  };
  // Errors quote ids, questions and model output: their messages are printed with control characters escaped.
  const result = await job.plan.runItem(item, info, context).catch((error: unknown) => {
    if (stop.aborted) skip(CANCELLED);
    throw terminalSafeError(error);
  });
  // Stopped while it ran: an item that finished whole keeps its record, so nothing answered is lost, and the test is
  // skipped (as Vitest marks the tests of a cancelled run), not failed for the requests it no longer made.
  if (stop.aborted) {
    if (!result.failures?.length) (task as RunnerTestCase).meta.lokalItem = result.record;
    skip(CANCELLED);
  }
  (task as RunnerTestCase).meta.lokalItem = result.record;
  // A wrong answer or a reported failure fails the test with one line (the matcher's explanation joined up).
  try {
    result.assert?.();
  } catch (error) {
    throw error instanceof Error && !(error instanceof TypeError) ? itemFailure(`strict mode: ${error.message}`) : terminalSafeError(error);
  }
  if (result.failures && result.failures.length > 0) throw itemFailure(result.failures.join('; '));
  if (job.wrongFails && result.wrong !== undefined) throw itemFailure(result.wrong);
}

/** describe() of the run's model for the results; undefined when it cannot be built (its item tests say why). */
async function describeModel(job: SuiteJob, models: ModelPool): Promise<ModelDescription | undefined> {
  try {
    return (await models.open(job.spec, job.modelOptions)).provider.describe();
  } catch {
    return undefined;
  }
}

/** Item tests of a describe: one test function for all of them, plain Vitest tests without fixtures. */
function declareItems(job: SuiteJob, items: readonly unknown[], info: GroupInfo): void {
  // An item test is its describe's task at the item's position (item tests come first, in item order).
  const itemTest = ({ task, annotate, signal, skip }: ItemTestContext) => runItem(job, items[task.suite!.tasks.indexOf(task)], info, { task, annotate, signal, skip });
  // `test.concurrent` builds a new chainable function on every read: read it once, not once per item.
  const concurrent = test.concurrent;
  // Marked as item tests: the lokal console reporter lists them only when they fail (never as slow).
  const options = { meta: { lokalItemTest: true } };
  for (const item of items) concurrent(terminalText(job.plan.testName(item)), options, itemTest);
}

async function gateTest(job: SuiteJob, info: GroupInfo, { task, annotate, lokalModels }: LokalContext): Promise<void> {
  const model = await describeModel(job, lokalModels);
  const items = descendantTests(task.suite as unknown as { tasks: RunnerTaskLike[] })
    .filter((t) => !t.meta.lokalGroup)
    .map((t) => ({ record: t.meta.lokalItem, state: runnerState(t) }));
  const aggregate = job.definition.aggregate(info, items, model ? { model, outcomes: [], notApplied: [] } : undefined);
  const verdict = job.plan.judgeGroup(aggregate);
  const record: GateRecord = {
    ...(model ? { model } : {}),
    outcomes: verdict.outcomes.map((o) => ({ ...o, value: Number.isNaN(o.value) ? null : o.value })),
    notApplied: verdict.notApplied ?? [],
  };
  task.meta.lokalGate = record;
  const failed = verdict.outcomes.filter((o) => !o.pass);
  const met = verdict.outcomes.length ? ` · ${verdict.outcomes.length - failed.length}/${verdict.outcomes.length} gates met` : '';
  if (job.part) {
    // Part of the group's items: its figures are not the group's, which the end-of-run roll-up judges over every part.
    await annotate(terminalText(`part ${partLabel(job.part)}: ${verdict.summary} (gates judged at the roll-up of every part)`), 'gate');
    return;
  }
  await annotate(terminalText(`${failed.length ? '✗' : '✓'} ${verdict.summary}${met}`), failed.length ? 'gate-failed' : 'gate');
  if (verdict.blocked) throw new Error(terminalLines(verdict.blocked));
  if (failed.length > 0) throw new Error(terminalLines(`${info.name}: gate missed\n${failed.map((o) => `  ${o.message}`).join('\n')}`));
}

/** A group as one model's: its info names that model, so the roll-up keeps each model's groups apart. */
function groupOfModel(group: BenchmarkGroup<unknown, GroupInfo>, spec: string): BenchmarkGroup<unknown, GroupInfo> {
  return { ...group, info: { ...group.info, model: spec } };
}

function declareGroup(job: SuiteJob, group: BenchmarkGroup<unknown, GroupInfo>): void {
  describe(terminalText(group.info.name), () => {
    if (group.sections) {
      for (const section of group.sections) describe(terminalText(section.name), () => declareItems(job, section.items, group.info));
    } else {
      declareItems(job, group.items, group.info);
    }
    lokalTest(GATE_TEST_NAME, { meta: { lokalGroup: group.info } }, ({ lokalModels, task, annotate }) => gateTest(job, group.info, { lokalModels, task, annotate }));
  });
}

/**
 * The models that can serve this benchmark: a replay file without a row for it is left out with one line (a MultiLoKo
 * predictions file does not answer Kalahi's prompts with ''); when none is left, the benchmark is skipped.
 */
async function specsServing(definition: BenchmarkDefinition, specs: readonly string[], options: LokalModelOptions, names: readonly string[], setting: string): Promise<string[]> {
  const serving: string[] = [];
  for (const spec of specs) {
    if (providerRow(parseProviderSpec(spec).kind)?.answersFromFile) {
      // A file that cannot be read is reported by the model check below, with the setting that named it.
      const built = await workerModelPool().open(spec, options).catch(() => undefined);
      if (built?.inner instanceof ReplayProvider && !built.inner.servesBenchmark(definition.name, names)) {
        const own = Object.entries(definition.settings.env).find(([, env]) => env.field === 'model')?.[0];
        const hint = own && own !== setting ? `; ${own} gives ${definition.title} a model of its own` : '';
        const reason = `${built.inner.file} holds no ${definition.title} rows (${setting}=${spec})${hint}`;
        if (specs.length === 1) skipBenchmark(definition.name, reason, NO_ROWS_SUITE_SUFFIX);
        else console.warn(`lokal: skipping ${definition.name} for ${spec}: ${reason}`);
        continue;
      }
    }
    serving.push(spec);
  }
  if (serving.length === 0 && specs.length > 1) skipBenchmark(definition.name, `none of ${specs.join(', ')} holds ${definition.title} rows`, NO_ROWS_SUITE_SUFFIX);
  return serving;
}

/** benchmarkSuite's options: a settings tree, and the part of the benchmark's items this file runs. */
type BenchmarkSuiteOptions = SettingsTree & {
  /**
   * `[i, n]` (or `'i/n'`): this file runs part i of n of the items, cut by src/benchmarks/parts.ts's rule (balanced, and
   * stable across runs); the n part files together run every item once, and the reporter's roll-up judges the gates.
   */
  part?: readonly [number, number] | string;
};

/**
 * Declares a benchmark's tests in this eval file: `await benchmarkSuite(multiloko)`. Options are a settings tree
 * (`{ model, limit, multiloko: { split: 'dev' } }`) that lokal.config.json provides too and LOKAL_* variables override,
 * and `part` (`{ part: [2, 4] }`) to run one part of the items.
 */
export async function benchmarkSuite<Settings>(definition: BenchmarkDefinition<Settings>, suiteOptions: BenchmarkSuiteOptions = {}): Promise<void> {
  const { part: partOption, ...options } = suiteOptions;
  let part: PartSpec | undefined;
  try {
    part = partOption === undefined ? undefined : parsePart(partOption);
  } catch (error) {
    throw error instanceof PartSpecError ? terminalSafeError(new PartSpecError(`${definition.name}: ${error.message}`)) : error;
  }
  registerBenchmark(definition);
  await registerMatchers(definition);
  const tree = resolveSettingsTree(
    BENCHMARKS.map((b) => b.settings),
    options,
  );
  const settings = sectionSettings<Settings>(tree, definition.settings);
  const shared = sharedSettings(tree);
  // Every benchmark of the run, not only this worker's: another's clauses and replay rows are left to it.
  const names = runBenchmarkNames();
  const clauses = routeClauses(tree.thresholds, names, names[0]!).get(definition.name) ?? [];
  // The benchmark's own model (`<benchmark>.model`) or the shared one; several (LOKAL_MODEL=a,b) run one after another.
  const { model: configuredModel, setting: modelSetting } = benchmarkModel(tree, definition.settings);
  const modelOptions = lokalModelOptions(shared);
  let plan: SuiteJob['plan'];
  try {
    plan = (await definition.prepare(settings, clauses)) as SuiteJob['plan'];
  } catch (error) {
    if (skipIfDataAbsent(definition.name, definition.dataConfigured(settings), error, definition.dataHint)) return;
    throw error;
  }
  // One part of several: the plan's groups cut to the items of this part (part 1/1 is the whole run).
  // (The plan is this file's own: cut in place, so a plan that is a class instance keeps its methods.)
  if (part && part.count > 1) {
    const whole = plan;
    // Balanced by the plan's item weights (from the data alone, so every shard cuts the same parts).
    const weight = whole.itemWeight ? (item: unknown, info: GroupInfo) => whole.itemWeight!(item, info) : undefined;
    whole.groups = groupsOfPart(whole.groups, part, (item) => (whole.itemId ? whole.itemId(item) : whole.testName(item)), weight);
  }
  const specs = await specsServing(definition, splitModelList(modelSpec({ model: configuredModel })), modelOptions, names, modelSetting);
  if (specs.length === 0) {
    await plan.close?.();
    return;
  }
  // Several models (LOKAL_MODEL=a,b): the plan (data loading) is shared, one describe per model, run one after another.
  const wrongFails = wrongAnswersFail(tree.strict, inUiMode());
  const redact = resolveRedaction(shared.redact).on;
  const parted = part && part.count > 1 ? { part } : {};
  const jobs: SuiteJob[] = specs.map((spec) => ({ plan, definition, spec, modelOptions, wrongFails, redact, ...parted }));
  for (const job of jobs) {
    // At collection, before any item asks the model: a cache that cannot be written would lose every answer.
    if ((specRow(job.spec)?.cachedByDefault ?? true) && job.modelOptions.cache) requireCacheFile(job.modelOptions.cache.file, job.modelOptions.cache.mode);
    // The model is loaded (or its server reached) once, at collection: an unusable one fails the file with one line
    // and no item test is declared (not one failure per item).
    if (plan.groups.length > 0) {
      job.pool = workerModelPool();
      try {
        job.model = await job.pool.usable(job.spec, job.modelOptions);
      } catch (error) {
        await plan.close?.();
        throw terminalSafeError(new ModelUnusableError(job.spec, configuredModel !== undefined, error, modelSetting));
      }
      // What the tasks need of the model (log-probabilities, a chat template) is asked once, now: a model that cannot
      // do it fails the file with one line naming the settings that work, not every item with its own error.
      const needs = plan.modelRequirements?.(job.spec) ?? [];
      if (needs.length > 0) {
        const capabilities = await job.pool.capabilities(job.spec, job.modelOptions);
        // Every missing capability in the one line: a user fixing one setting at a time would meet the next only on rerun.
        const missing = needs.filter((need) => !capabilities[need.capability].supported);
        if (missing.length > 0) {
          await plan.close?.();
          const problems = missing.map((need) => need.problem(capabilities[need.capability].how));
          throw terminalSafeError(new ModelUnsuitedError(job.spec, configuredModel !== undefined ? modelSetting : 'LOKAL_MODEL', problems.join('; and ')));
        }
      }
      // Several models: each is checked now but held only while its describe runs (the first stays for it).
      if (job !== jobs[0]) {
        await job.pool.release(job.spec, job.modelOptions);
        job.model = undefined;
      }
    }
  }
  if (jobs.length === 1) {
    // A listed model left out (a replay file without this benchmark's rows): the groups name the one that runs.
    const job = jobs[0]!;
    // Listed first, run last (the lokal runner moves it behind the groups it sums up).
    declareSummary({ definition, settings, clauses, ...parted });
    for (const group of plan.groups) declareGroup(job, group.info.model === undefined || group.info.model === job.spec ? group : groupOfModel(group, job.spec));
  } else {
    for (const job of jobs) {
      describe(terminalText(job.spec), () => {
        declareSummary({ definition, settings, clauses, model: job.spec, ...parted });
        for (const group of plan.groups) declareGroup(job, groupOfModel(group, job.spec));
        afterAll(async () => {
          job.model = undefined;
          await job.pool?.release(job.spec, job.modelOptions);
        });
      });
    }
  }
  if (plan.close) afterAll(() => plan.close!());
}
