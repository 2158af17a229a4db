// JSON Lines files of the MultiLoKo layout: decode, parse line by line, validate, reject duplicate ids.
import type { z } from 'zod';
import { DataError } from './errors.ts';
import {
  MultiLoKoFewshotItemSchema,
  MultiLoKoItemSchema,
  describeFirstIssue,
  type MultiLoKoFewshotItem,
  type MultiLoKoItem,
} from '../benchmarks/multiloko/data/schema.ts';

/** Strict UTF-8 (as Python's open() on the reference side), a leading BOM tolerated. */
export function decodeUtf8(bytes: Uint8Array, file: string): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (cause) {
    throw new DataError(file, 'is not valid UTF-8 text', { code: 'invalid-encoding', cause });
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * The lines of a text file as Python's text-mode iteration sees them (universal newlines:
 * `\n`, `\r\n` and a lone `\r` end a line), numbered from 1. Blank lines are skipped (eval.py
 * would raise on them; a trailing blank line is a common editor artefact, not a record).
 */
export function* jsonlLines(text: string): Generator<{ line: number; raw: string }> {
  const lines = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    if (raw.trim() === '') continue;
    yield { line: i + 1, raw };
  }
}

/** JSON.parse of one line, a DataError naming file and line when it is not JSON. */
export function parseJsonLine(raw: string, file: string, line: number): unknown {
  try {
    return JSON.parse(raw);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new DataError(file, `malformed JSON: ${reason}`, { line, code: 'invalid-json', cause });
  }
}

function validateRecord<S extends z.ZodType>(schema: S, value: unknown, file: string, line: number): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const problem = describeFirstIssue(value, result.error);
    throw new DataError(file, problem.detail, { line, field: problem.field || undefined, code: 'invalid-record' });
  }
  return result.data;
}

/** Numbers beyond 2^53 have already lost digits in JSON.parse: matching predictions by id would silently fail. */
export function checkIdPrecision(id: string | number, file: string, line: number): void {
  if (typeof id === 'number' && Number.isInteger(id) && !Number.isSafeInteger(id)) {
    throw new DataError(
      file,
      `integer id ${id} is larger than 2^53 and cannot be represented exactly; write it as a string`,
      { line, field: 'id', code: 'invalid-record' },
    );
  }
}

function parseRecords<S extends z.ZodType>(
  bytes: Uint8Array,
  file: string,
  schema: S,
  idOf: (record: z.infer<S>) => string | number | undefined,
): z.infer<S>[] {
  const text = decodeUtf8(bytes, file);
  const records: z.infer<S>[] = [];
  const firstLineOfId = new Map<string, number>();
  for (const { line, raw } of jsonlLines(text)) {
    const record = validateRecord(schema, parseJsonLine(raw, file, line), file, line);
    const id = idOf(record);
    if (id !== undefined) {
      checkIdPrecision(id, file, line);
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
export function parseMultiLoKoJsonl(bytes: Uint8Array, file: string): MultiLoKoItem[] {
  return parseRecords(bytes, file, MultiLoKoItemSchema, (item) => item.id);
}

/** `<lang>/knowledge_fewshot.jsonl`. */
export function parseFewshotJsonl(bytes: Uint8Array, file: string): MultiLoKoFewshotItem[] {
  return parseRecords(bytes, file, MultiLoKoFewshotItemSchema, (item) => item.id);
}
