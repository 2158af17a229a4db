// MultiLoKo as Vitest tests: one describe per subset, one test per item, one gate test per subset.
import { describe, type RunnerTestCase, type TestContext } from 'vitest';
import { annotateWithoutLocation } from '../../vitest/annotate.ts';
import { skipIfDataAbsent } from '../../vitest/dataAbsent.ts';
import { loadMultiLoKo, type MultiLoKoSubset } from './data/multiloko.ts';
import type { MultiLoKoItem } from './data/schema.ts';
import { scoreExample } from './metrics/scoreExample.ts';
import { parseProviderSpec } from '../../models/index.ts';
import type { GenerateRequest, ModelDescription, ModelProvider } from '../../models/types.ts';
import type { MultilokoFewshotChoice } from './prompts/renderMultilokoPrompt.ts';
import { aggregateSubset, viewOfTask } from './aggregate.ts';
import { readBaseline, judgeAgainstBaseline, type Baseline } from './baseline.ts';
import { resolveLokalConfig, type LokalConfig, type LokalConfigInput } from '../../core/settings.ts';
import { lokalTest, type ModelPool } from '../../vitest/fixtures.ts';
import '../../vitest/matchers.ts';
import type { LokalItemRecord, LokalSubsetInfo } from './records.ts';
import { lokalModelOptions, modelSpec, type LokalModelOptions } from '../../models/open.ts';
import { GATE_TEST_NAME, itemTestName, multilokoItemKey, shorten, subsetLanguage, subsetName } from './names.ts';
import { chooseFewshot, extractsAnswers, promptUse, renderItemPrompt, resolvePromptMode, scoredAnswer } from './itemPrompt.ts';
import { selectSubsets } from './select.ts';
import { judgeSubset, parseThresholds, type GateOutcome } from './gates.ts';

export type MultiLoKoSuiteOptions = LokalConfigInput;

/** What one item test measured, for the verdict and the meta. */
export interface ItemAnswer {
  text: string;
  latencyMs: number;
  cached: boolean;
  missing: boolean;
}

/** Asks the model one request; provider errors propagate (the item test fails with them). */
export async function askModel(model: ModelProvider, request: GenerateRequest): Promise<ItemAnswer> {
  const [result] = await model.generate([request]);
  if (!result) throw new Error(`${model.describe().provider}: no answer for ${request.itemKey ?? 'the request'}`);
  return { text: result.text, latencyMs: result.latencyMs, cached: result.cached, missing: (result as { missing?: boolean }).missing === true };
}

const quote = (text: string) => JSON.stringify(shorten(text, 80));

/** One line for Vitest UI: `✓ EM 1 · F1 1 · chrF 100.0 · said "Roma" · targets "roma"` (the answer scored). */
export function verdictLine(record: Pick<LokalItemRecord, 'rawPrediction' | 'targets' | 'scores' | 'missing'> & { answer?: string }): string {
  const { em, f1, chrf } = record.scores;
  const mark = record.missing ? '∅' : em === 1 ? '✓' : '✗';
  const said = record.missing ? 'no prediction (scored as empty)' : `said ${quote(record.answer ?? record.rawPrediction)}`;
  const targets = record.targets.slice(0, 3).map(quote).join(' | ') + (record.targets.length > 3 ? ` (+${record.targets.length - 3})` : '');
  return `${mark} EM ${em} · F1 ${Number(f1.toFixed(2))} · chrF ${chrf.toFixed(1)} · ${said} · targets ${targets}`;
}

/** What every item test of a subset shares. */
interface SubsetJob {
  subset: MultiLoKoSubset;
  config: LokalConfig;
  spec: string;
  modelOptions: LokalModelOptions;
  /** Demonstrations for base prompts in the subset's question language. */
  fewshot: MultilokoFewshotChoice;
}

interface ItemJob {
  item: MultiLoKoItem;
  index: number;
  itemKey: string;
  shared: SubsetJob;
}

/** One item test: prompt, ask, extract, score, record in meta, annotate; in strict mode a wrong answer fails it. */
async function runItem(job: ItemJob, models: ModelPool, task: TestContext['task'], annotate: TestContext['annotate']): Promise<void> {
  const { item, index, itemKey } = job;
  const { subset, config, spec, modelOptions } = job.shared;
  const model = await models.open(spec, modelOptions);
  const mode = await resolvePromptMode(config.prompt, model);
  const rendered = mode === 'none' ? undefined : renderItemPrompt(item, subset, { mode, fewshot: job.shared.fewshot, shots: config.shots });
  const answer = await askModel(model.provider, { ...rendered?.request, maxNewTokens: config.maxNewTokens, itemKey });
  const extract = extractsAnswers(config.extract, model.kind);
  const scoredText = scoredAnswer(answer.text, { extract, mode, language: subset.questionLanguage, setting: config.prompt });
  const scored = scoreExample(scoredText, item.targets);
  const record: LokalItemRecord = {
    subset: subset.key,
    id: item.id,
    index,
    itemKey,
    rawPrediction: answer.text,
    answer: scoredText,
    prediction: scored.prediction,
    prompt: promptUse(mode, subset.questionLanguage, rendered?.fewshot, extract),
    targets: scored.targets,
    scores: scored.scores,
    latencyMs: answer.latencyMs,
    cached: answer.cached,
    missing: answer.missing,
    verdict: '',
  };
  record.verdict = verdictLine(record);
  (task as RunnerTestCase).meta.lokalItem = record;
  await annotateWithoutLocation(annotate, record.verdict, record.missing ? 'missing' : record.scores.em === 1 ? 'correct' : 'wrong');
  if (config.strict) {
    if (answer.missing) throw new Error(`strict mode: no prediction for ${itemKey}`);
    // The test's own expect (created on first access), so the matcher records into this test.
    task.context.expect(scoredText).toExactMatch(item.targets);
  }
}

/** describe() of the run's model for the results; undefined when it cannot be built (its item tests say why). */
async function describeModel(models: ModelPool, spec: string, options: LokalModelOptions): Promise<ModelDescription | undefined> {
  try {
    return (await models.open(spec, options)).provider.describe();
  } catch {
    return undefined;
  }
}

function loadBaseline(config: LokalConfig): Baseline | undefined {
  return config.baseline === undefined ? undefined : readBaseline(config.baseline);
}

/**
 * Declares the MultiLoKo suites of this file. Options are defaults that lokal.config.json provides too and LOKAL_*
 * variables override (LOKAL_LANGUAGES, LOKAL_SUBSETS, LOKAL_LIMIT, LOKAL_MODEL, LOKAL_STRICT, …). Await it at the top
 * level of an eval file: `await multilokoSuite({ split: 'dev' })`.
 */
export async function multilokoSuite(options: MultiLoKoSuiteOptions = {}): Promise<void> {
  const config = resolveLokalConfig(options);
  const spec = modelSpec(config);
  const modelOptions = lokalModelOptions(config);
  // Configuration mistakes fail the file once, at collection, instead of every item test.
  parseProviderSpec(spec);
  const gates = parseThresholds(config.thresholds);
  const baseline = loadBaseline(config);
  let dataset: Awaited<ReturnType<typeof loadMultiLoKo>>;
  try {
    dataset = await loadMultiLoKo(config.multiloko, config.split);
  } catch (error) {
    const how = 'set LOKAL_MULTILOKO to benchmark_data.tar.xz.enc or the extracted folder, or run `npx lokal data fetch --only multiloko`';
    if (skipIfDataAbsent('multiloko', config.multiloko !== undefined, error, how)) return;
    throw error;
  }
  const selected = selectSubsets(dataset, config);

  for (const { subset, order, items } of selected) {
    const info: LokalSubsetInfo = {
      benchmark: 'multiloko',
      key: subset.key,
      name: subsetName(subset),
      language: subsetLanguage(subset),
      sourceLanguage: subset.sourceLanguage,
      questionLanguage: subset.questionLanguage,
      translated: subset.translated,
      ...(subset.translation ? { translation: subset.translation } : {}),
      order,
      split: dataset.split,
      location: dataset.location,
      file: subset.file,
      selected: items.length,
      total: subset.items.length,
      model: spec,
      strict: config.strict,
      thresholds: config.thresholds,
      baseline: config.baseline,
      baselineTolerance: config.baselineTolerance,
    };

    const shared: SubsetJob = { subset, config, spec, modelOptions, fewshot: chooseFewshot(dataset, subset.questionLanguage, config.fewshot) };

    describe(info.name, () => {
      // Building the provider before the items: an unreadable replay file fails the suite once, not each item.
      lokalTest.beforeAll(async ({ lokalModels }) => {
        await lokalModels.open(spec, modelOptions);
      });
      // One test function for every item (Vitest parses a test function's source for its fixtures once per function);
      // an item test is the describe's task at its item's position (the item tests come first, in item order).
      const jobs: ItemJob[] = items.map((item, index) => ({ item, index, itemKey: multilokoItemKey(subset.key, item.id), shared }));
      const itemTest = ({ lokalModels, task, annotate }: TestContext & { lokalModels: ModelPool }) =>
        runItem(jobs[task.suite!.tasks.indexOf(task)]!, lokalModels, task, annotate);
      for (const item of items) lokalTest.concurrent(itemTestName(item), itemTest);

      lokalTest(GATE_TEST_NAME, { meta: { lokalSubset: info } }, async ({ task, annotate, lokalModels }) => {
        const model = await describeModel(lokalModels, spec, modelOptions);
        const siblings = (task.suite?.tasks ?? []).filter((t) => t.type === 'test').map(viewOfTask);
        const aggregate = aggregateSubset(siblings)!;
        const outcomes: GateOutcome[] = [];
        if (aggregate.means) {
          const figures = { key: info.key, name: info.name, local: !info.translated, means: aggregate.means };
          outcomes.push(...judgeSubset(gates, figures));
          const vsBaseline = baseline && judgeAgainstBaseline(baseline, config.baselineTolerance, info.key, `${info.name} EM`, aggregate.means.em);
          if (vsBaseline) outcomes.push(vsBaseline);
        }
        task.meta.lokalGate = { ...(model ? { model } : {}), outcomes };
        const summary = aggregate.means
          ? `EM ${aggregate.means.em.toFixed(4)} · F1 ${aggregate.means.f1.toFixed(4)} · chrF ${aggregate.means.chrf.toFixed(2)} over ${aggregate.scored} items` +
            (aggregate.missing ? ` (${aggregate.missing} without prediction)` : '')
          : 'no scored items';
        const failed = outcomes.filter((o) => !o.pass);
        await annotate(`${failed.length ? '✗' : '✓'} ${summary}${outcomes.length ? ` · ${outcomes.length - failed.length}/${outcomes.length} gates met` : ''}`, failed.length ? 'gate-failed' : 'gate');
        if (outcomes.length > 0 && aggregate.failed > 0) {
          throw new Error(`${info.name}: ${aggregate.failed} item tests failed without a score, so the gates cannot be judged`);
        }
        if (failed.length > 0) throw new Error(`${info.name}: gate missed\n${failed.map((o) => `  ${o.message}`).join('\n')}`);
      });
    });
  }
}
