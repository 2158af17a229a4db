// Prediction files in the official eval.py input format: JSONL or CSV rows of {language, id, prediction}.
import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { z } from 'zod';

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

export class PredictionFileError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    readonly field: string | undefined,
    detail: string,
  ) {
    super(`${file}${line === undefined ? '' : `:${line}`}${field ? ` field "${field}"` : ''}: ${detail}`);
    this.name = 'PredictionFileError';
  }
}

function validate(file: string, line: number, value: unknown): PredictionRow {
  const parsed = PredictionSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.') || undefined;
    const detail = issue.code === 'invalid_type' && issue.input === undefined ? 'is missing' : issue.message;
    throw new PredictionFileError(file, line, field, `${detail} (expected {language, id, prediction})`);
  }
  return { ...parsed.data, line };
}

export function parsePredictionsJsonl(text: string, file: string): PredictionRow[] {
  const rows: PredictionRow[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.replace(/\r$/, '');
    if (raw.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw new PredictionFileError(file, i + 1, undefined, `malformed JSON: ${(error as Error).message}`);
    }
    rows.push(validate(file, i + 1, value));
  }
  return rows;
}

export function parsePredictionsCsv(text: string, file: string): PredictionRow[] {
  let records: Array<{ record: Record<string, string>; info: { lines: number } }>;
  try {
    records = parse(text, { columns: true, skip_empty_lines: true, bom: true, info: true }) as typeof records;
  } catch (error) {
    const e = error as Error & { lines?: number };
    throw new PredictionFileError(file, e.lines, undefined, `malformed CSV: ${e.message}`);
  }
  if (records.length > 0) {
    for (const column of ['language', 'id', 'prediction']) {
      if (!(column in records[0]!.record)) {
        throw new PredictionFileError(file, 1, column, 'column is missing from the header (expected language,id,prediction)');
      }
    }
  }
  return records.map(({ record, info }) => validate(file, info.lines, record));
}

/** Reads a predictions file; `.csv` by extension, JSONL otherwise (as eval.py decides). */
export async function readPredictions(file: string): Promise<PredictionRow[]> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new PredictionFileError(file, undefined, undefined, `cannot read predictions file (${error.code ?? error.message})`);
  });
  return file.endsWith('.csv') ? parsePredictionsCsv(text, file) : parsePredictionsJsonl(text, file);
}
