// The rows of a dataset benchmark: a .jsonl or .csv file, or a folder of them (read in name order). Each row is
// checked by a zod schema built from the options (id, targets, the grouping field, the template's fields); a problem
// is a DataError naming the file, the line and the field.
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import { DataError, oneLine, previewText, summariseList } from '../../data/errors.ts';
import { readRegularFile } from '../../data/files.ts';
import { checkIdPrecision, decodeUtf8, jsonlLines, parseJsonLine } from '../../data/jsonlText.ts';
import type { DatasetRow } from './options.ts';

/** A row as the benchmark uses it: where it came from, its id, group and accepted answers, and every field. */
export interface DatasetItem {
  id: string | number;
  group: string;
  targets: string[];
  fields: DatasetRow;
  file: string;
  line: number;
}

export interface RowFields {
  id: string;
  targets: string;
  groupBy?: string;
  /** Fields the prompt template names: each must be present in every row. */
  slots: readonly string[];
  /** CSV only: splits the targets cell. */
  separator?: string;
}

const DATA_FILE = /\.(?:jsonl|csv)$/iu;
const MAX_DATA_BYTES = 256 * 1024 * 1024;

/** The group of a dataset without `groupBy`. */
export const SINGLE_GROUP = 'all';

/** The data files at `location`: the file itself, or the folder's .jsonl and .csv files in name order. */
export async function dataFiles(location: string): Promise<string[]> {
  let stats;
  try {
    stats = await stat(location);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new DataError(location, code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? (error as Error).message})`, { code: code === 'ENOENT' ? 'not-found' : 'io', cause: error });
  }
  if (!stats.isDirectory()) {
    if (!DATA_FILE.test(location)) throw new DataError(location, 'is neither a .jsonl nor a .csv file', { code: 'layout' });
    return [location];
  }
  const names = (await readdir(location)).filter((n) => DATA_FILE.test(n)).sort();
  if (names.length === 0) throw new DataError(location, 'holds no .jsonl or .csv file', { code: 'empty' });
  return names.map((n) => path.join(location, n));
}

const textValue = z.union([z.string(), z.number(), z.boolean()], { error: 'expected a string, a number or a boolean (the prompt template names it)' });

/** The schema of one row: the id, the targets, the group and the template's fields, any other field as it is. */
function rowSchema(fields: RowFields, csv: boolean) {
  const targets = csv
    ? z.string().transform((cell) => (fields.separator ? cell.split(fields.separator) : [cell]).map((t) => t.trim()).filter((t) => t !== ''))
    : z.union([z.string().transform((t) => [t]), z.array(z.string())], { error: 'expected a string or a list of strings' });
  const shape: Record<string, z.ZodType> = {
    [fields.id]: csv ? z.string().min(1, 'an empty id') : z.union([z.string().min(1, 'an empty id'), z.number().int('an integer or a string')], { error: 'expected a string or an integer' }),
    [fields.targets]: targets.pipe(z.array(z.string()).min(1, 'no accepted answer (expected a string or a non-empty list of strings)')),
  };
  if (fields.groupBy) shape[fields.groupBy] = z.union([z.string().min(1, 'an empty group'), z.number()], { error: 'expected a string or a number' });
  for (const slot of fields.slots) if (!(slot in shape)) shape[slot] = textValue;
  return z.looseObject(shape);
}

/** A zod issue as a DataError at `line` of `file`; a field the row lacks is "missing". */
function rowError(file: string, line: number, value: Record<string, unknown>, error: z.ZodError): DataError {
  const issue = error.issues[0]!;
  const field = issue.path.map(String).join('.') || undefined;
  const missing = issue.path.length === 1 && value[String(issue.path[0])] === undefined;
  return new DataError(file, missing ? 'missing' : issue.message, { line, ...(field ? { field } : {}), code: 'invalid-record' });
}

function item(value: Record<string, unknown>, fields: RowFields, file: string, line: number): DatasetItem {
  const id = value[fields.id] as string | number;
  checkIdPrecision(id, file, line);
  return { id, group: fields.groupBy ? String(value[fields.groupBy]) : SINGLE_GROUP, targets: value[fields.targets] as string[], fields: value, file, line };
}

function jsonlItems(text: string, file: string, fields: RowFields): DatasetItem[] {
  const schema = rowSchema(fields, false);
  const items: DatasetItem[] = [];
  for (const { line, raw } of jsonlLines(text)) {
    const value = parseJsonLine(raw, file, line);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new DataError(file, 'expected a JSON object per line', { line, code: 'invalid-record' });
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw rowError(file, line, value as Record<string, unknown>, parsed.error);
    items.push(item(parsed.data as Record<string, unknown>, fields, file, line));
  }
  return items;
}

function csvItems(text: string, file: string, fields: RowFields): DatasetItem[] {
  let records: Array<{ record: string[]; raw: string; info: { lines: number } }>;
  try {
    records = parse(text, { bom: true, raw: true, info: true, skip_empty_lines: true }) as never;
  } catch (error) {
    const err = error as Error & { lines?: number };
    throw new DataError(file, `not a valid CSV file: ${oneLine(err.message)}`, { code: 'invalid-record', cause: error, ...(err.lines ? { line: err.lines } : {}) });
  }
  if (records.length === 0) throw new DataError(file, 'the file is empty (expected a header row)', { code: 'empty' });
  const header = records[0]!.record.map((h) => h.trim());
  for (const column of [fields.id, fields.targets, ...(fields.groupBy ? [fields.groupBy] : []), ...fields.slots]) {
    if (!header.includes(column)) throw new DataError(file, `missing column (header: ${summariseList(header, (h) => previewText(h, 40), 12)})`, { line: 1, field: column, code: 'invalid-record' });
  }
  const schema = rowSchema(fields, true);
  const items: DatasetItem[] = [];
  for (const { record, raw, info } of records.slice(1)) {
    // The row's first line: csv-parse counts the lines read up to the record's end.
    const line = info.lines - (raw.match(/\n/gu) ?? []).length + (raw.endsWith('\n') ? 1 : 0);
    const value = Object.fromEntries(header.map((h, i) => [h, record[i]]));
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw rowError(file, line, value as Record<string, unknown>, parsed.error);
    items.push(item(parsed.data as Record<string, unknown>, fields, file, line));
  }
  return items;
}

/** Every row of one file. */
export async function readDataFile(file: string, fields: RowFields): Promise<DatasetItem[]> {
  const text = decodeUtf8(await readRegularFile(file, { what: 'data file', maxBytes: MAX_DATA_BYTES, option: 'a smaller file' }), file);
  return /\.csv$/iu.test(file) ? csvItems(text, file, fields) : jsonlItems(text, file, fields);
}

/** Every row at `location` (a file or a folder of them); ids must be unique across the files. */
export async function readDataset(location: string, fields: RowFields): Promise<DatasetItem[]> {
  const items: DatasetItem[] = [];
  const seen = new Map<string, DatasetItem>();
  for (const file of await dataFiles(location)) {
    for (const row of await readDataFile(file, fields)) {
      const first = seen.get(String(row.id));
      if (first) throw new DataError(row.file, `id ${JSON.stringify(row.id)} is used twice (first at ${first.file}:${first.line}); replay files and baselines pair items by it`, { line: row.line, field: fields.id, code: 'duplicate-id' });
      seen.set(String(row.id), row);
      items.push(row);
    }
  }
  if (items.length === 0) throw new DataError(location, 'holds no rows', { code: 'empty' });
  return items;
}
