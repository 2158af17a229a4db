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
    })
    .optional(),
  generation: z
    .looseObject({
      response: anything,
      status: anything,
      reason: anything,
      metrics: z.record(z.string(), KalahiMetricRecordSchema.optional()).optional(),
      missing: z.boolean().optional(),
    })
    .optional(),
});
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
