// A Kalahi prompt's k trials (LOKAL_TRIALS above 1; docs/kalahi-trials.md): the lettered question asked k times, trial
// t with its options in a seeded order and the letter mapped back before MC1; the reply asked k times with the trial's
// sampling settings; each folded into one record (every trial kept, the figures their means, docs/trials.md's summary).
import { summariseTrials } from '../../../core/statistics/trialSummary.ts';
import { trialRequest, type TrialDecoding } from '../../../models/trialRequest.ts';
import type { ModelProvider } from '../../../models/types.ts';
import type { RecordPrompts } from '../../../models/recordedInput.ts';
import { shorten } from '../../../core/shorten.ts';
import { trialSeed } from '../../../core/trialSeed.ts';
import type { KalahiRow } from '../data/kalahi.ts';
import { measureKalahiGeneration, type GenerationSettings } from './generation.ts';
import { KALAHI_FIGURE_LABELS } from './gates.ts';
import { letterOptions, trialLetterOptions, type LetterOption } from '../prompts/letterChoice.ts';
import { askKalahiLetter } from './mcTask.ts';
import { KALAHI_TABLE_METRICS, type KalahiGenerationRecord, type KalahiGenerationTrial, type KalahiLetterTrial, type KalahiMCRecord, type KalahiMetricRecord } from './records.ts';

/** What the majority vote compares: the option chosen (`the best answer`, `irrelevant answer #1`), or `no letter`. */
function optionName(option: LetterOption | undefined): string {
  if (!option) return 'no letter';
  return option.best ? 'the best answer' : `${option.kind} answer #${option.index + 1}`;
}

/** Each server that answered some trial, once, comma-joined (undefined when none said). */
function servers(names: ReadonlyArray<string | undefined>): string | undefined {
  const all = [...new Set(names.flatMap((s) => (s ?? '').split(',').filter((n) => n !== '')))];
  return all.length > 0 ? all.join(',') : undefined;
}

/** One lettered trial from its record: its order, reply, the letter read and the trial-0 option it names, MC1. */
export function letterTrialOf(record: KalahiMCRecord, trial: number, seed: number | undefined, order: readonly number[], outputTokens: number | null): KalahiLetterTrial {
  const letter = record.letter!;
  const place = letter.options.findIndex((o) => o.letter === letter.chosen);
  return {
    trial,
    ...(seed !== undefined ? { seed } : {}),
    order: [...order],
    answer: letter.answer,
    response: letter.response,
    chosen: letter.chosen,
    option: place < 0 ? null : order[place]!,
    mc1: record.normalised.mc1,
    latencyMs: record.latencyMs,
    cached: record.cached,
    outputTokens,
  };
}

/**
 * The prompt's MC record from its lettered trials (in trial order): the majority option's first trial gives the
 * question and reply shown, MC1 is the mean over the trials, time is summed, and every trial is kept.
 */
export function foldLetterTrials(official: readonly LetterOption[], records: readonly KalahiMCRecord[], trials: readonly KalahiLetterTrial[]): KalahiMCRecord {
  const chosen = trials.map((t) => optionName(t.option === null ? undefined : official[t.option]));
  const summary = summariseTrials(trials.map((t, i) => ({ answer: chosen[i]!, correct: t.mc1 === 1, metrics: { mc1: t.mc1 } })));
  const shownAt = chosen.indexOf(summary.majority);
  const shown = records[shownAt]!;
  const mc1 = summary.means.mc1!;
  const server = servers(records.map((r) => r.server));
  return {
    ...shown,
    normalised: { ...shown.normalised, mc1 },
    nonNormalised: { ...shown.nonNormalised, mc1 },
    latencyMs: records.reduce((sum, r) => sum + r.latencyMs, 0),
    cached: records.every((r) => r.cached),
    ...(server !== undefined ? { server } : {}),
    trials: {
      asked: trials.length,
      options: official.map((o) => ({ ...o })),
      trials: [...trials],
      majority: summary.majority,
      consistency: summary.consistency,
      passAt: summary.passAt,
      passHat: summary.passHat,
      flaky: summary.flaky,
    },
  };
}

/** A trial's reply as kept: its text, status, each metric's max, diff and acc (the per-reference scores left out). */
function generationTrialOf(record: KalahiGenerationRecord, trial: number, seed: number | undefined): KalahiGenerationTrial {
  const metrics: KalahiGenerationTrial['metrics'] = {};
  for (const metric of KALAHI_TABLE_METRICS) {
    const m = record.metrics[metric];
    if (m) metrics[metric] = { max: m.max, diff: m.diff, acc: m.acc };
  }
  return {
    trial,
    ...(seed !== undefined ? { seed } : {}),
    response: record.response,
    status: record.status,
    ...(record.reason !== undefined ? { reason: record.reason } : {}),
    metrics,
    latencyMs: record.latencyMs,
    cached: record.cached,
    missing: record.missing,
    ...(record.outputTokens !== undefined ? { outputTokens: record.outputTokens } : {}),
  };
}

/**
 * The prompt's generation record from its trials' records (in trial order): over the scored trials, each metric's
 * max, diff and acc are their means, pass@k and pass^k take acc as the verdict, and the majority reply's first trial
 * gives the text and per-reference scores shown. No trial scored: the first trial's record, with every trial kept.
 */
export function foldGenerationTrials(records: readonly KalahiGenerationRecord[], seeds: ReadonlyArray<number | undefined>): KalahiGenerationRecord {
  const trials = records.map((r, t) => generationTrialOf(r, t, seeds[t]));
  const scored = records.flatMap((r, t) => (r.status === 'scored' ? [{ record: r, trial: trials[t]! }] : []));
  const tokens = records.map((r) => r.outputTokens);
  const common = {
    latencyMs: records.reduce((sum, r) => sum + r.latencyMs, 0),
    cached: records.every((r) => r.cached),
    missing: records.every((r) => r.missing),
  };
  if (scored.length === 0) {
    const status = records.some((r) => r.status === 'failed') ? 'failed' : 'skipped';
    const first = records.find((r) => r.status === status)!;
    return { ...first, ...common, trials: { asked: records.length, trials, scored: 0, majority: null, consistency: null, passAt: {}, passHat: {}, flaky: [] } };
  }
  const replies = summariseTrials(scored.map(({ record }) => ({ answer: record.response, correct: false, metrics: {} })));
  const shown = scored.find(({ record }) => record.response === replies.majority)!.record;
  const metrics: Partial<Record<(typeof KALAHI_TABLE_METRICS)[number], KalahiMetricRecord>> = {};
  const passAt: NonNullable<KalahiGenerationRecord['trials']>['passAt'] = {};
  const passHat: NonNullable<KalahiGenerationRecord['trials']>['passHat'] = {};
  const flaky: Array<(typeof KALAHI_TABLE_METRICS)[number]> = [];
  for (const metric of KALAHI_TABLE_METRICS) {
    const having = scored.flatMap(({ trial }) => (trial.metrics[metric] ? [trial.metrics[metric]] : []));
    if (having.length === 0) continue;
    const summary = summariseTrials(having.map((m) => ({ answer: '', correct: m.acc === 1, metrics: { max: m.max, diff: m.diff, acc: m.acc } })));
    const own = shown.metrics[metric];
    metrics[metric] = { relevant: own?.relevant ?? [], irrelevant: own?.irrelevant ?? [], max: summary.means.max ?? null, diff: summary.means.diff ?? null, acc: summary.means.acc! };
    passAt[metric] = summary.passAt;
    passHat[metric] = summary.passHat;
    if (summary.flaky) flaky.push(metric);
  }
  return {
    ...shown,
    status: 'scored',
    metrics,
    ...common,
    outputTokens: tokens.every((n) => typeof n === 'number') ? (tokens as number[]).reduce((a, b) => a + b, 0) : (shown.outputTokens ?? null),
    trials: { asked: records.length, trials, scored: scored.length, majority: replies.majority, consistency: replies.consistency, passAt, passHat, flaky },
  };
}

/** The sampling seed trial t sends (trialRequest's), or undefined without LOKAL_SEED. */
const trialSeedOf = (decoding: TrialDecoding, row: Pick<KalahiRow, 'promptVariationId'>, t: number) => (decoding.seed === undefined ? undefined : trialSeed(decoding.seed, row.promptVariationId, t));

/** Asks the lettered question k times (at once: the provider's own limit bounds what runs together) and folds them. */
export async function measureKalahiLetterTrials(model: ModelProvider, row: KalahiRow, itemKey: string, recordPrompts: RecordPrompts | undefined, k: number, decoding: TrialDecoding): Promise<KalahiMCRecord> {
  const official = letterOptions(row);
  // Without LOKAL_SEED the orders still differ by trial and repeat from run to run: base seed 0.
  const shown = Array.from({ length: k }, (_, t) => trialLetterOptions(official, decoding.seed ?? 0, row.promptVariationId, t));
  const asked = await Promise.all(
    shown.map(({ options }, t) => askKalahiLetter(model, row, itemKey, recordPrompts, { options, request: (request) => trialRequest(request, decoding, row.promptVariationId, t) })),
  );
  const trials = asked.map(({ record, outputTokens }, t) => letterTrialOf(record, t, trialSeedOf(decoding, row, t), shown[t]!.order, outputTokens));
  return foldLetterTrials(official, asked.map((a) => a.record), trials);
}

/** Asks for the reply k times with the trial's sampling settings (each its own cache entry) and folds them. */
export async function measureKalahiGenerationTrials(model: ModelProvider, row: KalahiRow, itemKey: string, settings: GenerationSettings, k: number, decoding: TrialDecoding): Promise<KalahiGenerationRecord> {
  const records = await Promise.all(
    Array.from({ length: k }, (_, t) => measureKalahiGeneration(model, row, itemKey, { ...settings, request: (request) => trialRequest(request, decoding, row.promptVariationId, t) })),
  );
  return foldGenerationTrials(records, records.map((_, t) => trialSeedOf(decoding, row, t)));
}

const quote = (text: string) => JSON.stringify(shorten(text, 60));

/** `✓✗✓✓ 3/4 · MC1 0.75 · majority the best answer (3 of 4) · flaky` for a lettered question's trials. */
export function kalahiLetterTrialsVerdict(mc: KalahiMCRecord): string {
  const t = mc.trials!;
  const marks = t.trials.map((one) => (one.mc1 === 1 ? '✓' : '✗')).join('');
  const right = t.trials.filter((one) => one.mc1 === 1).length;
  const chose = Math.round(t.consistency * t.trials.length);
  return `${marks} ${right}/${t.trials.length} · MC1 ${Number(mc.normalised.mc1.toFixed(4))} · majority ${t.majority} (${chose} of ${t.trials.length})${t.flaky ? ' · flaky' : ''}`;
}

/** `BLEU 3/4 · ChrF 4/4 · … · 4 of 4 trials scored · majority "…" · flaky` for a reply's trials (right: acc 1). */
export function kalahiGenerationTrialsVerdict(generation: KalahiGenerationRecord): string {
  const t = generation.trials!;
  if (t.scored === 0) return `∅ no trial scored (${t.trials.map((one) => one.status).join(', ')}) · ${generation.reason ?? ''}`.trimEnd();
  const marks = KALAHI_TABLE_METRICS.flatMap((m) => {
    const acc = t.trials.flatMap((one) => (one.status === 'scored' && one.metrics[m] ? [one.metrics[m].acc] : []));
    return acc.length === 0 ? [] : [`${KALAHI_FIGURE_LABELS[m]} ${acc.filter((a) => a === 1).length}/${acc.length}`];
  });
  return `${marks.join(' · ')} · ${t.scored} of ${t.asked} trials scored · majority ${quote(t.majority ?? '')}${t.flaky.length > 0 ? ' · flaky' : ''}`;
}
