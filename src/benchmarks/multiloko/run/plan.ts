// MultiLoKo's plan for a run (defineBenchmark's `prepare`): the data loaded and selected, one group per subset, and
// how an item runs — loaded by the definition only when a suite is declared, so the registry stays light.
import type { BenchmarkGroup, BenchmarkPlan, GroupVerdict } from '../../benchmark.ts';
import { requireKnownScope, type GateOutcome, type ParsedClause } from '../../../core/gates.ts';
import { readBaseline, judgeAgainstBaseline, type Baseline } from './baseline.ts';
import { hasItems } from './baselineGate.ts';
import { baselineFileFor } from '../../../core/baseline/index.ts';
import { loadMultiLoKo, type MultiLoKoDataset, type MultiLoKoSubset } from '../data/multiloko.ts';
import type { MultiLoKoQuestion } from '../data/schema.ts';
import { judgeSubset, multilokoGate, type Gate } from './gates.ts';
import { askModel, type ItemAnswer } from '../../../models/askModel.ts';
import { verdictLine } from './item.ts';
import { foldTrials, trialVerdictLine } from './itemTrials.ts';
import { trialRequest } from '../../../models/trialRequest.ts';
import type { GenerateRequest } from '../../../models/types.ts';
import { chooseFewshot, extractsAnswers, promptUse, resolvePromptMode } from './promptChoice.ts';
import { scoreExample } from '../../../metrics/scoreExample.ts';
import { f1Words } from '../metrics/f1Words.ts';
import { wordSegmenter } from '../metrics/wordSegmenter.ts';
import { errorCategory } from '../../../metrics/errorCategory.ts';
import { splitModelList } from '../../../core/modelList.ts';
import { modelSpec } from '../../../models/open.ts';
import { recordedCount, recordedInput } from '../../../models/recordedInput.ts';
import { parseProviderSpec, providerRow } from '../../../models/providers.ts';
import type { MultilokoFewshotChoice } from '../prompts/renderMultilokoPrompt.ts';
import type { LokalItemRecord, LokalSubsetAggregate, LokalSubsetInfo, SubsetSampling } from './records.ts';
import { itemTestName, multilokoItemKey, subsetLanguage, subsetName } from './names.ts';
import { selectSubsets } from './select.ts';
import { multilokoItemWeigher } from '../prompts/itemWeight.ts';
import { redactedText, resolveRedaction } from '../../../core/redact.ts';
import type { MultiLoKoSettings } from '../settings.ts';

/** What every item of a subset shares. */
interface SubsetJob {
  /** The subset's key, file and question language (not its items: the run keeps only the selected ones). */
  subset: Pick<MultiLoKoSubset, 'key' | 'file' | 'questionLanguage'>;
  /** Demonstrations for base prompts in the subset's question language. */
  fewshot: MultilokoFewshotChoice;
  /** Position of each item object in the subset's selection (its index in the file order). */
  index: Map<MultiLoKoQuestion, number>;
}

/**
 * What a run keeps of an item: the fields an item test reads (id, question, output type, targets). The paragraph and
 * the long answer stay in the file instead of in memory for the whole run (the full dev set has 37,750 items).
 */
function keptItem(item: MultiLoKoQuestion): MultiLoKoQuestion {
  const kept: MultiLoKoQuestion = { id: item.id, targets: item.targets };
  if (item.question !== undefined) kept.question = item.question;
  if (item.output_type !== undefined) kept.output_type = item.output_type;
  return kept;
}

/** The selected subsets as groups, and each one's job; the dataset itself is not kept once they are made. */
function planGroups(dataset: MultiLoKoDataset, settings: MultiLoKoSettings, spec: string): { groups: Array<BenchmarkGroup<MultiLoKoQuestion, LokalSubsetInfo>>; jobs: Map<string, SubsetJob> } {
  const jobs = new Map<string, SubsetJob>();
  const groups = selectSubsets(dataset, settings).map(({ subset, order, items: selected }) => {
    const items = selected.map(keptItem);
    jobs.set(subset.key, {
      subset: { key: subset.key, file: subset.file, questionLanguage: subset.questionLanguage },
      fewshot: chooseFewshot(dataset, subset.questionLanguage, settings.fewshot),
      index: new Map(items.map((item, i) => [item, i])),
    });
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
      ...(subset.sha256 ? { sha256: subset.sha256 } : {}),
      fewshotSha256: dataset.fewshotSha256?.[subset.questionLanguage] ?? null,
      maxNewTokens: settings.maxNewTokens,
      ...subsetSampling(settings),
      selected: items.length,
      total: subset.items.length,
      model: spec,
      strict: settings.strict,
      thresholds: settings.thresholds,
      baseline: settings.baseline,
      baselineTolerance: settings.baselineTolerance,
      baselineMode: settings.baselineMode,
      baselineAlpha: settings.baselineAlpha,
      baselineMargin: settings.baselineMargin,
      ...(settings.baselineAllow ? { baselineAllow: settings.baselineAllow } : {}),
    };
    return { info, items };
  });
  return { groups, jobs };
}

/** The sampling a subset was asked with, for its fingerprint: nothing when each item gets one greedy answer. */
function subsetSampling(settings: MultiLoKoSettings): { sampling?: SubsetSampling } {
  const sampling: SubsetSampling = {
    ...(settings.temperature !== undefined ? { temperature: settings.temperature } : {}),
    ...(settings.topP !== undefined ? { top_p: settings.topP } : {}),
    ...(settings.seed !== undefined ? { seed: settings.seed } : {}),
    ...((settings.trials ?? 1) > 1 ? { trials: settings.trials } : {}),
  };
  return Object.keys(sampling).length > 0 ? { sampling } : {};
}

function groupVerdict(info: LokalSubsetInfo, aggregate: LokalSubsetAggregate, gates: readonly Gate[], baseline: Baseline | undefined, tolerance: number): GroupVerdict {
  const outcomes: GateOutcome[] = [];
  if (aggregate.means) {
    outcomes.push(...judgeSubset(gates, { key: info.key, name: info.name, local: !info.translated, means: aggregate.means, errors: aggregate.errors }));
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

/** A record as it may be published: every text the model said or the data holds as its hash; scores untouched. */
function redactRecord(record: LokalItemRecord): void {
  const { rawPrediction, answer, prediction } = record;
  // The scored answer is mostly the raw output, and its normalised form often the same text: each is hashed once.
  record.rawPrediction = redactedText(rawPrediction);
  record.answer = answer === rawPrediction ? record.rawPrediction : redactedText(answer);
  record.prediction = prediction === answer ? record.answer : prediction === rawPrediction ? record.rawPrediction : redactedText(prediction);
  record.targets = record.targets.map(redactedText);
  if (record.question !== undefined) record.question = redactedText(record.question);
}

// The official templates and answer extraction, loaded on the first item that renders a prompt or extracts an answer
// (a replay file's answers are scored as given, with neither).
let itemPrompts: Promise<typeof import('./itemPrompt.ts')> | undefined;
const loadItemPrompts = () => (itemPrompts ??= import('./itemPrompt.ts'));

export async function prepareMultiLoKo(settings: MultiLoKoSettings, clauses: ParsedClause[]): Promise<BenchmarkPlan<MultiLoKoQuestion, LokalSubsetInfo, LokalItemRecord, LokalSubsetAggregate>> {
  const spec = modelSpec(settings);
  // Configuration mistakes fail the file once, at collection, instead of every item test.
  for (const one of splitModelList(spec)) parseProviderSpec(one);
  const gates = clauses.map(multilokoGate);
  const own = settings.baseline === undefined ? undefined : baselineFileFor(settings.baseline, process.cwd(), 'multiloko');
  const read = own === undefined ? undefined : readBaseline(own);
  // Paired tests need every subset's items, so the reporter judges them at the roll-up; a gate test keeps the tolerance rule.
  const baseline = read && (settings.baselineMode === 'tolerance' || !hasItems(read)) ? read : undefined;
  // In a helper, so that the item closure below does not keep the whole dataset alive.
  const dataset = await loadMultiLoKo(settings.data, settings.split);
  // A clause naming no subset of the data is an error; a subset this run did not select stays "not applied".
  const keys = dataset.subsets.map((s) => s.key);
  for (const gate of gates) if (gate.scope.kind === 'subset') requireKnownScope(gate.clause, gate.scope.key, keys, `a subset of ${dataset.location} (split ${dataset.split})`);
  const { groups, jobs } = planGroups(dataset, settings, spec);
  const redact = resolveRedaction(settings.redact).on;
  const weigh = multilokoItemWeigher();
  // Greedy trials measure a server's non-determinism (batching changes GPU numerics): said once, then run.
  if ((settings.trials ?? 1) > 1 && !settings.temperature) console.warn(`[lokal] multiloko: ${settings.trials} greedy trials per item (temperature ${settings.temperature ?? 'unset'}) will agree unless the server is non-deterministic`);

  return {
    groups,
    // The official base prompt is a plain completion prompt: a chat-only server cannot take it (asked once, at collection).
    modelRequirements: (one) =>
      settings.prompt === 'base' && providerRow(parseProviderSpec(one).kind)?.needsServer
        ? [{ capability: 'prompt', problem: (how) => `MultiLoKo's base prompt (LOKAL_PROMPT=base) is a plain completion prompt, and this server takes none (${how}): set LOKAL_PROMPT=chat` }]
        : [],
    // Redacted: the question's hash instead of its text (JUnit, the json reporter and CI logs carry test names).
    testName: redact ? (item) => `${String(item.id)} · ${item.question === undefined ? 'no question' : redactedText(item.question)}` : itemTestName,
    itemId: (item) => String(item.id),
    itemWeight: (item, info) => {
      const { subset, fewshot } = jobs.get(info.key)!;
      return weigh(item, { questionLanguage: subset.questionLanguage, fewshot, shots: settings.shots });
    },
    async itemPrompts(item, info, model) {
      const { subset, fewshot } = jobs.get(info.key)!;
      const mode = await resolvePromptMode(settings.prompt, model);
      if (mode === 'none') return [];
      const { request } = (await loadItemPrompts()).renderItemPrompt(item, subset, { mode, fewshot, shots: settings.shots });
      const prompt = request.messages !== undefined ? { messages: request.messages } : { prompt: request.prompt! };
      // Each of the k trials sends it.
      return Array.from({ length: settings.trials ?? 1 }, () => prompt);
    },
    async runItem(item, info, context) {
      const { subset, fewshot, index } = jobs.get(info.key)!;
      const itemKey = multilokoItemKey(subset.key, item.id);
      const model = await context.model();
      const mode = await resolvePromptMode(settings.prompt, model);
      const rendered = mode === 'none' ? undefined : (await loadItemPrompts()).renderItemPrompt(item, subset, { mode, fewshot, shots: settings.shots });
      const k = settings.trials ?? 1;
      const decoding = { temperature: settings.temperature, topP: settings.topP, seed: settings.seed };
      const request = { ...rendered?.request, maxNewTokens: settings.maxNewTokens, itemKey };
      // The k trials at once: the provider's own limit (LOKAL_CONCURRENCY, the batch size) bounds what runs together.
      // (Plain loops: Array.from({ length }) takes V8's generic path, once per item of a full run.)
      const trialRequests: GenerateRequest[] = [];
      for (let t = 0; t < k; t++) trialRequests.push(trialRequest(request, decoding, String(item.id), t));
      const answers = k === 1 ? [await askModel(model.provider, trialRequests[0]!)] : await Promise.all(trialRequests.map((one) => askModel(model.provider, one)));
      const extract = extractsAnswers(settings.extract, model.kind);
      const prompts = extract ? await loadItemPrompts() : undefined;
      const scoreAnswer = (answer: ItemAnswer) => {
        const scoredText = prompts ? prompts.scoredAnswer(answer.text, { extract, mode, language: subset.questionLanguage, setting: settings.prompt }) : answer.text;
        const scored = scoreExample(scoredText, item.targets);
        // Beside eval.py's f1: the same F1 over words of the question language (ICU word segments).
        scored.scores.f1_words = f1Words(scored.prediction, scored.targets, wordSegmenter(subset.questionLanguage).segmenter);
        // Built key by key in the record's order (37,750 of them in a full run): an object spread in a literal copies
        // through a slow path, a property added after the literal does not.
        const record = { subset: subset.key, id: item.id, index: index.get(item)!, itemKey } as LokalItemRecord;
        if (item.question !== undefined) record.question = item.question;
        record.rawPrediction = answer.text;
        record.answer = scoredText;
        record.prediction = scored.prediction;
        record.prompt = promptUse(mode, subset.questionLanguage, rendered?.fewshot, extract);
        record.targets = scored.targets;
        record.scores = scored.scores;
        record.error = errorCategory(scored.prediction, scored.targets, scored.scores.edit_similarity);
        record.latencyMs = answer.latencyMs;
        record.cached = answer.cached;
        record.missing = answer.missing;
        record.verdict = '';
        record.modelInput = recordedInput(answer.input, redact && settings.recordPrompts !== 'off' ? 'hash' : settings.recordPrompts);
        record.promptTokens = recordedCount(answer.promptTokens);
        record.outputTokens = recordedCount(answer.outputTokens);
        if (answer.server !== undefined) record.server = answer.server;
        // As `lokal score` writes it: chrF scored only the first CHRF_MAX_HYPOTHESIS_CODE_POINTS of a runaway prediction.
        if (scored.truncated) record.truncated = true;
        if (redact) redactRecord(record);
        return { record, scoredText };
      };
      // A replay file with fewer trials of an item than asked: the trials it has (an item with none stays missing).
      const kept: number[] = [];
      for (let t = 0; t < answers.length; t++) if (!answers[t]!.missing) kept.push(t);
      if (kept.length === 0) for (let t = 0; t < answers.length; t++) kept.push(t);
      const scoredTrials = kept.map((t) => scoreAnswer(answers[t]!));
      const { scoredText } = scoredTrials[0]!;
      const record = k === 1 ? scoredTrials[0]!.record : foldTrials(scoredTrials.map((one) => one.record), kept.map((t) => trialRequests[t]!.seed), kept);
      if (k > 1) record.trialsAsked = k;
      record.verdict = k === 1 ? verdictLine(record) : trialVerdictLine(record);
      await context.annotate(record.verdict, record.missing ? 'missing' : record.scores.em === 1 ? 'correct' : 'wrong');
      // Vitest UI fails a wrong answer with this line (src/vitest decides; strict mode fails it below in any runner).
      const wrong = record.scores.em === 1 ? undefined : record.verdict;
      if (!settings.strict) return wrong === undefined ? { record } : { record, wrong };
      if (record.missing) return { record, failures: [`strict mode: no prediction for ${itemKey}`] };
      if (k > 1) return record.scores.em === 1 ? { record } : { record, failures: [`strict mode: not every trial right for ${itemKey}: ${record.verdict}`] };
      // The matcher's message quotes the answer and the targets: redacted, the verdict line says it instead.
      if (redact) return record.scores.em === 1 ? { record } : { record, failures: [`strict mode: wrong answer for ${itemKey}: ${record.verdict}`] };
      return { record, assert: () => context.expect(scoredText).toExactMatch(item.targets) };
    },
    judgeGroup: (aggregate) => groupVerdict(aggregate, aggregate, gates, baseline, settings.baselineTolerance),
  };
}
