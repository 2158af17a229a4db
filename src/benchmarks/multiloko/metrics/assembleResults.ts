// eval.py's results dict (docs/metrics.md#means-and-group-metrics): per language the example records by id, then the per-language means;
// then group_metrics. Python dict semantics: a repeated id keeps its first position and takes the last record; an id
// equal to a metric name is skipped in the means and then overwritten by that mean, as in the reference.
import { MetricsError } from '../../../metrics/errors.ts';
import { groupMetrics } from './groupMetrics.ts';
import { languageMeans } from './languageMeans.ts';
import { EXTRA_METRICS, LANGUAGE_METRICS, MULTILOKO_METRICS, type ExampleRecord, type ExtraMetric, type MultiLoKoMetric } from '../../../metrics/metricNames.ts';
import { pythonFloatRepr } from '../../../core/python/pythonJson.ts';
import type { PythonSumMode } from '../../../core/python/pythonSum.ts';

export interface LanguageExamples {
  /** eval.py's language key, e.g. `italian` or `italian_translated_human_english`. */
  key: string;
  examples: ReadonlyArray<{ id: string | number; record: ExampleRecord }>;
}

export interface AssembleOptions {
  /** Cross-language averages as Python ≤ 3.11 ('fold', default) or ≥ 3.12 ('neumaier') sums them. */
  sum?: PythonSumMode;
  /** Include our extra keys (edit_distance_first and any extra record fields); false = the official layout only. */
  extras?: boolean;
}

export type LanguageResults = Record<string, ExampleRecord | number>;
export type OfficialResults = Record<string, LanguageResults> & { group_metrics: Record<string, number> };

/** One key of a language dict, in order: an example id (its record, or the mean that overwrote it) or a metric mean. */
export interface OrderedEntry {
  id: string | number;
  value: ExampleRecord | number;
}

export interface OrderedResults {
  languages: Array<{ key: string; entries: OrderedEntry[] }>;
  group: Array<[string, number]>;
}

const OFFICIAL = new Set<string>(MULTILOKO_METRICS);
const LANGUAGE_METRIC_KEYS = new Set<string>(LANGUAGE_METRICS);
const RECORD_KEYS = new Set<string>([...MULTILOKO_METRICS, ...EXTRA_METRICS, 'targets', 'prediction']);
// The prefixes' key for the first record key, which opens the record with `{` instead of `,`.
const FIRST_RECORD_KEY = `{${MULTILOKO_METRICS[0]}`;
// Python dict keys keep their type: int 1 and str '1' are different keys. A Map keyed by the id itself keeps them
// apart too (SameValueZero: 1 and '1' differ, 0 and -0 are one key as in Python), without a key string per example.
const typedKey = (id: string | number): string | number => id;

/** The results with Python's key order made explicit (object keys that look like integers would be reordered by JS). */
export function assembleOrderedResults(languages: ReadonlyArray<LanguageExamples>, opts: AssembleOptions = {}): OrderedResults {
  const extras = opts.extras ?? true;
  // Language dicts in first-seen order; a repeated language key merges into the first, as a dict would.
  const byKey = new Map<string, Map<string | number, OrderedEntry>>();
  for (const language of languages) {
    if (language.key === 'group_metrics') {
      throw new MetricsError('assembleResults: a language may not be called "group_metrics" (the results key of the aggregates)', 'key');
    }
    let entries = byKey.get(language.key);
    if (!entries) byKey.set(language.key, (entries = new Map()));
    for (let e = 0; e < language.examples.length; e++) {
      const { id, record } = language.examples[e]!;
      const k = typedKey(id);
      const previous = entries.get(k);
      if (previous) previous.value = record;
      else entries.set(k, { id, value: record });
    }
  }

  const out: OrderedResults = { languages: [], group: [] };
  const means: Array<Record<string, number>> = [];
  for (const [key, entries] of byKey) {
    const counted: ExampleRecord[] = [];
    for (const e of entries.values()) if (!(typeof e.id === 'string' && OFFICIAL.has(e.id))) counted.push(e.value as ExampleRecord);
    if (counted.length === 0) {
      throw new MetricsError(`assembleResults: language "${key}" has no example to average (ZeroDivisionError in the reference)`, key);
    }
    const languageMean: Record<string, number> = languageMeans(counted);
    const written: Record<string, number> = {};
    for (const metric of MULTILOKO_METRICS) {
      const k = typedKey(metric);
      const existing = entries.get(k);
      if (existing) existing.value = languageMean[metric]!;
      else entries.set(k, { id: metric, value: languageMean[metric]! });
      written[metric] = languageMean[metric]!;
    }
    if (extras) {
      for (const metric of EXTRA_METRICS) {
        // An example whose id is this name keeps its record (the reference knows no such metric); the mean is left out.
        if (entries.has(typedKey(metric))) continue;
        entries.set(typedKey(metric), { id: metric, value: languageMean[metric]! });
        written[metric] = languageMean[metric]!;
      }
      // f1_words where every record of the language has it (a scorer that knows the text's language adds it).
      for (const metric of LANGUAGE_METRICS) {
        const mean = languageMean[metric];
        if (mean === undefined || entries.has(typedKey(metric))) continue;
        entries.set(typedKey(metric), { id: metric, value: mean });
        written[metric] = mean;
      }
    }
    means.push(written);
    out.languages.push({ key, entries: [...entries.values()] });
  }
  // With extras, edit_distance_first is aggregated when every language has its mean (groupMetrics' default).
  out.group = Object.entries(groupMetrics(means, { sum: opts.sum ?? 'fold', metrics: extras ? undefined : MULTILOKO_METRICS }));
  return out;
}

/** The record's keys in eval.py's order (em … edit_similarity, targets, prediction), then our extras (edit_distance_first, any other field). */
function recordObject(record: ExampleRecord, extras: boolean): ExampleRecord {
  const out: Record<string, unknown> = {};
  for (const m of MULTILOKO_METRICS) out[m] = record[m];
  out.targets = record.targets;
  out.prediction = record.prediction;
  if (extras) {
    for (const m of EXTRA_METRICS) out[m] = record[m];
    for (const k of Object.keys(record)) {
      const v = (record as unknown as Record<string, unknown>)[k];
      if (!RECORD_KEYS.has(k) && v !== undefined) out[k] = v;
    }
  }
  return out as unknown as ExampleRecord;
}

/** eval.py's results as a plain object (ids as string keys; see officialResultsJson for the exact file text). */
export function assembleResults(languages: ReadonlyArray<LanguageExamples>, opts: AssembleOptions = {}): OfficialResults {
  return resultsObject(assembleOrderedResults(languages, opts), opts);
}

/** assembleResults' object from results already assembled (assembleOrderedResults with the same options). */
export function resultsObject(ordered: OrderedResults, opts: Pick<AssembleOptions, 'extras'> = {}): OfficialResults {
  const extras = opts.extras ?? true;
  const results = {} as OfficialResults;
  for (const { key, entries } of ordered.languages) {
    const lang: LanguageResults = {};
    for (const { id, value } of entries) lang[String(id)] = typeof value === 'number' ? value : recordObject(value, extras);
    results[key] = lang;
  }
  results.group_metrics = Object.fromEntries(ordered.group);
  return results;
}

/** A record's metric value as a Python float; anything but a number is an error naming the field. */
function metricText(record: ExampleRecord, key: MultiLoKoMetric | ExtraMetric, where: string): string {
  const value: unknown = record[key];
  if (typeof value !== 'number') throw new MetricsError(`officialResultsJson: ${where}.${key} is not a number`, key);
  return pythonFloatRepr(value);
}

// The JSON text is written directly, as pieces joined once at the end (no intermediate tree, no growing strings):
// the same layout as pythonJsonDumps, which stays the reference for it (test/metrics/aggregate.test.ts compares both
// with Python's json.dumps).
class PyJsonWriter {
  readonly parts: string[] = [];
  readonly #lines: string[] = [];
  constructor(readonly indent: number) {}

  /** The newline and indentation that open a line at `level`. */
  line(level: number): string {
    return (this.#lines[level] ??= '\n' + ' '.repeat(this.indent * level));
  }

  /** Any JSON-able value as pythonJsonDumps writes it (integers as ints, other numbers as floats, dict key order kept). */
  value(value: unknown, level: number, where: string): void {
    const out = this.parts;
    if (value === null) {
      out.push('null');
      return;
    }
    switch (typeof value) {
      case 'string':
        out.push(JSON.stringify(value));
        return;
      case 'boolean':
        out.push(value ? 'true' : 'false');
        return;
      case 'number':
        out.push(Number.isInteger(value) ? String(value) : pythonFloatRepr(value));
        return;
      case 'object': {
        const inner = this.line(level + 1);
        if (Array.isArray(value)) {
          if (value.length === 0) {
            out.push('[]');
            return;
          }
          for (let i = 0; i < value.length; i++) {
            out.push(i ? ',' + inner : '[' + inner);
            this.value(value[i], level + 1, `${where}[${i}]`);
          }
          out.push(this.line(level) + ']');
          return;
        }
        const keys = Object.keys(value);
        if (keys.length === 0) {
          out.push('{}');
          return;
        }
        for (let i = 0; i < keys.length; i++) {
          const k = keys[i]!;
          out.push((i ? ',' : '{') + inner + JSON.stringify(k) + ': ');
          this.value((value as Record<string, unknown>)[k], level + 1, `${where}.${k}`);
        }
        out.push(this.line(level) + '}');
        return;
      }
    }
    throw new MetricsError(`officialResultsJson: cannot write ${typeof value} at ${where}`, where);
  }

  /** Per level: the `{\n<indent>"em": `, `,\n<indent>"f1": `, … prefixes of the record keys every item repeats. */
  readonly #recordPrefixes: Array<Record<string, string>> = [];
  recordPrefixes(level: number): Record<string, string> {
    let prefixes = this.#recordPrefixes[level];
    if (prefixes === undefined) {
      prefixes = {};
      const inner = this.line(level + 1);
      for (const key of RECORD_KEYS) prefixes[key] = ',' + inner + JSON.stringify(key) + ': ';
      prefixes[FIRST_RECORD_KEY] = '{' + inner + JSON.stringify(MULTILOKO_METRICS[0]) + ': ';
      this.#recordPrefixes[level] = prefixes;
    }
    return prefixes;
  }

  /** A list of strings at `level` (a record's targets), as value() writes it, in one string. */
  stringList(list: unknown, level: number, where: string, field: string): string {
    if (!Array.isArray(list) || list.length === 0) {
      const start = this.parts.length;
      this.value(list, level, `${where}.${field}`);
      return this.parts.splice(start).join('');
    }
    const inner = this.line(level + 1);
    const pieces: string[] = [];
    for (let i = 0; i < list.length; i++) {
      const item: unknown = list[i];
      if (typeof item !== 'string') {
        const start = this.parts.length;
        this.value(list, level, `${where}.${field}`);
        return this.parts.splice(start).join('');
      }
      pieces.push(i ? ',' : '[', inner, JSON.stringify(item));
    }
    pieces.push(this.line(level), ']');
    return pieces.join('');
  }

  /**
   * One example record at `level`, in recordObject's key order: metric values as Python floats (f1's int 0 as `0`),
   * targets, prediction, then our extras. Built as one string per record (a cold process pays per operation).
   */
  record(record: ExampleRecord, extras: boolean, level: number, where: string): void {
    const p = this.recordPrefixes(level);
    const float = (key: MultiLoKoMetric | ExtraMetric): string => metricText(record, key, where);
    // eval.py's metric values are floats, except f1, which is the int 0 when no token is shared.
    const f1 = record.f1 === 0 ? '0' : float('f1');
    // One array joined once: the record's text is one flat string, and its pieces die young (a `+` chain would keep
    // every piece alive in a rope until the final join, for the garbage collector to copy).
    const pieces = [
      p[FIRST_RECORD_KEY]!, float('em'), p.f1!, f1, p.bleu!, float('bleu'), p.chrf!, float('chrf'),
      p.edit_distance!, float('edit_distance'), p.edit_similarity!, float('edit_similarity'),
      p.targets!, this.stringList(record.targets, level + 1, where, 'targets'),
      p.prediction!, typeof record.prediction === 'string' ? JSON.stringify(record.prediction) : this.stringList(record.prediction, level + 1, where, 'prediction'),
    ];
    if (extras) {
      pieces.push(p.edit_distance_first!, float('edit_distance_first'));
      // Own keys as for-in with hasOwn would give them, in one call (for-in costs a step per key in cold code).
      const keys = Object.keys(record);
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i]!;
        if (RECORD_KEYS.has(k)) continue;
        const v = (record as unknown as Record<string, unknown>)[k];
        if (v === undefined) continue;
        // A metric is a Python float (`1.0`), as the official ones are written.
        if (typeof v === 'number' && LANGUAGE_METRIC_KEYS.has(k)) {
          pieces.push(',' + this.line(level + 1) + JSON.stringify(k) + ': ' + pythonFloatRepr(v));
          continue;
        }
        const start = this.parts.length;
        this.value(v, level + 1, `${where}.${k}`);
        pieces.push(',' + this.line(level + 1) + JSON.stringify(k) + ': ', ...this.parts.splice(start));
      }
    }
    pieces.push(this.line(level) + '}');
    this.parts.push(pieces.join(''));
  }
}

/** The results file exactly as eval.py writes it: `json.dump(results, f, ensure_ascii=False, indent=4)` (no newline). */
export function officialResultsJson(
  languages: ReadonlyArray<LanguageExamples>,
  opts: AssembleOptions & { indent?: number; trailing?: ReadonlyArray<[string, unknown]> } = {},
): string {
  return orderedResultsJson(assembleOrderedResults(languages, opts), opts);
}

type ResultsJsonOptions = Pick<AssembleOptions, 'extras'> & { indent?: number; trailing?: ReadonlyArray<[string, unknown]> };

/** officialResultsJson's text from results already assembled (assembleOrderedResults with the same options). */
function orderedResultsJson(ordered: OrderedResults, opts: ResultsJsonOptions = {}): string {
  const pieces: string[] = [];
  writeOrderedResultsJson(ordered, (piece) => pieces.push(piece), opts);
  return pieces.join('');
}

/** Pieces held before they are handed over (a few thousand records' worth at most). */
const FLUSH_PIECES = 4096;

/**
 * orderedResultsJson's text handed to `write` piece by piece (about one per record), in order: a file written as the
 * pieces come never holds the whole text (a 37,750-item run's is 15 MB, twice that as UTF-16) nor its UTF-8 copy.
 */
export function writeOrderedResultsJson(ordered: OrderedResults, write: (piece: string) => void, opts: ResultsJsonOptions = {}): void {
  const extras = opts.extras ?? true;
  const writer = new PyJsonWriter(opts.indent ?? 4);
  const out = writer.parts;
  const flush = () => {
    for (let i = 0; i < out.length; i++) write(out[i]!);
    out.length = 0;
  };
  const pyKey = (id: string | number) => (typeof id === 'number' && !Number.isInteger(id) ? pythonFloatRepr(id) : String(id));
  const top = writer.line(1);
  const second = writer.line(2);
  let firstTop = true;
  const openTop = (key: string) => {
    out.push((firstTop ? '{' : ',') + top + JSON.stringify(key) + ': ');
    firstTop = false;
  };
  for (const { key, entries } of ordered.languages) {
    openTop(key);
    if (entries.length === 0) {
      out.push('{}');
      continue;
    }
    for (let i = 0; i < entries.length; i++) {
      const { id, value } = entries[i]!;
      out.push((i ? ',' : '{') + second + JSON.stringify(pyKey(id)) + ': ');
      if (typeof value === 'number') out.push(pythonFloatRepr(value));
      else writer.record(value, extras, 2, `${key}.${String(id)}`);
      if (out.length >= FLUSH_PIECES) flush();
    }
    out.push(top + '}');
  }
  openTop('group_metrics');
  if (ordered.group.length === 0) out.push('{}');
  else out.push('{' + ordered.group.map(([k, v]) => second + JSON.stringify(k) + ': ' + pythonFloatRepr(v)).join(',') + top + '}');
  // Our own top-level sections (e.g. `lokal`, `summary`) after the official ones.
  for (const [k, v] of opts.trailing ?? []) {
    openTop(k);
    writer.value(v, 1, k);
  }
  out.push(writer.line(0) + '}');
  flush();
}
