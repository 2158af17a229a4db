// Prediction files in the official eval.py input format: JSONL or CSV rows of {language, id, prediction}.
import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import { DataError, type DataErrorCode } from '../../../data/errors.ts';
import { decodeUtf8, jsonlLines, parseJsonLine } from '../../../data/jsonl.ts';

export interface PredictionRow {
  /** eval.py language key: a folder name or a translated-subset key such as `italian_translated_human_english`. */
  language: string;
  /** JSON ids keep their type; CSV ids are always strings (as in the reference). */
  id: string | number;
  prediction: string;
  /** 1-based line (JSONL) or record line (CSV) in the file, for messages. */
  line: number;
}

const PredictionSchema = z.object({
  language: z.string().min(1, 'must be a non-empty string'),
  id: z.union([z.string().min(1, 'must be a non-empty string'), z.number()]),
  prediction: z.string(),
});

/** Bad prediction files raise the data layer's DataError (file, line, field). */
function predictionError(file: string, line: number | undefined, field: string | undefined, detail: string, code: DataErrorCode): DataError {
  return new DataError(file, detail, { ...(line === undefined ? {} : { line }), ...(field ? { field } : {}), code });
}

function validate(file: string, line: number, value: unknown): PredictionRow {
  const parsed = PredictionSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.') || undefined;
    const detail = issue.code === 'invalid_type' && issue.input === undefined ? 'is missing' : issue.message;
    throw predictionError(file, line, field, `${detail} (expected {language, id, prediction})`, 'invalid-record');
  }
  return { ...parsed.data, line };
}

export function parsePredictionsJsonl(text: string, file: string): PredictionRow[] {
  const rows: PredictionRow[] = [];
  for (const { line, raw } of jsonlLines(text)) rows.push(validate(file, line, parseJsonLine(raw, file, line)));
  return rows;
}

export function parsePredictionsCsv(text: string, file: string): PredictionRow[] {
  let records: Array<{ record: Record<string, string>; info: { lines: number } }>;
  try {
    records = parse(text, { columns: true, skip_empty_lines: true, bom: true, info: true }) as typeof records;
  } catch (error) {
    const e = error as Error & { lines?: number };
    throw predictionError(file, e.lines, undefined, `malformed CSV: ${e.message}`, 'invalid-record');
  }
  if (records.length > 0) {
    for (const column of ['language', 'id', 'prediction']) {
      if (!(column in records[0]!.record)) {
        throw predictionError(file, 1, column, 'column is missing from the header (expected language,id,prediction)', 'invalid-record');
      }
    }
  }
  return records.map(({ record, info }) => validate(file, info.lines, record));
}

/** Reads a predictions file; `.csv` by extension, JSONL otherwise (as eval.py decides). */
export async function readPredictions(file: string): Promise<PredictionRow[]> {
  const bytes = await readFile(file).catch((error: NodeJS.ErrnoException) => {
    throw predictionError(file, undefined, undefined, `cannot read predictions file (${error.code ?? error.message})`, 'not-found');
  });
  // Strict UTF-8 as Python's open() reads it (a BOM is tolerated): bad bytes are an error, not U+FFFD.
  const text = decodeUtf8(bytes, file);
  return file.endsWith('.csv') ? parsePredictionsCsv(text, file) : parsePredictionsJsonl(text, file);
}
