// Prediction files in the official eval.py input format: JSONL or CSV rows of {language, id, prediction}, read line
// by line (JSONL) or record by record (CSV), so a file of any size within the limit costs only its rows.
// CSV files are read by predictionsCsv.ts, loaded only for a .csv file: reading JSONL loads no CSV code.
import { DEFAULT_MAX_STREAM_BYTES, readTextLineBatches } from '../data/files.ts';
import { parseJsonLine } from '../data/jsonlText.ts';
import { emptyFile, validatePredictionRow, type PredictionRow } from './predictionRow.ts';

interface ReadPredictionsOptions {
  /** Largest predictions file, in bytes (default 2 GiB; the file is read line by line, only its rows are kept). */
  maxStreamBytes?: number;
  /** Bytes per read (tests). */
  chunkBytes?: number;
}

export function parsePredictionsJsonl(text: string, file: string): PredictionRow[] {
  const rows: PredictionRow[] = [];
  const breaks = /\r\n|\r|\n/g;
  let line = 0;
  let start = 0;
  // Line by line without splitting the whole text into an array first.
  for (;;) {
    const match = breaks.exec(text);
    const raw = text.slice(start, match ? match.index : text.length);
    line++;
    if (raw.trim() !== '') rows.push(validatePredictionRow(file, line, parseJsonLine(raw, file, line)));
    if (!match) break;
    start = breaks.lastIndex;
  }
  if (rows.length === 0) throw emptyFile(file, false);
  return rows;
}

/** Reads a predictions file; `.csv` by extension, JSONL otherwise (as eval.py decides). */
export async function readPredictions(file: string, options: ReadPredictionsOptions = {}): Promise<PredictionRow[]> {
  const stream = {
    what: 'predictions file',
    maxBytes: options.maxStreamBytes ?? DEFAULT_MAX_STREAM_BYTES,
    option: 'maxStreamBytes',
    ...(options.chunkBytes === undefined ? {} : { chunkBytes: options.chunkBytes }),
  };
  if (file.endsWith('.csv')) return (await import('./predictionsCsv.ts')).readPredictionsCsv(file, stream);
  const rows: PredictionRow[] = [];
  // Strict UTF-8 as Python's open() reads it (a BOM is tolerated): bad bytes are an error, not U+FFFD.
  for await (const batch of readTextLineBatches(file, stream)) {
    for (let i = 0; i < batch.length; i++) {
      const { line, raw } = batch[i]!;
      rows.push(validatePredictionRow(file, line, parseJsonLine(raw, file, line)));
    }
  }
  if (rows.length === 0) throw emptyFile(file, false);
  return rows;
}
