// The replay provider: answers read from a predictions file in `lokal score`'s input format, looked up by item key.
import { readPredictions } from './predictions.ts';
import type { PredictionRow } from './predictionRow.ts';
import {
  ProviderError,
  type ContinuationRequest,
  type ContinuationResult,
  type GenerateRequest,
  type GenerateResult,
  type ModelDescription,
  type ModelProvider,
} from './types.ts';

export interface ReplayOptions {
  /**
   * An item with no row in the file: answered with '' and flagged `missing` (default; `lokal score` scores it the
   * same way), or a ProviderError of kind 'not-found' (the item test then fails).
   */
  onMissing?: 'empty' | 'fail';
  /** Largest predictions file, read line by line, in bytes (default 2 GiB). */
  maxStreamBytes?: number;
}

/** A replay answer says whether the file had one; a missing answer is the empty string. */
export interface ReplayResult extends GenerateResult {
  missing: boolean;
}

/**
 * The item key of a prediction row: `multiloko/<language>/<id>`, or `kalahi/<id>` for rows whose language is `kalahi`.
 * Ids are compared as strings, so CSV files (string ids) line up with numeric dataset ids. Other benchmarks' items
 * (keys `<benchmark>/<id>`) find the rows whose language is the benchmark's name.
 */
export function replayKey(row: Pick<PredictionRow, 'language' | 'id'>): string {
  return row.language === 'kalahi' ? `kalahi/${String(row.id)}` : `multiloko/${row.language}/${String(row.id)}`;
}

export class ReplayProvider implements ModelProvider {
  readonly file: string;
  readonly onMissing: 'empty' | 'fail';
  readonly #answers: Map<string, string>;
  /** The same rows by `<language>/<id>`, for items of benchmarks other than MultiLoKo. */
  readonly #byLanguage: Map<string, string>;
  /** The rows' language keys (a benchmark's name for rows of benchmarks other than MultiLoKo). */
  readonly #languages: Set<string>;

  /** Later rows win over earlier rows with the same key, as in eval.py. */
  constructor(file: string, rows: readonly PredictionRow[], options: ReplayOptions = {}) {
    this.file = file;
    this.onMissing = options.onMissing ?? 'empty';
    // A row's trial joins its key from trial 1 on, so files without trials keep their keys and row counts.
    const trialSuffix = (row: PredictionRow) => (row.trial ? `#${row.trial}` : '');
    this.#answers = new Map(rows.map((row) => [replayKey(row) + trialSuffix(row), row.prediction]));
    this.#byLanguage = new Map(rows.map((row) => [`${row.language}/${String(row.id)}${trialSuffix(row)}`, row.prediction]));
    this.#languages = new Set(rows.map((row) => row.language));
  }

  static async fromFile(file: string, options: ReplayOptions = {}): Promise<ReplayProvider> {
    const rows = await readPredictions(file, options.maxStreamBytes === undefined ? {} : { maxStreamBytes: options.maxStreamBytes });
    return new ReplayProvider(file, rows, options);
  }

  /**
   * Whether the file holds rows for `benchmark`: rows whose language is its name, or for MultiLoKo rows whose language
   * names no benchmark of `registered` (MultiLoKo's languages are eval.py's language keys).
   */
  servesBenchmark(benchmark: string, registered: readonly string[]): boolean {
    return this.#languages.has(benchmark) || (benchmark === 'multiloko' && [...this.#languages].some((language) => !registered.includes(language)));
  }

  get size(): number {
    return this.#answers.size;
  }

  describe(): ModelDescription {
    return { provider: 'replay', model: this.file, settings: { onMissing: this.onMissing, answers: this.#answers.size } };
  }

  async generate(requests: GenerateRequest[]): Promise<ReplayResult[]> {
    return requests.map((request) => this.answer(request.itemKey, request.trial));
  }

  /** The row of `itemKey` for trial `trial` (0-based; a row without a `trial` field is trial 0). */
  answer(itemKey: string | undefined, trial = 0): ReplayResult {
    if (!itemKey) {
      throw new ProviderError('replay', 'config', `a replay request needs an itemKey (e.g. "multiloko/italian/<id>"); file ${this.file}`);
    }
    const key = trial > 0 ? `${itemKey}#${trial}` : itemKey;
    const text = this.#answers.get(key) ?? this.#byLanguage.get(key);
    if (text !== undefined) return { text, latencyMs: 0, cached: false, missing: false };
    if (this.onMissing === 'fail') {
      throw new ProviderError('replay', 'not-found', `${this.file} has no prediction for ${itemKey} (a row {language, id, prediction})`);
    }
    return { text: '', latencyMs: 0, cached: false, missing: true };
  }

  async scoreContinuations(_requests: ContinuationRequest[]): Promise<ContinuationResult[]> {
    throw new ProviderError('replay', 'unsupported', `a predictions file (${this.file}) has no log-probabilities; use a transformers: or openai: model`);
  }
}
