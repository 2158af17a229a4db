// JSON Lines text without zod: strict UTF-8, universal-newline lines, JSON per line, id precision — and the quick
// reader the loaders try first (plain record checks; any problem sends the file to jsonl.ts, which names it).
import { DataError } from './errors.ts';

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

/**
 * The records of a JSONL file when it has no problem at all: strict UTF-8, every non-blank line JSON that `check`
 * accepts (check returns the record, or undefined), ids neither repeated nor beyond 2^53. At the first problem it
 * returns undefined without a message: the caller then reads the file with the validating parser of jsonl.ts (zod),
 * which finds the same problem and names file, line and field.
 */
export function quickJsonlRecords<T>(
  bytes: Uint8Array,
  check: (value: unknown) => T | undefined,
  idOf: (record: T) => string | number | undefined,
  reservedIds?: ReadonlySet<string>,
): T[] | undefined {
  let text: string;
  try {
    text = decodeUtf8(bytes, '');
  } catch {
    return undefined;
  }
  const records: T[] = [];
  // Python dict semantics, as parseRecords: 7 and "7" are different keys (one Set per type, no key string per id).
  const stringIds = new Set<string>();
  const numberIds = new Set<number>();
  // jsonlLines' lines, without a generator step and a {line, raw} object per line (no line numbers are needed here).
  const lines = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    if (raw.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      return undefined;
    }
    const record = check(value);
    if (record === undefined) return undefined;
    const id = idOf(record);
    if (id !== undefined) {
      if (typeof id === 'string' && reservedIds?.has(id)) return undefined;
      if (typeof id === 'number') {
        if (Number.isInteger(id) && !Number.isSafeInteger(id)) return undefined;
        if (numberIds.has(id)) return undefined;
        numberIds.add(id);
      } else {
        if (stringIds.has(id)) return undefined;
        stringIds.add(id);
      }
    }
    records.push(record);
  }
  return records;
}
