// kalahi.json's zod schema (results.ts writes it): what the report, `lokal compare` and the baseline read, typed;
// every other field is kept as it is, so a file of an older or newer release still reads.
import { z } from 'zod';
import { GateOutcomeJsonSchema } from '../../core/resultsFile.ts';

const figure = z.number().nullable();
const anything = z.unknown().optional();

/** One generation metric of a prompt: scores against the relevant and irrelevant references, max, diff, acc. */
const KalahiMetricRecordSchema = z.looseObject({
  relevant: z.array(figure).optional(),
  irrelevant: z.array(figure).optional(),
  max: figure.optional(),
  diff: figure.optional(),
  acc: figure.optional(),
});

const reference = z.looseObject({ kind: anything, index: anything, text: anything, best: anything, logprob: anything, score: anything });

/** One prompt's record (records.ts's KalahiPromptRecord): its ids, the MC scores and the generation's metrics. */
const KalahiPromptRecordSchema = z.looseObject({
  suite: z.string().optional(),
  promptVariationId: anything,
  promptId: anything,
  category: anything,
  topic: anything,
  row: z.number().optional(),
  prompt: anything,
  mc: z
    .looseObject({
      normalised: z.record(z.string(), figure).optional(),
      nonNormalised: z.record(z.string(), figure).optional(),
      preferred: reference.nullable().optional(),
      references: z.array(reference).optional(),
      letter: z.looseObject({ options: z.array(z.looseObject({ letter: anything, text: anything })).optional(), answer: anything, response: anything, chosen: anything }).optional(),
      // LOKAL_TRIALS above 1, letter protocol: every trial's option order, reply, chosen option and MC1.
      trials: z
        .looseObject({
          asked: z.number().optional(),
          options: z.array(z.looseObject({ letter: anything, text: anything })).optional(),
          trials: z.array(z.looseObject({ trial: z.number(), order: z.array(z.number()).optional(), answer: anything, response: anything, chosen: anything, option: z.number().nullable().optional(), mc1: figure.optional() })).optional(),
          majority: anything,
          flaky: z.boolean().optional(),
        })
        .optional(),
    })
    .optional(),
  generation: z
    .looseObject({
      response: anything,
      status: anything,
      reason: anything,
      metrics: z.record(z.string(), KalahiMetricRecordSchema.optional()).optional(),
      missing: z.boolean().optional(),
      // LOKAL_TRIALS above 1: every trial's reply and its metrics' max, diff and acc.
      trials: z
        .looseObject({
          asked: z.number().optional(),
          scored: z.number().optional(),
          trials: z.array(z.looseObject({ trial: z.number(), response: anything, status: anything, metrics: z.record(z.string(), KalahiMetricRecordSchema.optional()).optional() })).optional(),
          majority: anything,
        })
        .optional(),
    })
    .optional(),
});

/** A figure over trials with its bootstrap interval (trialFigures.ts). */
const trialFigure = z.looseObject({ value: z.number(), low: z.number(), high: z.number() });
/** What every trial figure of a group states: prompts, trial counts, flaky prompts, pass@k, pass^k, variance within prompts. */
const trialCounts = {
  prompts: z.number().optional(),
  fewest_trials: z.number().optional(),
  most_trials: z.number().optional(),
  prompts_short: z.number().optional(),
  flaky: z.number().optional(),
  pass_at: z.record(z.string(), trialFigure).optional(),
  pass_hat: z.record(z.string(), trialFigure).optional(),
  within_share: figure.optional(),
};

/** A group's trial figures (present only with LOKAL_TRIALS above 1): MC1 of the lettered trials, each generation metric. */
export const KalahiGroupTrialsSchema = z.looseObject({
  asked: z.number().optional(),
  mc: z.looseObject({ ...trialCounts, mc1: trialFigure.optional(), by_position: z.record(z.string(), z.looseObject({ trials: z.number(), mc1: figure })).optional() }).optional(),
  generation: z.record(z.string(), z.looseObject({ ...trialCounts, acc: trialFigure.optional(), max: trialFigure.nullable().optional(), diff: trialFigure.nullable().optional() }).optional()).optional(),
});
export type KalahiGroupTrialsJson = z.infer<typeof KalahiGroupTrialsSchema>;
export type KalahiRecordJson = z.infer<typeof KalahiPromptRecordSchema>;

/** A group's figures (the variant overall, or one category). */
const KalahiGroupSchema = z.looseObject({
  prompts: z.number().optional(),
  table: z.looseObject({ mc: z.record(z.string(), figure).optional(), generation: z.record(z.string(), figure).optional() }).optional(),
  mc: z.record(z.string(), z.unknown()).optional(),
  generation: z
    .looseObject({
      scored: z.number().optional(),
      skipped: z.number().optional(),
      failed: z.number().optional(),
      metrics: z.record(z.string(), z.looseObject({ acc: figure.optional(), max: figure.optional(), diff: figure.optional() }).optional()).optional(),
    })
    .optional(),
  trials: KalahiGroupTrialsSchema.optional(),
});
export type KalahiGroupJson = z.infer<typeof KalahiGroupSchema>;

/** One variant's section: its file, model, settings, figures, per-category figures and every prompt's record. */
const KalahiVariantSchema = KalahiGroupSchema.extend({
  file: anything,
  model: anything,
  tasks: anything,
  items: z.record(z.string(), z.unknown()).optional(),
  settings: z
    .looseObject({
      chrf: anything,
      rougeL: anything,
      learned: z.record(z.string(), z.looseObject({ model: anything, computed: anything, reason: anything })).optional(),
    })
    .optional(),
  by_category: z.record(z.string(), KalahiGroupSchema).optional(),
  records: z.array(KalahiPromptRecordSchema).optional(),
});
export type KalahiVariantJson = z.infer<typeof KalahiVariantSchema>;

/** kalahi.json. */
export const KalahiResultsSchema = z.looseObject({
  benchmark: anything,
  variants: z.record(z.string(), KalahiVariantSchema).optional(),
  gates: z.array(GateOutcomeJsonSchema).optional(),
  gates_not_applied: anything,
  gates_passed: anything,
  fingerprint: anything,
});
export type KalahiResultsJson = z.infer<typeof KalahiResultsSchema>;
