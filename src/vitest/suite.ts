// MultiLoKo as Vitest tests: one describe per subset, one test per item, one gate test per subset.
import { describe, type RunnerTestCase, type TestContext } from 'vitest';
import { loadMultiLoKo, type MultiLoKoItem, type MultiLoKoSubset } from '../data/index.ts';
import { scoreExample } from '../metrics/index.ts';
import { parseProviderSpec } from '../models/index.ts';
import type { ModelProvider } from '../models/types.ts';
import { aggregateSubset, viewOfTask } from './aggregate.ts';
import { readBaseline, judgeAgainstBaseline, type Baseline } from './baseline.ts';
import { resolveLokalConfig, type LokalConfig, type LokalConfigInput } from './config.ts';
import { NO_MODEL_MESSAGE, lokalTest, type ModelPool } from './fixtures.ts';
import './matchers.ts';
import type { LokalItemRecord, LokalSubsetInfo } from './meta.ts';
import { GATE_TEST_NAME, itemTestName, multilokoItemKey, shorten, subsetLanguage, subsetName } from './names.ts';
import { renderItemPrompt } from './prompt.ts';
import { selectSubsets } from './select.ts';
import { judgeSubset, parseThresholds, type GateOutcome } from './thresholds.ts';

export type MultiLoKoSuiteOptions = LokalConfigInput;

/** What one item test measured, for the verdict and the meta. */
export interface ItemAnswer {
  text: string;
  latencyMs: number;
  cached: boolean;
  missing: boolean;
}

/** Asks the model one item; provider errors propagate (the item test fails with them). */
export async function askModel(model: ModelProvider, item: MultiLoKoItem, subset: { file: string }, itemKey: string, maxNewTokens: number): Promise<ItemAnswer> {
  const [result] = await model.generate([{ ...renderItemPrompt(item, subset), maxNewTokens, itemKey }]);
  if (!result) throw new Error(`${model.describe().provider}: no answer for ${itemKey}`);
  return { text: result.text, latencyMs: result.latencyMs, cached: result.cached, missing: (result as { missing?: boolean }).missing === true };
}

const quote = (text: string) => JSON.stringify(shorten(text, 80));

/** One line for Vitest UI: `✓ EM 1 · F1 1 · chrF 100.0 · said "Roma" · targets "roma"`. */
export function verdictLine(record: Pick<LokalItemRecord, 'rawPrediction' | 'targets' | 'scores' | 'missing'>): string {
  const { em, f1, chrf } = record.scores;
  const mark = record.missing ? '∅' : em === 1 ? '✓' : '✗';
  const said = record.missing ? 'no prediction (scored as empty)' : `said ${quote(record.rawPrediction)}`;
  const targets = record.targets.slice(0, 3).map(quote).join(' | ') + (record.targets.length > 3 ? ` (+${record.targets.length - 3})` : '');
  return `${mark} EM ${em} · F1 ${Number(f1.toFixed(2))} · chrF ${chrf.toFixed(1)} · ${said} · targets ${targets}`;
}

interface ItemJob {
  item: MultiLoKoItem;
  index: number;
  subset: MultiLoKoSubset;
  itemKey: string;
  config: LokalConfig;
}

/** One item test: ask, score, record in meta, annotate; in strict mode a wrong answer fails it. */
async function runItem(job: ItemJob, models: ModelPool, task: TestContext['task'], annotate: TestContext['annotate']): Promise<void> {
  const { item, index, subset, itemKey, config } = job;
  const model = await models.get(config.model!, { replay: { onMissing: config.missing } });
  const answer = await askModel(model, item, subset, itemKey, config.maxNewTokens);
  const scored = scoreExample(answer.text, item.targets);
  const record: LokalItemRecord = {
    subset: subset.key,
    id: item.id,
    index,
    itemKey,
    rawPrediction: answer.text,
    prediction: scored.prediction,
    targets: scored.targets,
    scores: scored.scores,
    latencyMs: answer.latencyMs,
    cached: answer.cached,
    missing: answer.missing,
    verdict: '',
  };
  record.verdict = verdictLine(record);
  (task as RunnerTestCase).meta.lokalItem = record;
  await annotate(record.verdict, record.missing ? 'missing' : record.scores.em === 1 ? 'correct' : 'wrong');
  if (config.strict) {
    if (answer.missing) throw new Error(`strict mode: no prediction for ${itemKey}`);
    // The test's own expect (created on first access), so the matcher records into this test.
    task.context.expect(answer.text).toExactMatch(item.targets);
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
  // Configuration mistakes fail the file once, at collection, instead of every item test.
  if (!config.model) throw new Error(NO_MODEL_MESSAGE);
  parseProviderSpec(config.model);
  const gates = parseThresholds(config.thresholds);
  const baseline = loadBaseline(config);
  const dataset = await loadMultiLoKo(config.multiloko, config.split);
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
      model: config.model,
      strict: config.strict,
      thresholds: config.thresholds,
      baseline: config.baseline,
      baselineTolerance: config.baselineTolerance,
    };

    describe(info.name, () => {
      // Building the provider before the items: an unreadable replay file fails the suite once, not each item.
      lokalTest.beforeAll(async ({ lokalModels }) => {
        await lokalModels.get(config.model!, { replay: { onMissing: config.missing } });
      });
      items.forEach((item, index) => {
        const job: ItemJob = { item, index, subset, itemKey: multilokoItemKey(subset.key, item.id), config };
        // A short test function: Vitest reads its source to find the fixtures it uses, once per test.
        lokalTest.concurrent(itemTestName(item), ({ lokalModels, task, annotate }) => runItem(job, lokalModels, task, annotate));
      });

      lokalTest(GATE_TEST_NAME, { meta: { lokalSubset: info } }, async ({ task, annotate }) => {
        const siblings = (task.suite?.tasks ?? []).filter((t) => t.type === 'test').map(viewOfTask);
        const aggregate = aggregateSubset(siblings)!;
        const outcomes: GateOutcome[] = [];
        if (aggregate.means) {
          const figures = { key: info.key, name: info.name, local: !info.translated, means: aggregate.means };
          outcomes.push(...judgeSubset(gates, figures));
          const vsBaseline = baseline && judgeAgainstBaseline(baseline, config.baselineTolerance, info.key, `${info.name} EM`, aggregate.means.em);
          if (vsBaseline) outcomes.push(vsBaseline);
        }
        task.meta.lokalGate = { outcomes };
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
