// A baseline: an earlier results JSON (`lokal score` output or this reporter's multiloko.json) that EM must not drop below.
import { readFileSync } from 'node:fs';
import { MAX_JSON_DEPTH, tooDeep } from '../../../core/jsonDepth.ts';
import { judge, type GateOutcome } from './gates.ts';
import { FingerprintError, parseFingerprint, type Fingerprint } from '../../../core/fingerprint.ts';
import { redactedOnce } from '../../../core/redact.ts';
import { parseResultsFile, ResultsFileError } from '../../../core/resultsFile.ts';
import { MultiLoKoResultsSchema } from '../resultsSchema.ts';

export interface Baseline {
  file: string;
  /** eval.py language key → that subset's EM in the baseline. */
  em: Map<string, number>;
  /** eval.py language key → id (as a JSON key) → the item's EM and scored answer; empty for a file of means only. */
  items?: Map<string, Map<string, BaselineItem>>;
  /** What made the baseline run (`summary.fingerprint`, `lokal score`'s `lokal.fingerprint`); absent in eval.py's and older files. */
  fingerprint?: Fingerprint;
}

/** One item of a baseline subset: eval.py writes each record under its id, beside the language's means. */
export interface BaselineItem {
  em: number;
  prediction: string;
}

/** The baseline with its answers hashed as a redacted run's own are: the flips (`summary.baseline.flips`) quote them. */
export function withRedactedAnswers(baseline: Baseline): Baseline {
  if (!baseline.items) return baseline;
  const items = new Map([...baseline.items].map(([key, subset]) => [key, new Map([...subset].map(([id, item]) => [id, { ...item, prediction: redactedOnce(item.prediction) }]))]));
  return { ...baseline, items };
}

export class BaselineError extends Error {
  constructor(
    readonly file: string,
    readonly field: string | undefined,
    detail: string,
  ) {
    super(`baseline ${file}${field ? ` field "${field}"` : ''}: ${detail}`);
    this.name = 'BaselineError';
  }
}

/** Top-level keys of results files that are not languages: eval.py's aggregates, our summary, `lokal score`'s problems. */
const NOT_LANGUAGES = new Set(['group_metrics', 'summary', 'lokal']);

/** Reads the per-language EM of a results file in the official layout; see NOT_LANGUAGES. */
export function parseBaseline(text: string, file: string): Baseline {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new BaselineError(file, undefined, `malformed JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new BaselineError(file, undefined, 'expected an object keyed by language (the layout of `lokal score` output)');
  }
  const deep = tooDeep(value);
  if (deep !== undefined) throw new BaselineError(file, deep.replace(/^\./u, '').slice(0, 120), `nested more than ${MAX_JSON_DEPTH} levels deep; not a results file`);
  const em = new Map<string, number>();
  const items = new Map<string, Map<string, BaselineItem>>();
  for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
    if (NOT_LANGUAGES.has(key)) continue;
    if (entry === null || typeof entry !== 'object') continue;
    const figure = (entry as Record<string, unknown>).em;
    if (typeof figure !== 'number' || !Number.isFinite(figure)) {
      throw new BaselineError(file, `${key}.em`, 'is missing or not a number (expected each language entry to hold its mean "em")');
    }
    if (figure < 0 || figure > 1) throw new BaselineError(file, `${key}.em`, `is ${figure}, outside EM's range [0, 1]`);
    em.set(key, figure);
    const records = baselineItems(entry as Record<string, unknown>, key, file);
    if (records.size > 0) items.set(key, records);
  }
  if (em.size === 0) throw new BaselineError(file, undefined, 'holds no language entry with an "em" mean');
  // The rest of the file against multiloko.json's schema (the checks above say more about the fields paired).
  const checked = ResultsFileError.check(() => parseResultsFile(MultiLoKoResultsSchema, value, file));
  if (checked) throw new BaselineError(file, checked.field, checked.detail);
  // A run's is in its summary; `lokal score` output keeps its own in the `lokal` section.
  const section = (name: string) => {
    const v = (value as Record<string, unknown>)[name];
    return v !== null && typeof v === 'object' ? (v as Record<string, unknown>).fingerprint : undefined;
  };
  let fingerprint: Fingerprint | undefined;
  try {
    fingerprint = parseFingerprint(section('summary'), 'summary.fingerprint') ?? parseFingerprint(section('lokal'), 'lokal.fingerprint');
  } catch (error) {
    if (error instanceof FingerprintError) throw new BaselineError(file, error.field, error.detail);
    throw error;
  }
  return { file, em, items, ...(fingerprint ? { fingerprint } : {}) };
}

/** The item records of one language entry: every value that is an object (the means are numbers). */
function baselineItems(entry: Record<string, unknown>, key: string, file: string): Map<string, BaselineItem> {
  const items = new Map<string, BaselineItem>();
  for (const [id, record] of Object.entries(entry)) {
    if (record === null || typeof record !== 'object' || Array.isArray(record)) continue;
    const { em, prediction } = record as Record<string, unknown>;
    if (typeof em !== 'number' || !Number.isFinite(em)) throw new BaselineError(file, `${key}.${id}.em`, 'is missing or not a number (each item record holds its "em")');
    if (em < 0 || em > 1) throw new BaselineError(file, `${key}.${id}.em`, `is ${em}, outside EM's range [0, 1]`);
    items.set(id, { em, prediction: typeof prediction === 'string' ? prediction : '' });
  }
  return items;
}

export function readBaseline(file: string): Baseline {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new BaselineError(file, undefined, `cannot read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return parseBaseline(text, file);
}

/** The gate label of a baseline check, e.g. `baseline(-0.02)`. */
export function baselineGateName(tolerance: number): string {
  return `baseline(-${tolerance})`;
}

/** One subset's EM against its baseline EM minus the allowed drop; undefined when the baseline lacks the subset. */
export function judgeAgainstBaseline(
  baseline: Baseline,
  tolerance: number,
  key: string,
  figure: string,
  value: number,
): GateOutcome | undefined {
  const base = baseline.em.get(key);
  if (base === undefined) return undefined;
  const outcome = judge(baselineGateName(tolerance), figure, value, '>=', base - tolerance);
  outcome.message += `; baseline ${base} in ${baseline.file}`;
  return outcome;
}

/** Mean of the baseline's EM over the given keys (those of both runs), by a plain left fold. */
export function baselineAverage(baseline: Baseline, keys: readonly string[]): { keys: string[]; average: number } | undefined {
  const common = keys.filter((k) => baseline.em.has(k));
  if (common.length === 0) return undefined;
  let sum = 0;
  for (const k of common) sum += baseline.em.get(k)!;
  return { keys: common, average: sum / common.length };
}
