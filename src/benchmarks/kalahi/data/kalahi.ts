// Kalahi prompt files (filipino.csv, filipino_partially_enriched.csv, filipino_unenriched.csv) read with csv-parse and
// zod, references formatted exactly as aisingapore/kalahi does (docs/metrics.md#reference-answers).
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import { DataError, oneLine, previewText, summariseList } from '../../../data/errors.ts';
import { DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_STREAM_BYTES, ioError, readRegularFile, readTextLines } from '../../../data/files.ts';
import { decodeUtf8, jsonlLines, parseJsonLine } from '../../../data/jsonl.ts';
import { sha256 } from '../../../core/sha256.ts';
import { describeJsonValue } from '../../../data/describeJsonValue.ts';
import { pythonStrip } from '../../../core/python/pythonWhitespace.ts';
import {
  bestAnswerIndex,
  formatBestAnswer,
  KalahiReferenceError,
  splitMultiAnswer,
} from './references.ts';

export const KALAHI_ENV = 'LOKAL_KALAHI';
export const KALAHI_DEFAULT_DIR = path.join('data', 'kalahi');
export const KALAHI_VARIANTS = ['full', 'partially_enriched', 'unenriched'] as const;
export type KalahiVariant = (typeof KALAHI_VARIANTS)[number];
export const KALAHI_FILES: Readonly<Record<KalahiVariant, string>> = {
  full: 'filipino.csv',
  partially_enriched: 'filipino_partially_enriched.csv',
  unenriched: 'filipino_unenriched.csv',
};

const REQUIRED_COLUMNS = [
  'prompt_variation_id',
  'prompt_id',
  'category',
  'topic',
  'prompt',
  'best_answer',
  'relevant_answers',
  'irrelevant_answers',
] as const;

export interface KalahiRow {
  /** Kept as the string in the file (leading zeros matter: `0101000100`). */
  promptVariationId: string;
  promptId: string;
  /** The unenriched file's `base` column (TRUE/FALSE); absent in the other variants. */
  base?: boolean;
  category: string;
  topic: string;
  /** The prompt exactly as in the file (it is sent to the model unchanged). */
  prompt: string;
  /** Formatted best answer (format_best). */
  bestAnswer: string;
  /** Formatted relevant answers (split_multi_answer), in file order. */
  relevantAnswers: string[];
  /** Formatted irrelevant answers; may be empty (such rows are skipped by the generation metrics). */
  irrelevantAnswers: string[];
  /** Index of bestAnswer in relevantAnswers (the reference's ref_true.index(ref_best)). */
  bestIndex: number;
  /** The three answer fields as in the file. */
  raw: { bestAnswer: string; relevantAnswers: string; irrelevantAnswers: string };
  /** 1-based data row (header excluded) and the file line the record starts on. */
  row: number;
  line: number;
}

export interface KalahiDataset {
  variant: KalahiVariant;
  file: string;
  rows: KalahiRow[];
  /** SHA-256 (hex) of the CSV's bytes, when read from a file. */
  sha256?: string;
}

// Fields are kept exactly as read (pandas does not strip them; the prompt goes to the model verbatim); "empty"
// means empty after Python's strip().
const nonBlank = (message = 'must not be empty') => z.string().refine((s) => pythonStrip(s) !== '', message);

const RowSchema = z.object({
  prompt_variation_id: nonBlank(),
  prompt_id: nonBlank(),
  base: z
    .enum(['TRUE', 'FALSE', 'True', 'False', 'true', 'false'], { message: 'must be TRUE or FALSE' })
    .transform((v) => v.toLowerCase() === 'true')
    .optional(),
  category: nonBlank(),
  topic: z.string(),
  prompt: nonBlank(),
  best_answer: nonBlank('must not be empty (the reference raises IndexError on it)'),
  relevant_answers: z.string(),
  irrelevant_answers: z.string(),
});

/** The variant a file name stands for, if it is one of the published names. */
export function kalahiVariantOfFile(file: string): KalahiVariant | undefined {
  const base = path.basename(file);
  return KALAHI_VARIANTS.find((v) => KALAHI_FILES[v] === base);
}

/** Parses one Kalahi CSV text; `file` is used in messages and to infer the variant. */
export function parseKalahiCsv(text: string, file: string, variant?: KalahiVariant): KalahiDataset {
  let records: Array<{ record: string[]; raw: string; info: { lines: number } }>;
  try {
    records = parse(text, { bom: true, raw: true, info: true, skip_empty_lines: true, relax_column_count: false }) as never;
  } catch (error) {
    const err = error as Error & { lines?: number };
    throw new DataError(file, `not a valid CSV file: ${oneLine(err.message)}`, { code: 'invalid-record', cause: error, ...(err.lines ? { line: err.lines } : {}) });
  }
  if (records.length === 0) throw new DataError(file, 'the file is empty (expected a header row)', { code: 'invalid-record' });
  const header = records[0]!.record.map((h) => h.trim());
  for (const column of REQUIRED_COLUMNS) {
    if (!header.includes(column)) {
      throw new DataError(file, `missing column "${column}" (header: ${summariseList(header, (h) => previewText(h, 40), 12)})`, {
        line: 1,
        field: column,
        code: 'invalid-record',
      });
    }
  }
  if (records.length === 1) {
    throw new DataError(file, 'is empty: it has a header row but no prompt rows', { code: 'empty' });
  }
  const resolvedVariant = variant ?? kalahiVariantOfFile(file) ?? (header.includes('base') ? 'unenriched' : 'full');
  const rows: KalahiRow[] = [];
  const seen = new Map<string, number>();
  for (let r = 1; r < records.length; r++) {
    const { record, raw, info } = records[r]!;
    const newlines = (raw.match(/\n/g) ?? []).length;
    const line = info.lines - newlines + (raw.endsWith('\n') ? 1 : 0);
    const where = { line, code: 'invalid-record' as const };
    const object: Record<string, string> = {};
    header.forEach((column, i) => {
      object[column] = record[i] ?? '';
    });
    if (!header.includes('base')) delete object.base;
    const parsed = RowSchema.safeParse(object);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = String(issue.path[0] ?? '');
      throw new DataError(file, `row ${r}: ${issue.message}`, { ...where, field });
    }
    const data = parsed.data;
    const relevantAnswers = splitMultiAnswer(data.relevant_answers);
    const irrelevantAnswers = splitMultiAnswer(data.irrelevant_answers);
    let bestAnswer: string;
    let bestIndex: number;
    try {
      bestAnswer = formatBestAnswer(data.best_answer);
      bestIndex = bestAnswerIndex(bestAnswer, relevantAnswers);
    } catch (error) {
      if (!(error instanceof KalahiReferenceError)) throw error;
      throw new DataError(file, `row ${r} (prompt_variation_id ${previewText(data.prompt_variation_id, 40).slice(1, -1)}): ${error.message}`, {
        ...where,
        field: relevantAnswers.length === 0 ? 'relevant_answers' : 'best_answer',
      });
    }
    const previous = seen.get(data.prompt_variation_id);
    if (previous !== undefined) {
      throw new DataError(file, `row ${r}: prompt_variation_id ${previewText(data.prompt_variation_id, 40).slice(1, -1)} repeats row ${previous}`, {
        line,
        field: 'prompt_variation_id',
        code: 'duplicate-id',
      });
    }
    seen.set(data.prompt_variation_id, r);
    rows.push({
      promptVariationId: data.prompt_variation_id,
      promptId: data.prompt_id,
      ...(data.base === undefined ? {} : { base: data.base }),
      category: data.category,
      topic: data.topic,
      prompt: data.prompt,
      bestAnswer,
      relevantAnswers,
      irrelevantAnswers,
      bestIndex,
      raw: { bestAnswer: data.best_answer, relevantAnswers: data.relevant_answers, irrelevantAnswers: data.irrelevant_answers },
      row: r,
      line,
    });
  }
  return { variant: resolvedVariant, file, rows };
}

/** Where the CSV is: an explicit file, a folder holding the published files, env LOKAL_KALAHI, or ./data/kalahi. */
export async function resolveKalahiFile(
  pathOrDir: string | undefined,
  variant: KalahiVariant | undefined,
  opts: { env?: Readonly<Record<string, string | undefined>>; cwd?: string } = {},
): Promise<{ file: string; variant: KalahiVariant }> {
  const env = opts.env ?? process.env;
  const cwd = opts.cwd ?? process.cwd();
  const given = pathOrDir ?? env[KALAHI_ENV] ?? KALAHI_DEFAULT_DIR;
  const target = path.resolve(cwd, given);
  let isDir: boolean;
  try {
    isDir = (await stat(target)).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw ioError(target, 'cannot read the Kalahi data', error);
    const source = pathOrDir !== undefined ? 'the given path' : env[KALAHI_ENV] !== undefined ? `${KALAHI_ENV}` : 'the default folder';
    throw new DataError(
      target,
      `Kalahi data not found (${source}). Set ${KALAHI_ENV} to a folder holding ${Object.values(KALAHI_FILES).join(', ')} (or to one of those files), or place them in ${KALAHI_DEFAULT_DIR}/`,
      { code: 'not-found' },
    );
  }
  if (!isDir) {
    const inferred = kalahiVariantOfFile(target);
    if (variant && inferred && variant !== inferred) {
      throw new DataError(target, `the file is the ${inferred} variant but variant ${variant} was requested`, { code: 'layout' });
    }
    return { file: target, variant: variant ?? inferred ?? 'full' };
  }
  const chosen = variant ?? 'full';
  const file = path.join(target, KALAHI_FILES[chosen]);
  try {
    await stat(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw ioError(file, 'cannot read the Kalahi file', error);
    throw new DataError(file, `the ${chosen} variant file ${KALAHI_FILES[chosen]} is not in ${target}`, { code: 'not-found' });
  }
  return { file, variant: chosen };
}

/** Loads one Kalahi variant (default `full`) from a file or folder; default folder from env LOKAL_KALAHI, then ./data/kalahi. */
export async function loadKalahi(
  pathOrDir?: string,
  variant?: KalahiVariant,
  opts: {
    env?: Readonly<Record<string, string | undefined>>;
    cwd?: string;
    /** Largest CSV read, in bytes (default 256 MiB); FIFOs, devices and other non-regular files are refused. */
    maxFileBytes?: number;
  } = {},
): Promise<KalahiDataset> {
  if (variant !== undefined && !KALAHI_VARIANTS.includes(variant)) {
    throw new DataError(String(pathOrDir ?? KALAHI_DEFAULT_DIR), `unknown Kalahi variant "${variant}" (expected ${KALAHI_VARIANTS.join(', ')})`, { code: 'layout' });
  }
  const { file, variant: resolved } = await resolveKalahiFile(pathOrDir, variant, opts);
  const bytes = await readRegularFile(file, { what: 'the file', maxBytes: opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES, option: 'maxFileBytes' });
  // Strict UTF-8, as Python reads it: a replacement character would also change the byte counts MC scores divide by.
  return { ...parseKalahiCsv(decodeUtf8(bytes, file), file, resolved), sha256: sha256(bytes) };
}

/** One reply of a `lokal kalahi score -r responses.jsonl` file. */
export interface KalahiResponseRow {
  prompt_variation_id: string;
  response: string;
  /** 1-based line in the file. */
  line: number;
}

const RESPONSE_SHAPE = '{prompt_variation_id, response}';

/** One parsed line checked field by field: a wrong type names the field, what it must be and what it is. */
function responseRow(value: unknown, file: string, line: number): KalahiResponseRow {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new DataError(file, `expected a JSON object ${RESPONSE_SHAPE}, got ${describeJsonValue(value)}`, { line, code: 'invalid-record' });
  }
  const record = value as Record<string, unknown>;
  const fail = (field: string, detail: string): never => {
    throw new DataError(file, detail, { line, field, code: 'invalid-record' });
  };
  const id = Object.hasOwn(record, 'prompt_variation_id') ? record.prompt_variation_id : undefined;
  if (id === undefined) fail('prompt_variation_id', 'is missing');
  if (typeof id === 'number') fail('prompt_variation_id', 'must be a string: a number loses the leading zeros of ids such as "0101000100"');
  if (typeof id !== 'string') fail('prompt_variation_id', `expected a string, got ${describeJsonValue(id)}`);
  if (id === '') fail('prompt_variation_id', 'must not be empty');
  const response = Object.hasOwn(record, 'response') ? record.response : undefined;
  if (response === undefined) fail('response', 'is missing');
  if (typeof response !== 'string') fail('response', `expected a string, got ${describeJsonValue(response)}`);
  return { prompt_variation_id: id as string, response: response as string, line };
}

function noResponses(file: string): DataError {
  return new DataError(file, `is empty: no responses (expected one JSON object ${RESPONSE_SHAPE} per line)`, { code: 'empty' });
}

/** Parses JSONL text of `{prompt_variation_id, response}` rows; blank lines are ignored, a file without rows is an error. */
export function parseKalahiResponsesJsonl(text: string, file: string): KalahiResponseRow[] {
  const rows: KalahiResponseRow[] = [];
  for (const { line, raw } of jsonlLines(text)) rows.push(responseRow(parseJsonLine(raw, file, line), file, line));
  if (rows.length === 0) throw noResponses(file);
  return rows;
}

/** Reads a responses JSONL file (`{prompt_variation_id, response}` per line), line by line. */
export async function readKalahiResponses(file: string, options: { maxStreamBytes?: number } = {}): Promise<KalahiResponseRow[]> {
  const rows: KalahiResponseRow[] = [];
  const stream = { what: 'the responses file', maxBytes: options.maxStreamBytes ?? DEFAULT_MAX_STREAM_BYTES, option: 'maxStreamBytes' };
  for await (const { line, raw } of readTextLines(file, stream)) rows.push(responseRow(parseJsonLine(raw, file, line), file, line));
  if (rows.length === 0) throw noResponses(file);
  return rows;
}
