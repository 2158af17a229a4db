// Prediction files in CSV (header language,id,prediction), read record by record; loaded only for a .csv file.
import { pipeline } from 'node:stream/promises';
import { parse as parseCsvStream } from 'csv-parse';
import { parse } from 'csv-parse/sync';
import { DataError, oneLine } from '../data/errors.ts';
import { readChunks } from '../data/files.ts';
import { emptyFile, predictionError, validatePredictionRow as validate, type PredictionRow } from './predictionRow.ts';

const CSV_COLUMNS = ['language', 'id', 'prediction'] as const;

function checkHeader(file: string, record: Record<string, string>): void {
  for (const column of CSV_COLUMNS) {
    if (!Object.hasOwn(record, column)) {
      throw predictionError(file, 1, column, 'column is missing from the header (expected language,id,prediction)', 'invalid-record');
    }
  }
}

function csvError(file: string, error: unknown): DataError {
  if (error instanceof DataError) return error;
  const e = error as Error & { lines?: number };
  return predictionError(file, e.lines, undefined, `malformed CSV: ${oneLine(e.message)}`, 'invalid-record');
}

const CSV_OPTIONS = { columns: true, skip_empty_lines: true, bom: true, info: true } as const;
type CsvRecord = { record: Record<string, string>; info: { lines: number } };

export function parsePredictionsCsv(text: string, file: string): PredictionRow[] {
  let records: CsvRecord[];
  try {
    records = parse(text, CSV_OPTIONS) as CsvRecord[];
  } catch (error) {
    throw csvError(file, error);
  }
  if (records.length === 0) throw emptyFile(file, true);
  checkHeader(file, records[0]!.record);
  return records.map(({ record, info }) => validate(file, info.lines, record));
}

export async function readPredictionsCsv(file: string, options: Parameters<typeof readChunks>[1]): Promise<PredictionRow[]> {
  const rows: PredictionRow[] = [];
  // Strict UTF-8 is checked on the side (the parser decodes the same bytes); a split sequence is fine.
  const decoder = new TextDecoder('utf-8', { fatal: true });
  async function* checked(): AsyncGenerator<Buffer> {
    for await (const chunk of readChunks(file, options)) {
      try {
        decoder.decode(chunk, { stream: true });
      } catch (cause) {
        throw new DataError(file, 'is not valid UTF-8 text', { code: 'invalid-encoding', cause });
      }
      yield chunk;
    }
    try {
      decoder.decode();
    } catch (cause) {
      throw new DataError(file, 'is not valid UTF-8 text', { code: 'invalid-encoding', cause });
    }
  }
  try {
    await pipeline(checked(), parseCsvStream(CSV_OPTIONS), async (records: AsyncIterable<CsvRecord>) => {
      for await (const { record, info } of records) {
        if (rows.length === 0) checkHeader(file, record);
        rows.push(validate(file, info.lines, record));
      }
    });
  } catch (error) {
    throw csvError(file, error);
  }
  if (rows.length === 0) throw emptyFile(file, true);
  return rows;
}

