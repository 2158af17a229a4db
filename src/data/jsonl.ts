// JSON Lines files of records with an id: decode, parse line by line, validate with a zod schema, reject duplicate and
// reserved ids. A benchmark passes its schema and messages (MultiLoKo's: src/benchmarks/multiloko/data/jsonl.ts).
// (The loaders read files with quickJsonlRecords first and come here only for a file it cannot take, to name the problem.)
import type { z } from 'zod';
import { DataError } from './errors.ts';
import { checkIdPrecision, decodeUtf8, jsonlLines, parseJsonLine } from './jsonlText.ts';

// The zod-free helpers live in jsonlText.ts (the loaders' hot path); re-exported here for existing importers.
export { checkIdPrecision, decodeUtf8, jsonlLines, parseJsonLine };

/** How a benchmark reads its records: the schema, the id, and the messages for a bad record or a reserved id. */
interface JsonlRecordRules<S extends z.ZodType> {
  schema: S;
  idOf: (record: z.infer<S>) => string | number | undefined;
  /** The field and message for the first problem zod found in `record`. */
  describeIssue: (record: unknown, error: z.ZodError) => { field: string; detail: string };
  /** Why a string id cannot be used (a reserved name), or undefined. */
  reservedIdProblem?: (id: string) => string | undefined;
}

function validateRecord<S extends z.ZodType>(rules: JsonlRecordRules<S>, value: unknown, file: string, line: number): z.infer<S> {
  const result = rules.schema.safeParse(value);
  if (!result.success) {
    const problem = rules.describeIssue(value, result.error);
    throw new DataError(file, problem.detail, { line, field: problem.field || undefined, code: 'invalid-record' });
  }
  return result.data;
}

/** Every record of a JSON Lines file, validated by `rules`; the first problem is a DataError naming file, line and field. */
export function parseJsonlRecords<S extends z.ZodType>(bytes: Uint8Array, file: string, rules: JsonlRecordRules<S>): z.infer<S>[] {
  const text = decodeUtf8(bytes, file);
  const records: z.infer<S>[] = [];
  const firstLineOfId = new Map<string, number>();
  for (const { line, raw } of jsonlLines(text)) {
    const record = validateRecord(rules, parseJsonLine(raw, file, line), file, line);
    const id = rules.idOf(record);
    if (id !== undefined) {
      checkIdPrecision(id, file, line);
      const reserved = typeof id === 'string' ? rules.reservedIdProblem?.(id) : undefined;
      if (reserved !== undefined) {
        throw new DataError(file, reserved, {
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
