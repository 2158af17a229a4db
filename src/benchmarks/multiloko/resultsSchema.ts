// multiloko.json's zod schema (a run's file and `lokal score`'s): what the report, `lokal compare` and the baseline
// read, typed; every other field is kept as it is, so a file of an older or newer release still reads.
import { z } from 'zod';
import { GateOutcomeJsonSchema } from '../../core/resultsFile.ts';

const score = z.number().nullable().optional();

/** One item of a language entry: eval.py's record (docs/metrics.md), plus `missing`, `error` and the prompt fed. */
const MultiLoKoItemRecordSchema = z.looseObject({
  em: score,
  f1: score,
  bleu: score,
  chrf: score,
  edit_distance: score,
  edit_similarity: score,
  edit_distance_first: score,
  f1_words: score,
  targets: z.union([z.array(z.string()), z.string()]).optional(),
  prediction: z.string().optional(),
  missing: z.boolean().optional(),
  error: z.string().optional(),
  question: z.unknown().optional(),
  raw_prediction: z.unknown().optional(),
  rawPrediction: z.unknown().optional(),
  answer: z.unknown().optional(),
  prompt: z.unknown().optional(),
  /** With trials (docs/trials.md): each trial's EM and normalised answer; the record's scores are their means. */
  trials: z.array(z.looseObject({ em: z.number(), prediction: z.string(), missing: z.boolean().optional() })).optional(),
});
export type MultiLoKoItemRecord = z.infer<typeof MultiLoKoItemRecordSchema>;

/** A language entry: item id → its record, beside the language's means (`em`, `f1`, …). */
const MultiLoKoLanguageSchema = z.record(z.string(), z.union([z.number(), z.null(), MultiLoKoItemRecordSchema]));

/** A run's `summary` (rollup.ts's RunSummary); absent in `lokal score` output. */
const MultiLoKoSummarySchema = z.looseObject({
  model: z.string().nullable().optional(),
  split: z.string().optional(),
  headline: z.record(z.string(), z.unknown()).nullable().optional(),
  subsets: z.array(z.record(z.string(), z.unknown())).optional(),
  gates: z.array(GateOutcomeJsonSchema).optional(),
  gates_not_applied: z.array(z.string()).optional(),
  gates_passed: z.boolean().optional(),
  prompt: z.record(z.string(), z.unknown()).optional(),
  items: z.record(z.string(), z.unknown()).optional(),
  fingerprint: z.unknown().optional(),
  local_vs_english: z.unknown().optional(),
});

/** Top-level keys that are not languages: eval.py's aggregates, a run's summary, `lokal score`'s own section. */
const NOT_LANGUAGES: ReadonlySet<string> = new Set(['group_metrics', 'summary', 'lokal']);

/**
 * multiloko.json: language key → records and means, `group_metrics`, `summary` (a run's) and `lokal` (`lokal score`'s).
 * Every other object-valued key is a language entry and is checked as one; scalars there are left alone, as readers skip them.
 */
export const MultiLoKoResultsSchema = z
  .object({
    summary: MultiLoKoSummarySchema.optional(),
    group_metrics: z.record(z.string(), z.number().nullable()).optional(),
    lokal: z.record(z.string(), z.unknown()).optional(),
  })
  .catchall(z.unknown())
  .superRefine((value, ctx) => {
    for (const [key, entry] of Object.entries(value)) {
      if (NOT_LANGUAGES.has(key) || entry === null || typeof entry !== 'object' || Array.isArray(entry)) continue;
      const parsed = MultiLoKoLanguageSchema.safeParse(entry);
      if (!parsed.success) for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, path: [key, ...issue.path] } as z.core.$ZodRawIssue);
    }
  });
export type MultiLoKoResultsJson = z.infer<typeof MultiLoKoResultsSchema>;
