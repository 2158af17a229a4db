// MultiLoKo as a benchmark definition: one group per subset (`italian · local`, `italian → english · human`), one
// item per question; the item asks the model with the official prompt and scores the answer exactly as eval.py.
import path from 'node:path';
import { defineBenchmark, type BenchmarkGroup, type GroupVerdict } from '../../core/benchmark.ts';
import type { GateOutcome } from '../../core/gates.ts';
import { aggregateSubset, uniqueRecords } from './aggregate.ts';
import { readBaseline, judgeAgainstBaseline, type Baseline } from './baseline.ts';
import { loadMultiLoKo, type MultiLoKoSubset } from './data/multiloko.ts';
import type { MultiLoKoItem } from './data/schema.ts';
import { judgeSubset, multilokoGate, type Gate } from './gates.ts';
import { headlineLines } from './headlineTable.ts';
import { askModel, verdictLine } from './item.ts';
import { chooseFewshot, extractsAnswers, promptUse, renderItemPrompt, resolvePromptMode, scoredAnswer } from './itemPrompt.ts';
import { scoreExample } from './metrics/scoreExample.ts';
import { modelSpec } from '../../models/open.ts';
import { parseProviderSpec } from '../../models/index.ts';
import type { MultilokoFewshotChoice } from './prompts/renderMultilokoPrompt.ts';
import type { LokalItemRecord, LokalSubsetAggregate, LokalSubsetInfo } from './records.ts';
import { judgeRun, officialLayout, summariseGroups, summariseRun, type RunSummary } from './rollup.ts';
import { itemTestName, multilokoItemKey, subsetLanguage, subsetName } from './names.ts';
import { selectSubsets } from './select.ts';
import { MULTILOKO_SETTINGS, type MultiLoKoSettings } from './settings.ts';
import { gateLines, leaderboardLines, tableMetrics } from './table.ts';
import { describePrompts } from './usage.ts';

/** What every item of a subset shares. */
interface SubsetJob {
  subset: MultiLoKoSubset;
  /** Demonstrations for base prompts in the subset's question language. */
  fewshot: MultilokoFewshotChoice;
  /** Position of each item object in the subset's selection (its index in the file order). */
  index: Map<MultiLoKoItem, number>;
}

function groupVerdict(info: LokalSubsetInfo, aggregate: LokalSubsetAggregate, gates: readonly Gate[], baseline: Baseline | undefined, tolerance: number): GroupVerdict {
  const outcomes: GateOutcome[] = [];
  if (aggregate.means) {
    outcomes.push(...judgeSubset(gates, { key: info.key, name: info.name, local: !info.translated, means: aggregate.means }));
    const vsBaseline = baseline && judgeAgainstBaseline(baseline, tolerance, info.key, `${info.name} EM`, aggregate.means.em);
    if (vsBaseline) outcomes.push(vsBaseline);
  }
  const summary = aggregate.means
    ? `EM ${aggregate.means.em.toFixed(4)} · F1 ${aggregate.means.f1.toFixed(4)} · chrF ${aggregate.means.chrf.toFixed(2)} over ${aggregate.scored} items` +
      (aggregate.missing ? ` (${aggregate.missing} without prediction)` : '')
    : 'no scored items';
  const blocked = outcomes.length > 0 && aggregate.failed > 0 ? `${info.name}: ${aggregate.failed} item tests failed without a score, so the gates cannot be judged` : undefined;
  return { summary, outcomes, ...(blocked ? { blocked } : {}) };
}

/** `5 items from the cache, 0 asked the model` (replay: answers read from the file). */
function callsLine(summary: RunSummary): string {
  if (summary.model?.startsWith('replay:')) return `${summary.calls.model_calls} answers read from the predictions file`;
  return `${summary.calls.cached} items from the cache, ${summary.calls.model_calls} asked the model`;
}

export const multiloko = defineBenchmark<MultiLoKoSettings, MultiLoKoItem, LokalSubsetInfo, LokalItemRecord, LokalSubsetAggregate>({
  name: 'multiloko',
  title: 'MultiLoKo',
  settings: MULTILOKO_SETTINGS,
  resultsFile: 'multiloko.json',
  dataHint: 'set LOKAL_MULTILOKO to benchmark_data.tar.xz.enc or the extracted folder, or run `npx lokal data fetch --only multiloko`',
  dataConfigured: (settings) => settings.data !== undefined,

  async prepare(settings, clauses) {
    const spec = modelSpec(settings);
    // Configuration mistakes fail the file once, at collection, instead of every item test.
    parseProviderSpec(spec);
    const gates = clauses.map(multilokoGate);
    const baseline = settings.baseline === undefined ? undefined : readBaseline(settings.baseline);
    const dataset = await loadMultiLoKo(settings.data, settings.split);
    const jobs = new Map<string, SubsetJob>();
    const groups: Array<BenchmarkGroup<MultiLoKoItem, LokalSubsetInfo>> = selectSubsets(dataset, settings).map(({ subset, order, items }) => {
      jobs.set(subset.key, { subset, fewshot: chooseFewshot(dataset, subset.questionLanguage, settings.fewshot), index: new Map(items.map((item, i) => [item, i])) });
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
        strict: settings.strict,
        thresholds: settings.thresholds,
        baseline: settings.baseline,
        baselineTolerance: settings.baselineTolerance,
      };
      return { info, items };
    });

    return {
      groups,
      testName: itemTestName,
      async runItem(item, info, context) {
        const { subset, fewshot, index } = jobs.get(info.key)!;
        const itemKey = multilokoItemKey(subset.key, item.id);
        const model = await context.model();
        const mode = await resolvePromptMode(settings.prompt, model);
        const rendered = mode === 'none' ? undefined : renderItemPrompt(item, subset, { mode, fewshot, shots: settings.shots });
        const answer = await askModel(model.provider, { ...rendered?.request, maxNewTokens: settings.maxNewTokens, itemKey });
        const extract = extractsAnswers(settings.extract, model.kind);
        const scoredText = scoredAnswer(answer.text, { extract, mode, language: subset.questionLanguage, setting: settings.prompt });
        const scored = scoreExample(scoredText, item.targets);
        const record: LokalItemRecord = {
          subset: subset.key,
          id: item.id,
          index: index.get(item)!,
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
        await context.annotate(record.verdict, record.missing ? 'missing' : record.scores.em === 1 ? 'correct' : 'wrong');
        if (!settings.strict) return { record };
        if (answer.missing) return { record, failures: [`strict mode: no prediction for ${itemKey}`] };
        return { record, assert: () => context.expect(scoredText).toExactMatch(item.targets) };
      },
      judgeGroup: (aggregate) => groupVerdict(aggregate, aggregate, gates, baseline, settings.baselineTolerance),
    };
  },

  aggregate: aggregateSubset,
  uniqueRecords,

  async report(rolled, { settings, root, clauses }) {
    // Gate settings given now win; otherwise those the test run recorded (so a merge judges like its shards).
    const recorded = rolled[0]!.aggregate;
    const baselineFile = settings.baseline ?? recorded.baseline;
    const tolerance = settings.baseline !== undefined ? settings.baselineTolerance : recorded.baselineTolerance;
    const subsets = rolled.map((r) => ({ aggregate: r.aggregate, records: r.records }));
    const groups = summariseGroups(subsets);
    const judged = judgeRun(subsets, groups, {
      gates: clauses.map(multilokoGate),
      baseline: baselineFile === undefined ? undefined : readBaseline(path.resolve(root, baselineFile)),
      baselineTolerance: tolerance,
    });
    const summary = summariseRun(subsets, groups, judged);
    const lines = ['', ...leaderboardLines(subsets, groups, tableMetrics(settings.tableMetrics))];
    if (summary.headline) lines.push(...headlineLines(summary.headline, { model: summary.model ?? '?', prompt: describePrompts(summary.prompt) }));
    lines.push(`lokal: ${describePrompts(summary.prompt)}; ${callsLine(summary)}`);
    lines.push(...gateLines(judged.outcomes, judged.notApplied));
    const results = officialLayout(subsets);
    return {
      lines,
      resultsText: results ? `${JSON.stringify({ ...results, summary }, null, 4)}\n` : undefined,
      passed: summary.gates_passed,
    };
  },
});
