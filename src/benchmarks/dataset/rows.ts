// The rows of a dataset benchmark: a .jsonl or .csv file, or a folder of them (read in name order). Each row is
// checked by a zod schema built from the options (id, targets, the grouping field, the template's fields); a problem
// is a DataError naming the file, the line and the field.
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import { DataError, oneLine, previewText, summariseList } from '../../data/errors.ts';
import { readRegularFile } from '../../data/files.ts';
import { decodeUtf8, jsonlLines, parseJsonLine } from '../../data/jsonlText.ts';
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
async function dataFiles(location: string): Promise<string[]> {
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

/** A JSONL id that is a number: an integer that JSON.parse kept exactly (zod's int() refuses one past 2^53 without saying why). */
const numericId = z.number().superRefine((n, context) => {
  if (!Number.isInteger(n)) context.addIssue({ code: 'custom', message: 'expected a string or an integer' });
  else if (!Number.isSafeInteger(n)) context.addIssue({ code: 'custom', message: `integer id ${n} is larger than 2^53 and cannot be represented exactly; write it as a string` });
});

/** The schema of one row: the id, the targets, the group and the template's fields, any other field as it is. */
function rowSchema(fields: RowFields, csv: boolean) {
  const targets = csv
    ? z.string().transform((cell) => (fields.separator ? cell.split(fields.separator) : [cell]).map((t) => t.trim()).filter((t) => t !== ''))
    : z.union([z.string().transform((t) => [t]), z.array(z.string())], { error: 'expected a string or a list of strings' });
  const shape: Record<string, z.ZodType> = {
    [fields.id]: csv ? z.string().min(1, 'an empty id') : z.union([z.string().min(1, 'an empty id'), numericId], { error: 'expected a string or an integer' }),
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
  return { id, group: fields.groupBy ? String(value[fields.groupBy]) : SINGLE_GROUP, targets: value[fields.targets] as string[], fields: value, file, line };
}

/** Calls `visit` with each row of a JSONL text, checked, in line order. */
function visitJsonlRows(text: string, file: string, fields: RowFields, visit: (item: DatasetItem) => void): void {
  const schema = rowSchema(fields, false);
  for (const { line, raw } of jsonlLines(text)) {
    const value = parseJsonLine(raw, file, line);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new DataError(file, 'expected a JSON object per line', { line, code: 'invalid-record' });
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw rowError(file, line, value as Record<string, unknown>, parsed.error);
    visit(item(parsed.data as Record<string, unknown>, fields, file, line));
  }
}

/** Calls `visit` with each row of a CSV text, checked, in row order (csv-parse hands each record over; none is kept). */
function visitCsvRows(text: string, file: string, fields: RowFields, visit: (item: DatasetItem) => void): void {
  let header: string[] | undefined;
  let schema: ReturnType<typeof rowSchema> | undefined;
  const onRecord = ({ record, raw, info }: { record: string[]; raw: string; info: { lines: number } }): null => {
    if (header === undefined) {
      header = record.map((h) => h.trim());
      for (const column of [fields.id, fields.targets, ...(fields.groupBy ? [fields.groupBy] : []), ...fields.slots]) {
        if (!header.includes(column)) throw new DataError(file, `missing column (header: ${summariseList(header, (h) => previewText(h, 40), 12)})`, { line: 1, field: column, code: 'invalid-record' });
      }
      schema = rowSchema(fields, true);
      return null;
    }
    // The row's first line: csv-parse counts the lines read up to the record's end.
    const line = info.lines - (raw.match(/\n/gu) ?? []).length + (raw.endsWith('\n') ? 1 : 0);
    const value = Object.fromEntries(header.map((h, i) => [h, record[i]]));
    const parsed = schema!.safeParse(value);
    if (!parsed.success) throw rowError(file, line, value as Record<string, unknown>, parsed.error);
    visit(item(parsed.data as Record<string, unknown>, fields, file, line));
    return null;
  };
  try {
    parse(text, { bom: true, raw: true, info: true, skip_empty_lines: true, on_record: onRecord as never });
  } catch (error) {
    if (error instanceof DataError) throw error;
    const err = error as Error & { lines?: number };
    throw new DataError(file, `not a valid CSV file: ${oneLine(err.message)}`, { code: 'invalid-record', cause: error, ...(err.lines ? { line: err.lines } : {}) });
  }
  if (header === undefined) throw new DataError(file, 'the file is empty (expected a header row)', { code: 'empty' });
}

/** Calls `visit` with every row of one file, checked, in file order. */
async function visitDataFile(file: string, fields: RowFields, visit: (item: DatasetItem) => void): Promise<void> {
  const text = decodeUtf8(await readRegularFile(file, { what: 'data file', maxBytes: MAX_DATA_BYTES, option: 'a smaller file' }), file);
  if (/\.csv$/iu.test(file)) visitCsvRows(text, file, fields, visit);
  else visitJsonlRows(text, file, fields, visit);
}

/**
 * Calls `visit` with every row at `location` (a file or a folder of them), in data order; ids must be unique across
 * the files. Only the ids are kept, each with where it was first seen: what `visit` drops is never held.
 */
async function visitDataset(location: string, fields: RowFields, visit: (item: DatasetItem) => void): Promise<void> {
  const files = await dataFiles(location);
  // An id's first place as one number: the file's index times 2^32 plus the line (a 256 MiB file has fewer lines).
  const firstSeen = new Map<string, number>();
  let rows = 0;
  for (const [index, file] of files.entries()) {
    await visitDataFile(file, fields, (row) => {
      const key = String(row.id);
      const first = firstSeen.get(key);
      if (first !== undefined) {
        const where = `${files[Math.floor(first / 2 ** 32)]!}:${first % 2 ** 32}`;
        throw new DataError(row.file, `id ${JSON.stringify(row.id)} is used twice (first at ${where}); replay files and baselines pair items by it`, { line: row.line, field: fields.id, code: 'duplicate-id' });
      }
      firstSeen.set(key, index * 2 ** 32 + row.line);
      rows++;
      visit(row);
    });
  }
  if (rows === 0) throw new DataError(location, 'holds no rows', { code: 'empty' });
}

/** Every row at `location` (a file or a folder of them), in data order; ids must be unique across the files. */
export async function readDataset(location: string, fields: RowFields): Promise<DatasetItem[]> {
  const items: DatasetItem[] = [];
  await visitDataset(location, fields, (row) => items.push(row));
  return items;
}

/**
 * Most groups a dataset may have: each is a describe block, a row of the table and a gate scope, so a field with a
 * value per row (10^6 groups took 4.5 GB before Vitest gave up) is refused at its first value past the limit.
 */
export const MAX_GROUPS = 1000;

/** A group of the data: its first `limit` rows and how many it has in all. */
interface DatasetGroupRows {
  key: string;
  items: DatasetItem[];
  total: number;
}

/**
 * The groups at `location` in order of first appearance, each with its first `limit` rows (all without a limit) and
 * its row count: every row is checked, but only the kept ones are held, so LOKAL_LIMIT=3 on 10^6 rows holds 3.
 */
export async function readDatasetGroups(location: string, fields: RowFields, limit?: number): Promise<DatasetGroupRows[]> {
  const groups = new Map<string, DatasetGroupRows>();
  await visitDataset(location, fields, (row) => {
    let group = groups.get(row.group);
    if (group === undefined) {
      if (groups.size === MAX_GROUPS) {
        throw new DataError(row.file, `more than ${MAX_GROUPS} distinct values: groupBy makes each value of "${fields.groupBy}" a group (a describe block and a row of the table), at most ${MAX_GROUPS}; group by a field with fewer values`, { line: row.line, field: fields.groupBy, code: 'too-large' });
      }
      group = { key: row.group, items: [], total: 0 };
      groups.set(row.group, group);
    }
    group.total++;
    if (limit === undefined || group.items.length < limit) group.items.push(row);
  });
  return [...groups.values()];
}
