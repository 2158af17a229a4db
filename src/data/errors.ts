// The one error type of the data layer: it always names the file, and the line and field when there is one.
import { terminalText } from './terminalText.ts';

interface DataErrorDetails {
  line?: number;
  field?: string;
  /** Machine-readable reason, for callers that react differently (e.g. `not-found` → print how to fetch). */
  code?: DataErrorCode;
  cause?: unknown;
}

export type DataErrorCode =
  | 'not-found'
  | 'invalid-json'
  | 'invalid-record'
  | 'duplicate-id'
  | 'invalid-encoding'
  | 'bad-archive'
  | 'wrong-password'
  | 'unsafe-path'
  | 'layout'
  | 'download'
  | 'checksum'
  /** A read or write failed (EACCES, EISDIR, ENOSPC, …); the message names the path and the errno code. */
  | 'io'
  /** A FIFO, device, socket or folder where a regular file was expected. */
  | 'not-regular-file'
  /** Over a size or count limit (file bytes, decompressed archive bytes, archive members, line length). */
  | 'too-large'
  /** A file without a single record. */
  | 'empty';

export class DataError extends Error {
  readonly file: string;
  readonly line?: number;
  readonly field?: string;
  readonly code?: DataErrorCode;

  constructor(file: string, detail: string, details: DataErrorDetails = {}) {
    const where = details.line === undefined ? file : `${file}:${details.line}`;
    const field = details.field === undefined ? '' : ` field "${details.field}"`;
    super(`${where}${field}: ${detail}`, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'DataError';
    this.file = file;
    if (details.line !== undefined) this.line = details.line;
    if (details.field !== undefined) this.field = details.field;
    if (details.code !== undefined) this.code = details.code;
  }
}

/** At most `max` items shown, then how many more: a list in a message stays one short line however long it is. */
export function summariseList<T>(items: readonly T[], show: (item: T) => string = String, max = 5): string {
  const shown = items.slice(0, max).map(show).join(', ');
  return items.length > max ? `${shown}, … (${items.length - max} more)` : shown;
}

/** A value from a data file quoted for a message, cut after `max` UTF-16 units (JSON escapes keep it on one line). */
export function previewText(text: string, max = 60): string {
  // JSON escapes C0; terminalText the rest of what a terminal would act on (DEL, C1, bidi overrides).
  if (text.length <= max) return terminalText(JSON.stringify(text));
  return terminalText(`${JSON.stringify(text.slice(0, max)).slice(0, -1)}…"`);
}

/** A message from a parser, which may quote raw input, kept on one line: control characters are escaped as in JSON. */
export function oneLine(text: string): string {
  return terminalText(text);
}
