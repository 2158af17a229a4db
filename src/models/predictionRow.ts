// One row of a predictions file ({language, id, prediction}), checked field by field, and the errors a bad file raises;
// shared by the JSONL reader (predictions.ts) and the CSV reader (predictionsCsv.ts).
import { DataError, type DataErrorCode } from '../data/errors.ts';
import { checkIdPrecision } from '../data/jsonlText.ts';
import { describeJsonValue } from '../data/describeJsonValue.ts';

export interface PredictionRow {
  /** eval.py language key: a folder name or a translated-subset key such as `italian_translated_human_english`. */
  language: string;
  /** JSON ids keep their type; CSV ids are always strings (as in the reference). */
  id: string | number;
  prediction: string;
  /** The trial (0-based) this row answers, for a run with LOKAL_TRIALS above 1; absent: trial 0. */
  trial?: number;
  /** 1-based line (JSONL) or record line (CSV) in the file, for messages. */
  line: number;
}

const ROW_SHAPE = '{language, id, prediction}';

/** Bad prediction files raise the data layer's DataError (file, line, field). */
export function predictionError(file: string, line: number | undefined, field: string | undefined, detail: string, code: DataErrorCode): DataError {
  return new DataError(file, detail, { ...(line === undefined ? {} : { line }), ...(field ? { field } : {}), code });
}

const isNonEmptyString = (v: unknown): v is string => typeof v === 'string' && v !== '';
const FIELDS: ReadonlyArray<{ name: 'language' | 'id' | 'prediction'; expected: string; ok: (v: unknown) => boolean }> = [
  { name: 'language', expected: 'a non-empty string', ok: isNonEmptyString },
  { name: 'id', expected: 'a non-empty string or a number', ok: (v) => isNonEmptyString(v) || (typeof v === 'number' && Number.isFinite(v)) },
  { name: 'prediction', expected: 'a string', ok: (v) => typeof v === 'string' },
];

/** One row checked field by field: a wrong type names the field, what it must be and what it is. */
export function validatePredictionRow(file: string, line: number, value: unknown): PredictionRow {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw predictionError(file, line, undefined, `expected a JSON object ${ROW_SHAPE}, got ${describeJsonValue(value)}`, 'invalid-record');
  }
  const record = value as Record<string, unknown>;
  for (let f = 0; f < FIELDS.length; f++) {
    const { name, expected, ok } = FIELDS[f]!;
    const v = Object.hasOwn(record, name) ? record[name] : undefined;
    if (v === undefined) throw predictionError(file, line, name, `is missing (expected ${ROW_SHAPE})`, 'invalid-record');
    if (!ok(v)) throw predictionError(file, line, name, `expected ${expected}, got ${describeJsonValue(v)}`, 'invalid-record');
  }
  const id = record.id as string | number;
  checkIdPrecision(id, file, line);
  const trial = Object.hasOwn(record, 'trial') ? record.trial : undefined;
  if (trial !== undefined && !(typeof trial === 'number' && Number.isSafeInteger(trial) && trial >= 0))
    throw predictionError(file, line, 'trial', `expected an integer ≥ 0 (the trial's index), got ${describeJsonValue(trial)}`, 'invalid-record');
  return { language: record.language as string, id, prediction: record.prediction as string, ...(trial !== undefined ? { trial } : {}), line };
}

export function emptyFile(file: string, csv: boolean): DataError {
  return predictionError(
    file,
    undefined,
    undefined,
    csv
      ? 'is empty: no prediction rows (expected a header language,id,prediction and one row per prediction)'
      : `is empty: no prediction rows (expected one JSON object ${ROW_SHAPE} per line)`,
    'empty',
  );
}
