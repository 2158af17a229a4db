// The HTML report: render it from parsed results, or read a results folder and write `report.html` beside them.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../core/io.ts';
import { requireShallow } from '../core/jsonDepth.ts';
import { renderHtmlReport } from './html.ts';
import type { ReportInput, RunResults } from './types.ts';

export { renderHtmlReport } from './html.ts';
export { escapeHtml } from './escape.ts';
export { barChartSpec, renderChart, unsafeSvg, type BarDatum } from './charts.ts';
export { multilokoView, multilokoSubsets, emDifference, parseSubsetKey, type MultiLoKoView, type MultiLoKoSubset, type MultiLoKoItem, type Verdict } from './multiloko.ts';
export { kalahiView, kalahiFigures, type KalahiView, type KalahiVariantView, type KalahiPrompt } from './kalahi.ts';
export { compareMultiLoKo, compareKalahi, type Comparison, type Flip } from './compare.ts';
export type { ReportInput, RunResults, MultiLoKoResultsJson, KalahiResultsJson } from './types.ts';

/**
 * The results of one run from disk: a folder holding `multiloko.json` and/or `kalahi.json`, or one such file (a file
 * with `variants` is Kalahi's; anything else is read as MultiLoKo's, which includes `lokal score` output).
 */
export function readRunResults(location: string): RunResults {
  const read = (file: string) => {
    const value = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    // Bounded depth (the walks below are recursive) and an object that holds a benchmark's results.
    requireShallow(value, file);
    if (!holdsResults(value)) throw new Error(`${file}: holds no benchmark results (expected the object of a multiloko.json, kalahi.json or \`lokal score\` output, found ${describeKind(value)})`);
    return value;
  };
  if (existsSync(path.join(location, 'multiloko.json')) || existsSync(path.join(location, 'kalahi.json'))) {
    const out: RunResults = {};
    if (existsSync(path.join(location, 'multiloko.json'))) out.multiloko = read(path.join(location, 'multiloko.json'));
    if (existsSync(path.join(location, 'kalahi.json'))) out.kalahi = read(path.join(location, 'kalahi.json'));
    return out;
  }
  const parsed = read(location);
  return parsed.benchmark === 'kalahi' || 'variants' in parsed ? { kalahi: parsed } : { multiloko: parsed };
}

function describeKind(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object with neither "variants" nor a language entry holding "em" or item records' : `a ${typeof value}`;
}

/** Kalahi's results (`variants`), or MultiLoKo's: an object with a language entry holding its mean `em` or item records. */
function holdsResults(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  if (record.variants !== null && typeof record.variants === 'object' && !Array.isArray(record.variants)) return true;
  return Object.values(record).some((entry) => hasEm(entry) || (isObject(entry) && Object.values(entry).some(hasEm)));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A language entry with its mean, or an item record: an object with a numeric `em`. */
function hasEm(value: unknown): boolean {
  return isObject(value) && typeof value.em === 'number';
}

/** Renders and writes the report atomically (a half-written report is never left at `file`); returns the HTML. */
export async function writeHtmlReport(file: string, input: ReportInput): Promise<string> {
  const text = await renderHtmlReport(input);
  // The results writer's: a failed write (ENOSPC, a folder in the way) leaves no temp file, and stale ones are removed.
  await writeFileAtomic(file, text);
  return text;
}
