// zod schemas for MultiLoKo records, and the translation of zod issues into messages that name the field.
import { z } from 'zod';
import { describeJsonValue, previewJson as preview } from '../../../data/describeJsonValue.ts';


/**
 * One question of a MultiLoKo file (`<lang>/<split>.jsonl` and the translated files).
 * The official README documents six fields: text, question, targets, target, id, output_type.
 * `id` and `targets` are what eval.py reads, so they are required; the rest are optional and
 * any further field a file carries is kept as is (loose object).
 */
export const MultiLoKoQuestionSchema = z.looseObject({
  /** The Wikipedia page the question was written from, with its rank in the locale (e.g. `004_tg_norba_24.txt`). */
  id: z.union([z.string(), z.number()]),
  /** Accepted short answers; a plain string is rejected because eval.py would score it character by character. */
  targets: z.array(z.string()).min(1),
  /** The question itself. */
  question: z.string().optional(),
  /** The paragraph the question was created from. */
  text: z.string().optional(),
  /** A long answer (usable for chain-of-thought); less checked than `targets`. */
  target: z.string().optional(),
  /** The expected kind of answer in the question's language (e.g. `una data`), used by the official prompts. */
  output_type: z.string().optional(),
});
export type MultiLoKoQuestion = z.infer<typeof MultiLoKoQuestionSchema>;

/**
 * One example of `<lang>/knowledge_fewshot.jsonl`. Its exact shape is not documented; the official
 * prompt examples (examples/prompts.py) use question/answer/output_type, the question files use
 * question/targets/target. So: a question and at least one answer field, everything else optional.
 */
export const MultiLoKoFewshotItemSchema = z
  .looseObject({
    id: z.union([z.string(), z.number()]).optional(),
    question: z.string(),
    targets: z.array(z.string()).min(1).optional(),
    answer: z.string().optional(),
    target: z.string().optional(),
    text: z.string().optional(),
    output_type: z.string().optional(),
  })
  .refine((item) => item.targets !== undefined || item.answer !== undefined || item.target !== undefined, {
    message: 'needs an answer: one of "targets", "answer" or "target"',
    path: ['targets'],
  });
export type MultiLoKoFewshotItem = z.infer<typeof MultiLoKoFewshotItemSchema>;

/** A readable field path: `targets[1]`, `meta.source`. */
function formatFieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

function valueAt(record: unknown, path: readonly PropertyKey[]): unknown {
  let value = record;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

interface RecordProblem {
  /** Empty for a problem with the record as a whole. */
  field: string;
  detail: string;
}

/** The first problem zod found, phrased for a person editing the file. */
export function describeFirstIssue(record: unknown, error: z.ZodError): RecordProblem {
  const issue = error.issues[0]!;
  const path = issue.path;
  const field = formatFieldPath(path);
  const actual = valueAt(record, path);
  if (path.length === 0) {
    return { field: '', detail: `expected a JSON object on this line, got ${describeJsonValue(record)}` };
  }
  if (issue.code === 'custom') return { field, detail: issue.message };
  const top = String(path[0]);
  const isPresent = record !== null && typeof record === 'object' && Object.hasOwn(record, top);
  if (path.length === 1 && !isPresent) {
    return { field, detail: `is required but missing (${requirementOf(top)})` };
  }
  if (top === 'targets' && path.length === 1) {
    if (typeof actual === 'string') {
      return {
        field,
        detail: `must be a list of strings, got a plain string (${preview(JSON.stringify(actual))}); eval.py would score it character by character: write [${preview(JSON.stringify(actual))}]`,
      };
    }
    if (Array.isArray(actual) && actual.length === 0) {
      return { field, detail: 'must list at least one accepted answer, got an empty list []' };
    }
    return { field, detail: `must be a non-empty list of strings, got ${describeJsonValue(actual)}` };
  }
  if (top === 'targets') return { field, detail: `must be a string, got ${describeJsonValue(actual)}` };
  if (top === 'id') return { field, detail: `must be a string or a number, got ${describeJsonValue(actual)}` };
  if (issue.code === 'invalid_type') {
    return { field, detail: `must be a ${issue.expected}${path.length === 1 ? ' when present' : ''}, got ${describeJsonValue(actual)}` };
  }
  return { field, detail: `${issue.message} (got ${describeJsonValue(actual)})` };
}

function requirementOf(field: string): string {
  if (field === 'id' || field === 'targets') return 'every question needs "id" and a non-empty "targets" list';
  if (field === 'question') return 'every few-shot example needs a "question"';
  return 'required field';
}
