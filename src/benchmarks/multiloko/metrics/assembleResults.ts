// eval.py's results dict (METRICS.md §9.4): per language the example records by id, then the per-language means;
// then group_metrics. Python dict semantics: a repeated id keeps its first position and takes the last record; an id
// equal to a metric name is skipped in the means and then overwritten by that mean, as in the reference.
import { MetricsError } from '../../../metrics/errors.ts';
import { groupMetrics } from './groupMetrics.ts';
import { languageMeans } from './languageMeans.ts';
import { EXTRA_METRICS, MULTILOKO_METRICS, type ExampleRecord } from './metricNames.ts';
import { pythonFloatRepr, pythonJsonDumps, type PyJson } from '../../../core/python/pythonJson.ts';
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
const RECORD_KEYS = new Set<string>([...MULTILOKO_METRICS, ...EXTRA_METRICS, 'targets', 'prediction']);
// Python dict keys keep their type: int 1 and str '1' are different keys.
const typedKey = (id: string | number) => `${typeof id}:${String(id)}`;

/** The results with Python's key order made explicit (object keys that look like integers would be reordered by JS). */
export function assembleOrderedResults(languages: ReadonlyArray<LanguageExamples>, opts: AssembleOptions = {}): OrderedResults {
  const extras = opts.extras ?? true;
  // Language dicts in first-seen order; a repeated language key merges into the first, as a dict would.
  const byKey = new Map<string, Map<string, OrderedEntry>>();
  for (const language of languages) {
    if (language.key === 'group_metrics') {
      throw new MetricsError('assembleResults: a language may not be called "group_metrics" (the results key of the aggregates)', 'key');
    }
    let entries = byKey.get(language.key);
    if (!entries) byKey.set(language.key, (entries = new Map()));
    for (const { id, record } of language.examples) {
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
    }
    means.push(written);
    out.languages.push({ key, entries: [...entries.values()] });
  }
  // With extras, edit_distance_first is aggregated when every language has its mean (groupMetrics' default).
  out.group = Object.entries(groupMetrics(means, { sum: opts.sum ?? 'fold', metrics: extras ? undefined : MULTILOKO_METRICS }));
  return out;
}

/** The record's keys in eval.py's order (em … edit_similarity, targets, prediction), then our extras. */
function orderedRecord(record: ExampleRecord, extras: boolean): Array<[string, unknown]> {
  const fields: Array<[string, unknown]> = MULTILOKO_METRICS.map((m) => [m, record[m]]);
  fields.push(['targets', record.targets], ['prediction', record.prediction]);
  if (extras) {
    for (const m of EXTRA_METRICS) fields.push([m, record[m]]);
    for (const [k, v] of Object.entries(record)) if (!RECORD_KEYS.has(k) && v !== undefined) fields.push([k, v]);
  }
  return fields;
}

/** eval.py's results as a plain object (ids as string keys; see officialResultsJson for the exact file text). */
export function assembleResults(languages: ReadonlyArray<LanguageExamples>, opts: AssembleOptions = {}): OfficialResults {
  const extras = opts.extras ?? true;
  const ordered = assembleOrderedResults(languages, opts);
  const results = {} as OfficialResults;
  for (const { key, entries } of ordered.languages) {
    const lang: LanguageResults = {};
    for (const { id, value } of entries) {
      lang[String(id)] = typeof value === 'number' ? value : (Object.fromEntries(orderedRecord(value, extras)) as unknown as ExampleRecord);
    }
    results[key] = lang;
  }
  results.group_metrics = Object.fromEntries(ordered.group);
  return results;
}

function toPyJson(value: unknown, where: string): PyJson {
  if (value === null) return { kind: 'null' };
  if (typeof value === 'string') return { kind: 'str', value };
  if (typeof value === 'boolean') return { kind: 'bool', value };
  if (typeof value === 'number') return Number.isInteger(value) ? { kind: 'int', value } : { kind: 'float', value };
  if (Array.isArray(value)) return { kind: 'list', items: value.map((v, i) => toPyJson(v, `${where}[${i}]`)) };
  if (typeof value === 'object') {
    return { kind: 'dict', entries: Object.entries(value as object).map(([k, v]) => [k, toPyJson(v, `${where}.${k}`)]) };
  }
  throw new MetricsError(`officialResultsJson: cannot write ${typeof value} at ${where}`, where);
}

function recordToPyJson(record: ExampleRecord, extras: boolean, where: string): PyJson {
  const entries: Array<[string, PyJson]> = orderedRecord(record, extras).map(([k, v]) => {
    // eval.py's metric values are floats, except f1, which is the int 0 when no token is shared.
    if (RECORD_KEYS.has(k) && k !== 'targets' && k !== 'prediction') {
      if (typeof v !== 'number') throw new MetricsError(`officialResultsJson: ${where}.${k} is not a number`, k);
      return [k, k === 'f1' && v === 0 ? { kind: 'int', value: 0 } : { kind: 'float', value: v }];
    }
    return [k, toPyJson(v, `${where}.${k}`)];
  });
  return { kind: 'dict', entries };
}

/** The results file exactly as eval.py writes it: `json.dump(results, f, ensure_ascii=False, indent=4)` (no newline). */
export function officialResultsJson(
  languages: ReadonlyArray<LanguageExamples>,
  opts: AssembleOptions & { indent?: number; trailing?: ReadonlyArray<[string, unknown]> } = {},
): string {
  const extras = opts.extras ?? true;
  const ordered = assembleOrderedResults(languages, opts);
  const pyKey = (id: string | number) => (typeof id === 'number' && !Number.isInteger(id) ? pythonFloatRepr(id) : String(id));
  const root: PyJson = {
    kind: 'dict',
    entries: [
      ...ordered.languages.map(({ key, entries }): [string, PyJson] => [
        key,
        {
          kind: 'dict',
          entries: entries.map(({ id, value }): [string, PyJson] => [
            pyKey(id),
            typeof value === 'number' ? { kind: 'float', value } : recordToPyJson(value, extras, `${key}.${String(id)}`),
          ]),
        },
      ]),
      ['group_metrics', { kind: 'dict', entries: ordered.group.map(([k, v]): [string, PyJson] => [k, { kind: 'float', value: v }]) }],
      // Our own top-level sections (e.g. `lokal`, `summary`) after the official ones.
      ...(opts.trailing ?? []).map(([k, v]): [string, PyJson] => [k, toPyJson(v, k)]),
    ],
  };
  return pythonJsonDumps(root, opts.indent ?? 4);
}
