// JSON Lines files of the MultiLoKo layout: decode, parse line by line, validate with zod, reject duplicate ids.
// (The loaders read files with quickJsonlRecords first and come here only for a file it cannot take, to name the problem.)
import type { z } from 'zod';
import { DataError } from './errors.ts';
import { checkIdPrecision, decodeUtf8, jsonlLines, parseJsonLine } from './jsonlText.ts';
import {
  MultiLoKoFewshotItemSchema,
  MultiLoKoQuestionSchema,
  describeFirstIssue,
  type MultiLoKoFewshotItem,
  type MultiLoKoQuestion,
} from '../benchmarks/multiloko/data/schema.ts';
import { RESERVED_ITEM_IDS } from '../benchmarks/multiloko/data/reservedIds.ts';

// The zod-free helpers live in jsonlText.ts (the loaders' hot path); re-exported here for existing importers.
export { checkIdPrecision, decodeUtf8, jsonlLines, parseJsonLine };

function validateRecord<S extends z.ZodType>(schema: S, value: unknown, file: string, line: number): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const problem = describeFirstIssue(value, result.error);
    throw new DataError(file, problem.detail, { line, field: problem.field || undefined, code: 'invalid-record' });
  }
  return result.data;
}

function parseRecords<S extends z.ZodType>(
  bytes: Uint8Array,
  file: string,
  schema: S,
  idOf: (record: z.infer<S>) => string | number | undefined,
  reservedIds?: ReadonlySet<string>,
): z.infer<S>[] {
  const text = decodeUtf8(bytes, file);
  const records: z.infer<S>[] = [];
  const firstLineOfId = new Map<string, number>();
  for (const { line, raw } of jsonlLines(text)) {
    const record = validateRecord(schema, parseJsonLine(raw, file, line), file, line);
    const id = idOf(record);
    if (id !== undefined) {
      checkIdPrecision(id, file, line);
      if (typeof id === 'string' && reservedIds?.has(id)) {
        throw new DataError(file, `id ${JSON.stringify(id)} cannot be written in eval.py's results layout, where a language's ${id === '__proto__' ? 'object cannot hold that key' : `"${id}" key is its mean`}: rename the item`, {
          line,
          field: 'id',
          code: 'invalid-record',
        });
      }
      // Python dict semantics: 7 and "7" are different keys.
      const key = `${typeof id}:${id}`;
      const first = firstLineOfId.get(key);
      if (first !== undefined) {
        throw new DataError(file, `duplicate id ${JSON.stringify(id)} (first used on line ${first})`, {
          line,
          field: 'id',
          code: 'duplicate-id',
        });
      }
      firstLineOfId.set(key, line);
    }
    records.push(record);
  }
  return records;
}

/** A question file: `<lang>/<split>.jsonl` or one of its translations. */
export function parseMultiLoKoJsonl(bytes: Uint8Array, file: string): MultiLoKoQuestion[] {
  return parseRecords(bytes, file, MultiLoKoQuestionSchema, (item) => item.id, RESERVED_ITEM_IDS);
}

/** `<lang>/knowledge_fewshot.jsonl`. */
export function parseFewshotJsonl(bytes: Uint8Array, file: string): MultiLoKoFewshotItem[] {
  return parseRecords(bytes, file, MultiLoKoFewshotItemSchema, (item) => item.id);
}
