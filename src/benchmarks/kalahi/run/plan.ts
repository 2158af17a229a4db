// Kalahi's plan for a run (defineBenchmark's `prepare`): the prompt files read, one group per variant with a section
// per category, and how a prompt runs — loaded by the definition only when a suite is declared.
import type { BenchmarkPlan, GroupVerdict, ModelRequirement, PlannedPrompt } from '../../benchmark.ts';
import { requireKnownScope, type ParsedClause } from '../../../core/gates.ts';
import { splitModelList } from '../../../core/modelList.ts';
import { modelSpec } from '../../../models/open.ts';
import { parseProviderSpec, providerRow } from '../../../models/providers.ts';
import { KALAHI_BUDGET_DESCRIPTIONS, KALAHI_TOKEN_BUDGET, resolveKalahiConfig, type KalahiConfig, type KalahiSettings } from './config.ts';
import { KALAHI_VARIANTS, loadKalahi, type KalahiRow } from '../data/kalahi.ts';
import { categoryKey, judgeKalahi, kalahiGate, type KalahiGate } from './gates.ts';
import type { KalahiGenerationRecord, KalahiMCRecord, KalahiPromptRecord, KalahiRunInfo, KalahiSuiteAggregate } from './records.ts';
import { redactedText, resolveRedaction } from '../../../core/redact.ts';
import { kalahiItemKey, kalahiSuiteName, kalahiTestName } from './names.ts';
import { kalahiGenerationVerdict, kalahiMCVerdict } from './verdict.ts';
import { trialRequest } from '../../../models/trialRequest.ts';

/** An MC record as it may be published: every reference's text as its hash; scores untouched. */
function redactMC(mc: KalahiMCRecord): void {
  for (const reference of mc.references) reference.text = redactedText(reference.text);
  if (mc.preferred) mc.preferred.text = redactedText(mc.preferred.text);
  if (mc.letter) {
    mc.letter.response = redactedText(mc.letter.response);
    for (const option of mc.letter.options) option.text = redactedText(option.text);
  }
  if (mc.trials) {
    for (const option of mc.trials.options) option.text = redactedText(option.text);
    for (const trial of mc.trials.trials) trial.response = redactedText(trial.response);
  }
}

/** A generation record as it may be published: the replies as their hashes; scores untouched. */
function redactGeneration(generation: KalahiGenerationRecord): void {
  generation.response = redactedText(generation.response);
  if (generation.trials) {
    for (const trial of generation.trials.trials) trial.response = redactedText(trial.response);
    if (generation.trials.majority !== null) generation.trials.majority = redactedText(generation.trials.majority);
  }
}

/** The trials (above 1) and sampling settings a run asks with, or nothing when it asks as without them. */
function kalahiSampling(settings: KalahiSettings): { sampling?: NonNullable<KalahiRunInfo['sampling']> } {
  const sampling = {
    ...((settings.trials ?? 1) > 1 ? { trials: settings.trials! } : {}),
    ...(settings.temperature !== undefined ? { temperature: settings.temperature } : {}),
    ...(settings.topP !== undefined ? { top_p: settings.topP } : {}),
    ...(settings.seed !== undefined ? { seed: settings.seed } : {}),
  };
  return Object.keys(sampling).length > 0 ? { sampling } : {};
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function variantVerdict(aggregate: KalahiSuiteAggregate, gates: readonly KalahiGate[]): GroupVerdict {
  const judged = judgeKalahi(gates, [aggregate]);
  const parts: string[] = [];
  const mc = aggregate.overall.mc?.normalised;
  if (mc) parts.push(`MC1 ${mc.mc1?.toFixed(4)} · MC2 ${mc.mc2?.toFixed(4) ?? 'NaN'}`);
  const generation = aggregate.overall.generation;
  if (generation) parts.push(`${generation.scored} replies scored`);
  return { summary: `${parts.join(' · ') || 'nothing scored'} over ${aggregate.recorded} prompts`, outcomes: judged.outcomes, notApplied: judged.notApplied };
}

/**
 * What Kalahi's tasks need of a model: MC by log-probabilities scores each answer as the chat reply; MC by letter needs a
 * chat model; generation under max_length cuts the reply by token, so it needs the reply's token log-probabilities.
 */
export function kalahiModelRequirements(config: Pick<KalahiConfig, 'tasks' | 'mcProtocol' | 'budget'>, spec: string): ModelRequirement[] {
  if (providerRow(parseProviderSpec(spec).kind)?.answersFromFile) return [];
  const needs: ModelRequirement[] = [];
  if (config.tasks.includes('mc') && config.mcProtocol === 'logprobs') {
    needs.push({
      capability: 'scoreChat',
      problem: (how) => `Kalahi multiple choice by log-probabilities (LOKAL_KALAHI_MC=logprobs, the default) needs a model that scores a given reply to the prompt, and this one cannot (${how}): set LOKAL_KALAHI_MC=letter (SEA-HELM's lettered question, answered in text) or LOKAL_KALAHI_TASKS=generation`,
    });
  }
  if (config.tasks.includes('mc') && config.mcProtocol === 'letter') {
    needs.push({ capability: 'chat', problem: (how) => `Kalahi multiple choice by letter (LOKAL_KALAHI_MC=letter) asks a chat question, and this model takes no chat messages (${how}): set LOKAL_KALAHI_MC=logprobs or LOKAL_KALAHI_TASKS=generation` });
  }
  if (config.tasks.includes('generation') && config.budget === 'max_length') {
    needs.push({
      capability: 'tokenLogprobs',
      problem: (how) => `Kalahi generation under LOKAL_KALAHI_BUDGET=max_length (${KALAHI_TOKEN_BUDGET} tokens counting the prompt) cuts the reply by token, which needs its per-token log-probabilities and the prompt's token count, and this model returns none (${how}): set LOKAL_KALAHI_BUDGET=new_tokens`,
    });
  }
  return needs;
}

export async function prepareKalahi(settings: KalahiSettings, clauses: ParsedClause[]): Promise<BenchmarkPlan<KalahiRow, KalahiRunInfo, KalahiPromptRecord, KalahiSuiteAggregate>> {
  const resolved = resolveKalahiConfig(settings);
  // Configuration mistakes fail the file once, at collection, instead of every prompt test.
  const spec = modelSpec(settings);
  // Several models (LOKAL_MODEL=a,b) run the same tasks, so a replay file among them sets them for all.
  const fromFile = splitModelList(spec)
    .map((one) => providerRow(parseProviderSpec(one).kind)?.answersFromFile)
    .some(Boolean);
  // A replay file has replies but no log-probabilities: without an explicit task list it runs the generation task only.
  const config = fromFile && settings.tasks === undefined ? { ...resolved, tasks: ['generation' as const] } : resolved;
  if (fromFile && config.tasks.includes('mc')) {
    const needs = config.mcProtocol === 'letter' ? "the model's reply to each lettered question (LOKAL_KALAHI_MC=letter), which a replay file" : 'log-probabilities, which a replay file';
    throw new Error(`Kalahi multiple choice needs ${needs} (${spec}) has none of: set LOKAL_KALAHI_TASKS=generation, or use a transformers: or openai: model`);
  }
  const gates = clauses.map(kalahiGate);
  const groups = [];
  const knownCategories = new Set<string>();
  for (const [order, variant] of config.variants.entries()) {
    const dataset = await loadKalahi(config.location, variant);
    for (const row of dataset.rows) knownCategories.add(categoryKey(row.category));
    const rows = settings.limit === undefined ? dataset.rows : dataset.rows.slice(0, settings.limit);
    const categories = [...new Set(rows.map((r) => r.category))];
    const info: KalahiRunInfo = {
      benchmark: 'kalahi',
      key: variant,
      name: kalahiSuiteName(variant),
      variant,
      file: dataset.file,
      ...(dataset.sha256 ? { sha256: dataset.sha256 } : {}),
      order,
      selected: rows.length,
      total: dataset.rows.length,
      categories,
      model: spec,
      tasks: config.tasks,
      ...(config.tasks.includes('mc') ? { mcProtocol: config.mcProtocol } : {}),
      budget: { kind: config.budget, tokens: KALAHI_TOKEN_BUDGET, description: KALAHI_BUDGET_DESCRIPTIONS[config.budget] },
      labels: { rougeL: 'rougeLsum', chrf: config.chrf === 'chrf++' ? 'chrF++' : 'chrF' },
      learnedModels: config.learnedModels,
      strict: settings.strict,
      thresholds: settings.thresholds,
      // For the fingerprint: the sampling settings and trials, where set (none: the requests of a run without them).
      ...kalahiSampling(settings),
    };
    groups.push({ info, items: rows, sections: categories.map((category) => ({ name: category, items: rows.filter((r) => r.category === category) })) });
  }
  // A category no variant has (a typo, or a misspelt variant) is an error; a variant this run did not select is not.
  for (const gate of gates) {
    if (gate.category !== undefined) requireKnownScope(gate.clause, gate.category, [...KALAHI_VARIANTS, ...knownCategories], 'a Kalahi variant or category');
  }
  const redact = resolveRedaction(settings.redact).on;
  // Redacted, prompts are recorded by their hash at most.
  const recordPrompts = redact && settings.recordPrompts !== 'off' ? 'hash' : settings.recordPrompts;
  // Loaded on first use: the learned metrics and the MC/generation tasks pull in metric and model modules.
  const tasks = import('./tasks.ts');
  const k = settings.trials ?? 1;
  const decoding = { temperature: settings.temperature, topP: settings.topP, seed: settings.seed };
  const letterTrials = k > 1 && config.tasks.includes('mc') && config.mcProtocol === 'letter';
  const generationTrials = k > 1 && config.tasks.includes('generation');
  // Scoring every answer by log-probability draws nothing, so its trials would repeat one another: said once, scored once.
  if (k > 1 && config.tasks.includes('mc') && config.mcProtocol === 'logprobs') {
    console.warn(`[lokal] kalahi: multiple choice by log-probabilities is deterministic scoring, not sampling: each prompt's MC is scored once, not ${k} times (LOKAL_KALAHI_MC=letter asks ${k} trials)`);
  }
  // Greedy replies measure a server's non-determinism only (the lettered trials differ by their option order anyway).
  if (generationTrials && !settings.temperature) console.warn(`[lokal] kalahi: ${k} greedy generation trials per prompt (temperature ${settings.temperature ?? 'unset'}) will agree unless the server is non-deterministic`);

  return {
    groups,
    modelRequirements: (one) => kalahiModelRequirements(config, one),
    testName: redact ? (row) => `${row.promptVariationId} · ${row.category}` : kalahiTestName,
    itemId: (row) => row.promptVariationId,
    async itemPrompts(row) {
      const { kalahiMessages, letterMessages, letterOptions } = await tasks;
      const prompts: PlannedPrompt[] = [];
      // MC by log-probabilities scores each answer after this prompt (the answers are not counted); generation replies to it.
      if (config.tasks.includes('mc')) prompts.push({ messages: config.mcProtocol === 'letter' ? letterMessages(row, letterOptions(row)) : kalahiMessages(row) });
      if (config.tasks.includes('generation')) prompts.push({ messages: kalahiMessages(row) });
      return prompts;
    },
    async runItem(row, info, context) {
      const { measureKalahiMC, measureKalahiLetter, measureKalahiGeneration, measureKalahiLetterTrials, measureKalahiGenerationTrials, kalahiLetterTrialsVerdict, kalahiGenerationTrialsVerdict, learnedScorers } = await tasks;
      const model = (await context.model()).provider;
      const itemKey = kalahiItemKey(row.promptVariationId);
      const record: KalahiPromptRecord = {
        suite: info.variant,
        promptVariationId: row.promptVariationId,
        promptId: row.promptId,
        category: row.category,
        topic: row.topic,
        prompt: row.prompt,
        row: row.row,
        itemKey,
      };
      const failures: string[] = [];
      // MC1 = 0: the verdict line Vitest UI fails the prompt test with (src/vitest decides).
      let wrong: string | undefined;
      if (config.tasks.includes('mc')) {
        try {
          record.mc =
            letterTrials ? await measureKalahiLetterTrials(model, row, itemKey, recordPrompts, k, decoding)
            : config.mcProtocol === 'letter' ? await measureKalahiLetter(model, row, itemKey, recordPrompts, (request) => trialRequest(request, decoding, row.promptVariationId, 0))
            : await measureKalahiMC(model, row, itemKey, recordPrompts);
          if (redact) redactMC(record.mc);
          const verdict = `MC ${record.mc.trials ? kalahiLetterTrialsVerdict(record.mc) : kalahiMCVerdict(record.mc)}`;
          await context.annotate(verdict, record.mc.normalised.mc1 === 1 ? 'mc-correct' : 'mc-wrong');
          if (record.mc.normalised.mc1 !== 1) wrong = verdict;
          if (settings.strict && record.mc.normalised.mc1 !== 1) {
            const preferred = record.mc.preferred;
            const best = redact ? redactedText(row.bestAnswer) : row.bestAnswer;
            const what = preferred ? `prefers ${preferred.kind} answer ${JSON.stringify(preferred.text)}` : `named no letter (${JSON.stringify(record.mc.letter?.response ?? '')})`;
            failures.push(record.mc.trials ? `strict mode: not every trial chose the best answer: ${verdict}` : `strict mode: MC1 = 0, the model ${what} over the best answer ${JSON.stringify(best)}`);
          }
        } catch (error) {
          failures.push(`multiple choice: ${message(error)}`);
        }
      }
      if (config.tasks.includes('generation')) {
        try {
          const learned = await learnedScorers(config.learnedModels);
          const generationSettings = { budget: config.budget, chrf: config.chrf, learned, recordPrompts };
          record.generation =
            generationTrials ? await measureKalahiGenerationTrials(model, row, itemKey, generationSettings, k, decoding)
            : await measureKalahiGeneration(model, row, itemKey, { ...generationSettings, request: (request) => trialRequest(request, decoding, row.promptVariationId, 0) });
          if (redact) redactGeneration(record.generation);
          const verdict = record.generation.trials ? kalahiGenerationTrialsVerdict(record.generation) : kalahiGenerationVerdict(record.generation);
          await context.annotate(`generation ${verdict}`, `generation-${record.generation.status}`);
          // The reference aborts the whole metric loop on such an error; here only this prompt fails (docs/metrics.md#kalahi-quirks).
          if (record.generation.status === 'failed') failures.push(`generation metrics: ${record.generation.reason}`);
          const failedTrials = record.generation.trials?.trials.filter((t) => t.status === 'failed') ?? [];
          if (record.generation.status !== 'failed' && failedTrials.length > 0) failures.push(`generation metrics of trial ${failedTrials[0]!.trial}: ${failedTrials[0]!.reason}`);
        } catch (error) {
          failures.push(`generation: ${message(error)}`);
        }
      }
      const name = redact ? row.promptVariationId : kalahiTestName(row);
      if (redact) {
        record.topic = redactedText(record.topic);
        record.prompt = redactedText(row.prompt);
      }
      return { record, failures: failures.length > 0 ? [`${name}: ${failures.join('; ')}`] : [], ...(wrong === undefined ? {} : { wrong }) };
    },
    judgeGroup: (aggregate) => variantVerdict(aggregate, gates),
    async close() {
      await (await tasks).closeLearnedScorers();
    },
  };
}
