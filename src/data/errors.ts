// The one error type of the data layer: it always names the file, and the line and field when there is one.

export interface DataErrorDetails {
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
  | 'checksum';

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
